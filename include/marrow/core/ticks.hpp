#pragma once
// Time in marrow: 100 ns ticks (the seed's TimeSpan resolution) held in a signed 64-bit count.
// Player looping is integer floor-modulo on these ticks, so long sessions never lose precision.
#include <chrono>
#include <cstdint>

namespace marrow {

using Ticks = std::chrono::duration<std::int64_t, std::ratio<1, 10'000'000>>;

inline constexpr std::int64_t kTicksPerSecond = 10'000'000;

// Seconds to ticks, rounded to nearest (ties to even). NaN gives 0; values beyond +-2^62 ticks
// (about 14,600 years) saturate to the limits of Ticks, so hostile times never overflow.
Ticks ticks_from_seconds(double seconds) noexcept;

// Ticks to seconds as a double (exact for any duration below 2^53 ticks, about 28 years).
constexpr double seconds_from_ticks(Ticks t) noexcept {
  return static_cast<double>(t.count()) / static_cast<double>(kTicksPerSecond);
}

// a + b without signed overflow: the result saturates at the limits of Ticks.
Ticks saturating_add(Ticks a, Ticks b) noexcept;

// Floor-modulo: the result is in [0, period) for any a, with period > 0.
constexpr Ticks floor_mod(Ticks a, Ticks period) noexcept {
  std::int64_t r = a.count() % period.count();
  if (r < 0) r += period.count();
  return Ticks{r};
}

// THE playback time rule (P3, used by every player): no clip or a duration <= 0 holds 0; a
// positive duration loops by floor-modulo, or clamps to [0, duration] when not looping.
constexpr Ticks playback_time(Ticks t, Ticks duration, bool loop) noexcept {
  if (duration <= Ticks{0}) return Ticks{0};
  if (loop) return floor_mod(t, duration);
  return t < Ticks{0} ? Ticks{0} : (t > duration ? duration : t);
}

}  // namespace marrow
