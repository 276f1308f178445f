#include "marrow/core/ticks.hpp"

#include <cmath>
#include <limits>

namespace marrow {

Ticks ticks_from_seconds(double seconds) noexcept {
  const double ticks = seconds * static_cast<double>(kTicksPerSecond);
  // Within +-2^62 the hardware conversion rounds to nearest directly (this runs once per key).
  constexpr double kFast = 4611686018427387904.0;
  if (ticks > -kFast && ticks < kFast) return Ticks{std::llrint(ticks)};
  if (std::isnan(ticks)) return Ticks{0};
  return ticks > 0 ? Ticks{std::numeric_limits<std::int64_t>::max()} : Ticks{std::numeric_limits<std::int64_t>::min()};
}

Ticks saturating_add(Ticks a, Ticks b) noexcept {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a.count(), b.count(), &r)) {
    return b.count() > 0 ? Ticks{std::numeric_limits<std::int64_t>::max()}
                         : Ticks{std::numeric_limits<std::int64_t>::min()};
  }
  return Ticks{r};
}

}  // namespace marrow
