#pragma once
// One clip's clock (B5): a position in [0, duration] advanced by signed rate * dt under a loop
// mode, and the path it took, for events (B7) and root motion (R1).
//
//   Loop      floor-modulo (playback_time): forward past the end re-enters at 0, backward past
//             0 re-enters at the end.
//   Once      clamps to [0, duration]; `finished` once the end in the play direction is reached
//             (the end for a positive rate, 0 for a negative one).
//   PingPong  bounces at both ends: the position runs 0 -> duration -> 0 -> ...; the direction
//             flips at each end.
//
// The path of one advance is a short list of runs in clip time, each monotonic. A run reaches
// the times in (from, to] in its direction (and `from` itself when include_from: the first
// advance after a start or seek, and a loop's re-entry at the seam). A loop's seam is crossed
// as "arrive at the end, re-enter at the start": markers at the end are reached on arrival,
// markers at 0 on re-entry. Many whole cycles in one advance are one run with a repeat count;
// a ping-pong's whole back-and-forth legs are round trips (from -> to -> from, the turn at
// `to` reached once, the arrival at `from` reached).
//
// A duration <= 0 holds 0 (playback_time): its path is at most the single point 0, reached on
// the first advance. Every step is exact integer tick arithmetic; rate * dt is rounded to the
// nearest tick and saturates.
#include <array>
#include <cstddef>
#include <cstdint>

#include "marrow/core/ticks.hpp"

namespace marrow {

// rate * dt in ticks, rounded to nearest, saturating; 0 for a NaN product.
Ticks scaled_ticks(Ticks dt, double rate) noexcept;

// Sync (B6, AG5): how far a member clip of `duration` moves when its group's phase moves by
// `cycles` whole cycles and, within a cycle, from clip position `from` to `to` (ticks, not yet
// rounded): the whole cycles' ticks plus the difference of the rounded positions, so a member
// stays exactly at its rounded position however many steps it takes. Saturating.
Ticks phase_step(Ticks duration, double cycles, double from, double to) noexcept;

enum class LoopMode : std::uint8_t { Loop, Once, PingPong };

struct ClockRun {
  Ticks from{}, to{};          // clip times; forward when to > from, backward when to < from
  bool include_from = false;   // `from` is reached by this run too
  bool round_trip = false;     // from -> to -> back to from (ping-pong); `to` reached once
  std::int64_t repeat = 1;     // the run taken this many times in a row
};

// The count first: with the first run it is what a frame reads, in one cache line.
struct ClockStep {
  std::size_t run_count = 0;
  bool finished = false;       // Once: the end in the play direction is reached (now or before)
  std::array<ClockRun, 4> runs{};
};

// An empty step (no path), written in place: no run past run_count is read. (A ClockStep{}
// assigned would be read back right after it is written: a store-forwarding stall.)
inline void clear_step(ClockStep& step) noexcept {
  step.run_count = 0;
  step.finished = false;
}

// dst = src as far as it is read: the runs up to run_count (a frame's step is usually one run
// of the four it has room for).
inline void copy_step(ClockStep& dst, const ClockStep& src) noexcept {
  for (std::size_t r = 0; r < src.run_count && r < src.runs.size(); ++r) dst.runs[r] = src.runs[r];
  dst.run_count = src.run_count;
  dst.finished = src.finished;
}

class PlaybackClock {
 public:
  PlaybackClock() = default;
  // Starts at `start` (put into [0, duration] by the mode's rule; a negative rate under Once
  // or PingPong starting at 0 is at its end already); the first advance reaches the start too.
  PlaybackClock(Ticks duration, float rate, LoopMode mode, Ticks start = Ticks{0}) noexcept;

  // Moves by rate * dt (dt may be negative). Never throws; a NaN or infinite rate is treated
  // as 0 (Animator and the CLI refuse them before they get here).
  ClockStep advance(Ticks dt) noexcept { return advance_ticks(scaled_ticks(dt, rate_), mode_); }
  // Moves by exactly `delta` clip ticks (sync groups), ignoring the rate, under `rule` (the
  // clock's own mode, or Once for one clamped step of a looping clip).
  ClockStep advance_ticks(Ticks delta) noexcept { return advance_ticks(delta, mode_); }
  ClockStep advance_ticks(Ticks delta, LoopMode rule) noexcept {
    ClockStep step;
    advance_ticks(delta, rule, step);
    return step;
  }
  // The same, the step written in place (its runs past run_count left as they were): a step
  // returned and then assigned is read back right after its fields are written, a
  // store-forwarding stall every call.
  void advance(Ticks dt, ClockStep& step) noexcept { advance_ticks(scaled_ticks(dt, rate_), mode_, step); }
  void advance_ticks(Ticks delta, LoopMode rule, ClockStep& step) noexcept;
  // Jumps to t (put into range by `rule`, the clock's own mode by default); the next advance
  // reaches t too. No path.
  void seek(Ticks t) noexcept { seek(t, mode_); }
  void seek(Ticks t, LoopMode rule) noexcept;

  Ticks time() const noexcept { return time_; }
  Ticks duration() const noexcept { return duration_; }
  float rate() const noexcept { return rate_; }
  void set_rate(float rate) noexcept;
  LoopMode mode() const noexcept { return mode_; }
  bool finished() const noexcept { return finished_; }
  // PingPong: true while the position runs towards 0 (for a positive rate).
  bool reversed() const noexcept { return reversed_; }

 private:
  // Once's rule: the end in the play direction (the duration for rate >= 0, else 0) is reached.
  bool at_end() const noexcept { return rate_ >= 0.f ? time_ == duration_ : time_ == Ticks{0}; }

  Ticks duration_{};
  Ticks time_{};
  float rate_ = 1.f;
  LoopMode mode_ = LoopMode::Loop;
  bool reversed_ = false;
  bool fresh_ = true;
  bool finished_ = false;
};

}  // namespace marrow
