#include "marrow/model/baked_root_motion.hpp"

#include "marrow/runtime/track_sampler.hpp"

#include "runtime/key_search.hpp"

namespace marrow {

RootMotion BakedRootMotion::at(Ticks t, std::size_t& cursor) const noexcept {
  const std::size_t n = times.size();
  if (n == 0) return {};
  if (t <= times.front()) return offsets.front();
  if (t >= times.back()) return offsets.back();
  const std::size_t k = detail::find_key_index(n, [&](std::size_t i) { return times[i]; }, t, cursor);
  cursor = k;
  const RootMotion& a = offsets[k];
  const RootMotion& b = offsets[k + 1];
  const float p = key_fraction(times[k], times[k + 1], t);
  return {a.translation + (b.translation - a.translation) * p, a.yaw + (b.yaw - a.yaw) * p};
}

}  // namespace marrow
