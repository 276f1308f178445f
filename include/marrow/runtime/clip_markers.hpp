#pragma once
// Markers reached by a clock (B7): named points in a clip's time (a footstep, a sword's hit
// frame) and which of them one advance of a PlaybackClock crossed, in the order it crossed
// them: forward in ascending time, backward in descending time, across loop wraps, ping-pong
// turns and whole cycles, each crossing once (the run semantics are playback_clock.hpp's: a
// run reaches (from, to] in its direction, and `from` too when include_from). Markers at one
// time are reported in list order going forward and in reverse list order going backward.
#include <cstddef>
#include <cstdint>
#include <span>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/playback_clock.hpp"

namespace marrow {

// times: the markers' times, sorted ascending. Writes the index of each marker reached, in
// crossing order, into out (as many as fit) and returns how many crossings there were in all
// (more than out.size() when some did not fit). Allocates nothing.
std::size_t markers_reached(std::span<const Ticks> times, const ClockStep& step, std::span<std::uint32_t> out) noexcept;

}  // namespace marrow
