#include "marrow/model/bounds.hpp"

#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/float4.hpp"

namespace marrow {

BoundingBox bounding_box_of(std::span<const glm::vec3> points) noexcept {
  return bounding_box_of(StridedSpan<const glm::vec3>(points));
}

BoundingBox bounding_box_of(StridedSpan<const glm::vec3> points) noexcept {
  BoundingBox box;
  const std::size_t n = points.size();
  if (n == 0) return box;
  // Four floats per load: every point but the last has at least 4 bytes of its row after it,
  // and the fourth lane is dropped. min_of(p, lo) keeps lo when p is NaN, as glm::min(lo, p).
  const glm::vec3 last = points.load(n - 1);
  const float last4[4] = {last.x, last.y, last.z, last.z};
  detail::Float4 lo = detail::Float4::load(last4), hi = lo;
  const std::byte* row = points.data();
  for (std::size_t v = 0; v + 1 < n; ++v, row += points.stride()) {
    const detail::Float4 p = detail::Float4::load(reinterpret_cast<const float*>(row));
    lo = min_of(p, lo);
    hi = max_of(p, hi);
  }
  float l[4], h[4];
  lo.store(l);
  hi.store(h);
  box.extend(glm::vec3(l[0], l[1], l[2]));
  box.extend(glm::vec3(h[0], h[1], h[2]));
  return box;
}

float farthest_squared_distance(StridedSpan<const glm::vec3> points, const glm::vec3& from) noexcept {
  const std::size_t n = points.size();
  if (n == 0) return 0.f;
  // Loads as in bounding_box_of; dot3 sums x, y, z in glm::dot's order, so the result is the
  // same to the bit.
  const glm::vec3 last = points.load(n - 1);
  const float last4[4] = {last.x, last.y, last.z, last.z}, from4[4] = {from.x, from.y, from.z, from.z};
  const detail::Float4 center = detail::Float4::load(from4);
  const detail::Float4 d_last = detail::Float4::load(last4) - center;
  detail::Float4 r2 = dot3(d_last, d_last);
  const std::byte* row = points.data();
  for (std::size_t v = 0; v + 1 < n; ++v, row += points.stride()) {
    const detail::Float4 d = detail::Float4::load(reinterpret_cast<const float*>(row)) - center;
    r2 = max_of(dot3(d, d), r2);
  }
  float out[4];
  r2.store(out);
  return out[0];
}

BoundingSphere bounding_sphere_of(std::span<const glm::vec3> points) noexcept {
  const BoundingBox box = bounding_box_of(points);
  if (box.empty) return {};
  return BoundingSphere{box.center(), std::sqrt(farthest_squared_distance(points, box.center()))};
}

}  // namespace marrow
