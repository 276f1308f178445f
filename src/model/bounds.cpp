#include "marrow/model/bounds.hpp"

#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace marrow {

BoundingBox bounding_box_of(std::span<const glm::vec3> points) noexcept {
  BoundingBox box;
  if (points.empty()) return box;
  glm::vec3 lo = points[0], hi = points[0];
  for (const glm::vec3& p : points) {
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
