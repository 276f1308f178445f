#include "match_demo.hpp"

#include <array>
#include <chrono>
#include <cmath>

namespace marrow::cli {

namespace {

constexpr float kWalk = 1.4f;           // m/s: the Bandai set's walks
constexpr float kCircleRadius = 3.f;    // m
constexpr double kZigzagLeg = 3.0;      // s per leg, alternately 45 degrees left and right of +Z
constexpr double kGo = 3.0, kStop = 2.0;  // s walking, then standing, repeated

glm::vec3 heading(float yaw) { return {std::sin(yaw), 0.f, std::cos(yaw)}; }

glm::vec3 ground(const glm::vec3& v) { return {v.x, 0.f, v.z}; }

}  // namespace

std::optional<MatchPath> match_path_from_name(std::string_view name) noexcept {
  if (name == "circle") return MatchPath::Circle;
  if (name == "zigzag") return MatchPath::Zigzag;
  if (name == "stop-and-go") return MatchPath::StopAndGo;
  return std::nullopt;
}

std::string_view match_path_name(MatchPath path) noexcept {
  switch (path) {
    case MatchPath::Circle: return "circle";
    case MatchPath::Zigzag: return "zigzag";
    case MatchPath::StopAndGo: return "stop-and-go";
  }
  return "?";
}

MotionInput match_input(MatchPath path, double t) noexcept {
  switch (path) {
    case MatchPath::Circle:  // turning left (toward +X) at kWalk around a circle of kCircleRadius
      return {heading(static_cast<float>(t) * kWalk / kCircleRadius) * kWalk, {}};
    case MatchPath::Zigzag: {
      const bool left = static_cast<long>(std::floor(t / kZigzagLeg)) % 2 == 0;
      return {heading(left ? 0.785398f : -0.785398f) * kWalk, {}};
    }
    case MatchPath::StopAndGo: {
      const bool go = std::fmod(t, kGo + kStop) < kGo;
      // Standing still, the facing stays +Z (a zero velocity keeps the last facing).
      return {go ? glm::vec3(0.f, 0.f, kWalk) : glm::vec3(0.f), {0.f, 0.f, 1.f}};
    }
  }
  return {};
}

MatchFigures run_match_demo(const MotionClips& clips, MatchPath path, double seconds, bool foot_lock, const MatchFrameVisitor& visit) {
  MotionMatcher matcher(clips, {.foot_lock = foot_lock});
  matcher.reset(0, glm::vec3(0.f), 0.f);
  MatchFigures f;
  f.seconds = seconds;
  f.frames = static_cast<std::size_t>(std::llround(seconds * kMatchRate));
  const float dt = static_cast<float>(1.0 / kMatchRate);
  std::array<glm::vec3, 2> last_foot{};
  std::array<bool, 2> last_contact{false, false};
  double error = 0, sliding = 0, cost = 0, nanoseconds = 0;
  std::size_t contact_frames = 0, costs = 0;
  for (std::size_t frame = 0; frame < f.frames; ++frame) {
    const MotionInput input = match_input(path, static_cast<double>(frame) / kMatchRate);
    const auto start = std::chrono::steady_clock::now();
    matcher.update(dt, input);
    nanoseconds += static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    error += static_cast<double>(glm::length(ground(matcher.position() - matcher.simulation_position())));
    if (matcher.searched() && std::isfinite(matcher.best_cost())) cost += static_cast<double>(matcher.best_cost()), ++costs;
    for (std::size_t foot = 0; foot < 2; ++foot) {
      // The foot as drawn: the frame's pose with the frame's transform (motion_matcher.hpp).
      const auto node = static_cast<std::size_t>(clips.leg(foot)[2]);
      const glm::vec3 p(matcher.world() * matcher.animator().absolute_bone_transforms()[node][3]);
      const bool contact = clips.contact(matcher.row(), foot);
      if (contact && last_contact[foot]) {
        sliding += static_cast<double>(glm::length(p - last_foot[foot])) * kMatchRate;
        ++contact_frames;
      }
      last_foot[foot] = p;
      last_contact[foot] = contact;
    }
    if (visit) visit(frame, matcher);
  }
  const double n = static_cast<double>(f.frames > 0 ? f.frames : 1);
  f.trajectory_error_cm = 100.0 * error / n;
  f.foot_sliding_cm_per_s = contact_frames > 0 ? 100.0 * sliding / static_cast<double>(contact_frames) : 0.0;
  f.searches_per_s = seconds > 0 ? static_cast<double>(matcher.searches()) / seconds : 0.0;
  f.switches_per_s = seconds > 0 ? static_cast<double>(matcher.switches()) / seconds : 0.0;
  f.mean_cost = costs > 0 ? cost / static_cast<double>(costs) : 0.0;
  f.frame_us = nanoseconds / n / 1000.0;
  return f;
}

}  // namespace marrow::cli
