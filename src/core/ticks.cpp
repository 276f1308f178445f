#include "marrow/core/ticks.hpp"

#include <cmath>
#include <limits>

namespace marrow {

Ticks ticks_from_seconds(double seconds) noexcept {
  if (!std::isfinite(seconds)) return Ticks{0};
  const double ticks = std::round(seconds * static_cast<double>(kTicksPerSecond));
  // 2^63 is exactly representable; anything at or beyond it saturates.
  constexpr double kLimit = 9223372036854775808.0;
  if (ticks >= kLimit) return Ticks{std::numeric_limits<std::int64_t>::max()};
  if (ticks <= -kLimit) return Ticks{std::numeric_limits<std::int64_t>::min()};
  return Ticks{static_cast<std::int64_t>(ticks)};
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
