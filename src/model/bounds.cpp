#include "marrow/model/bounds.hpp"

#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace marrow {

BoundingBox bounding_box_of(std::span<const glm::vec3> points) noexcept {
  return bounding_box_of(StridedSpan<const glm::vec3>(points));
}

BoundingBox bounding_box_of(StridedSpan<const glm::vec3> points) noexcept {
  BoundingBox box;
  if (points.size() == 0) return box;
  glm::vec3 lo = points.load(0), hi = lo;
  for (std::size_t v = 0; v < points.size(); ++v) {
    const glm::vec3 p = points.load(v);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  box.extend(lo);
  box.extend(hi);
  return box;
}

BoundingSphere bounding_sphere_of(std::span<const glm::vec3> points) noexcept {
  const BoundingBox box = bounding_box_of(points);
  if (box.empty) return {};
  BoundingSphere sphere{box.center(), 0.f};
  float r2 = 0.f;
  for (const glm::vec3& p : points) {
    const glm::vec3 d = p - sphere.center;
    const float d2 = glm::dot(d, d);
    r2 = d2 > r2 ? d2 : r2;
  }
  sphere.radius = std::sqrt(r2);
  return sphere;
}

}  // namespace marrow
