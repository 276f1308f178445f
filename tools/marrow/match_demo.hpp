#pragma once
// `marrow match demo`'s run: a scripted gamepad (a path: circle, zigzag, stop-and-go) played
// through one MotionMatcher (foot lock on unless asked) at 60 frames a second, and what it measures. The
// script is a function of time only, so the run is deterministic (MM7): the same file, path and
// length give the same figures, frame_us (wall-clock) aside.
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/motion_matcher.hpp"

namespace marrow::cli {

enum class MatchPath { Circle, Zigzag, StopAndGo };

// "circle", "zigzag" or "stop-and-go"; nullopt otherwise.
std::optional<MatchPath> match_path_from_name(std::string_view name) noexcept;
std::string_view match_path_name(MatchPath path) noexcept;

// The gamepad at time t (seconds): a desired velocity on the ground (m/s), facing along it.
MotionInput match_input(MatchPath path, double t) noexcept;

struct MatchFigures {
  double seconds = 0;
  std::size_t frames = 0;
  double trajectory_error_cm = 0;    // mean ground distance, character to simulated position
  double foot_sliding_cm_per_s = 0;  // mean foot speed over the frames a foot is in contact
  double searches_per_s = 0, switches_per_s = 0;
  double mean_cost = 0;              // mean cost of the searches' best rows
  double frame_us = 0;               // mean wall-clock time of MotionMatcher::update
};

// What a frame shows: the matcher after its update, with the frame's index.
using MatchFrameVisitor = std::function<void(std::size_t frame, const MotionMatcher& matcher)>;

inline constexpr double kMatchRate = 60.0;

// Plays `seconds` of the path from row 0 at the origin facing +Z; calls visit (when set) after
// every frame.
MatchFigures run_match_demo(const MotionClips& clips, MatchPath path, double seconds, bool foot_lock = true,
                            const MatchFrameVisitor& visit = {});

}  // namespace marrow::cli
