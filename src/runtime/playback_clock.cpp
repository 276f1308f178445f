#include "marrow/runtime/playback_clock.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marrow {

namespace {

using U64 = std::uint64_t;

constexpr std::int64_t clamp_repeat(U64 k) noexcept {
  return k > static_cast<U64>(std::numeric_limits<std::int64_t>::max()) ? std::numeric_limits<std::int64_t>::max()
                                                                         : static_cast<std::int64_t>(k);
}

struct Path {
  ClockStep& step;
  void add(Ticks from, Ticks to, bool include_from, std::int64_t repeat = 1, bool round_trip = false) noexcept {
    step.runs[step.run_count++] = ClockRun{from, to, include_from, round_trip, repeat};
  }
};

// |delta| without overflow (|INT64_MIN| = 2^63 fits unsigned).
constexpr U64 magnitude(Ticks delta) noexcept {
  return delta.count() < 0 ? U64{0} - static_cast<U64>(delta.count()) : static_cast<U64>(delta.count());
}

}  // namespace

Ticks scaled_ticks(Ticks dt, double rate) noexcept {
  const double v = static_cast<double>(dt.count()) * rate;
  if (std::isnan(v)) return Ticks{0};
  constexpr double kFast = 4611686018427387904.0;  // 2^62: llrint is exact and in range below
  if (v > -kFast && v < kFast) return Ticks{std::llrint(v)};
  return v > 0 ? Ticks{std::numeric_limits<std::int64_t>::max()} : Ticks{std::numeric_limits<std::int64_t>::min()};
}

Ticks phase_step(Ticks duration, double cycles, double from, double to) noexcept {
  const double whole = std::clamp(cycles * static_cast<double>(duration.count()), -4e18, 4e18);
  return saturating_add(Ticks{static_cast<std::int64_t>(whole)}, Ticks{std::llround(to) - std::llround(from)});
}

PlaybackClock::PlaybackClock(Ticks duration, float rate, LoopMode mode, Ticks start) noexcept
    : duration_(duration), mode_(mode) {
  set_rate(rate);
  seek(start);
}

void PlaybackClock::set_rate(float rate) noexcept {
  rate_ = std::isfinite(rate) ? rate : 0.f;
  if (mode_ == LoopMode::Once && duration_ > Ticks{0}) finished_ = at_end();
}

void PlaybackClock::seek(Ticks t, LoopMode rule) noexcept {
  time_ = playback_time(t, duration_, rule == LoopMode::Loop);
  fresh_ = true;
  reversed_ = false;
  finished_ = mode_ == LoopMode::Once && duration_ > Ticks{0} && at_end();  // set_rate's rule
}

void PlaybackClock::advance_ticks(Ticks delta, LoopMode rule, ClockStep& step) noexcept {
  step.run_count = 0;
  Path path{step};
  const bool fresh = fresh_;
  fresh_ = false;
  const Ticks d = duration_;
  if (d <= Ticks{0}) {
    time_ = Ticks{0};
    if (fresh) path.add(Ticks{0}, Ticks{0}, true);
    finished_ = rule == LoopMode::Once;
    path.step.finished = finished_;
    return;
  }
  const Ticks t = time_;
  const U64 s = magnitude(delta);
  const U64 span = static_cast<U64>(d.count());
  if (s == 0) {
    if (fresh) path.add(t, t, true);
    path.step.finished = finished_;
    return;
  }
  const bool positive = delta.count() > 0;
  const auto at = [](U64 v) { return Ticks{static_cast<std::int64_t>(v)}; };
  const U64 tu = static_cast<U64>(t.count());

  switch (rule) {
    case LoopMode::Loop: {
      if (positive) {
        if (s < span - tu) {
          path.add(t, at(tu + s), fresh);
          time_ = at(tu + s);
          break;
        }
        path.add(t, d, fresh);  // arrive at the end, re-enter at 0
        const U64 r = s - (span - tu);
        if (r / span > 0) path.add(Ticks{0}, d, true, clamp_repeat(r / span));
        path.add(Ticks{0}, at(r % span), true);
        time_ = at(r % span);
      } else {
        if (s <= tu) {
          path.add(t, at(tu - s), fresh);
          time_ = at(tu - s);
          break;
        }
        path.add(t, Ticks{0}, fresh);  // arrive at 0, re-enter at the end
        const U64 r = s - tu;
        if (r / span > 0) path.add(d, Ticks{0}, true, clamp_repeat(r / span));
        if (r % span != 0) path.add(d, at(span - r % span), true);
        time_ = r % span != 0 ? at(span - r % span) : Ticks{0};
      }
      break;
    }
    case LoopMode::Once: {
      const Ticks to = positive ? (s < span - tu ? at(tu + s) : d) : (s < tu ? at(tu - s) : Ticks{0});
      if (to != t || fresh) path.add(t, to, fresh);
      time_ = to;
      break;
    }
    case LoopMode::PingPong: {
      // The direction of travel: the delta's, flipped while on a reversed leg.
      const bool forward = positive != reversed_;
      const U64 room = forward ? span - tu : tu;  // to the end ahead
      if (s < room) {
        path.add(t, forward ? at(tu + s) : at(tu - s), fresh);
        time_ = forward ? at(tu + s) : at(tu - s);
        break;
      }
      const Ticks end_ahead = forward ? d : Ticks{0}, end_behind = forward ? Ticks{0} : d;
      if (room > 0 || fresh) path.add(t, end_ahead, fresh);
      const U64 r = s - room;
      const U64 legs = r / span, rem = r % span;
      if (legs / 2 > 0) path.add(end_ahead, end_behind, false, clamp_repeat(legs / 2), true);
      Ticks here = end_ahead;
      if (legs % 2 == 1) {
        path.add(end_ahead, end_behind, false);
        here = end_behind;
      }
      // Each arrival at an end flips the direction: once after the first run, once per leg.
      const bool heading_up = here == Ticks{0};  // leaving 0 goes up, leaving the end goes down
      if (rem > 0) {
        const Ticks to = heading_up ? at(rem) : at(span - rem);
        path.add(here, to, false);
        here = to;
      }
      time_ = here;
      // Moving up now means forward; store it relative to the delta's sign.
      reversed_ = heading_up != positive;
      break;
    }
  }
  if (rule == LoopMode::Once) finished_ = at_end();
  path.step.finished = finished_;
}

}  // namespace marrow
