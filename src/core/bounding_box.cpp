#include "marrow/core/bounding_box.hpp"

#include <glm/common.hpp>

namespace marrow {

void BoundingBox::extend(const glm::vec3& p) noexcept {
  if (empty) {
    min = max = p;
    empty = false;
    return;
  }
  min = glm::min(min, p);
  max = glm::max(max, p);
}

void BoundingBox::extend(const BoundingBox& other) noexcept {
  if (other.empty) return;
  extend(other.min);
  extend(other.max);
}

bool BoundingBox::contains(const glm::vec3& p, float tolerance) const noexcept {
  return !empty && p.x >= min.x - tolerance && p.y >= min.y - tolerance && p.z >= min.z - tolerance &&
         p.x <= max.x + tolerance && p.y <= max.y + tolerance && p.z <= max.z + tolerance;
}

BoundingBox transformed(const BoundingBox& box, const glm::mat4& m) noexcept {
  if (box.empty) return box;
  const glm::vec3 c = box.center();
  const glm::vec3 e = (box.max - box.min) * 0.5f;
  const glm::vec3 center = glm::vec3(m[0]) * c.x + glm::vec3(m[1]) * c.y + glm::vec3(m[2]) * c.z + glm::vec3(m[3]);
  const glm::vec3 extent =
      glm::abs(glm::vec3(m[0])) * e.x + glm::abs(glm::vec3(m[1])) * e.y + glm::abs(glm::vec3(m[2])) * e.z;
  return BoundingBox{center - extent, center + extent, false};
}

}  // namespace marrow
