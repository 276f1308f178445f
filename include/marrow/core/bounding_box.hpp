#pragma once
// An axis-aligned box (empty until a point joins it), and the box around a box moved by an
// affine matrix. Shared by the per-frame bounds job (runtime), the model's bounds and the
// renderer's camera.
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace marrow {

struct BoundingBox {
  glm::vec3 min{0.f};
  glm::vec3 max{0.f};
  bool empty = true;

  void extend(const glm::vec3& p) noexcept;
  void extend(const BoundingBox& other) noexcept;
  glm::vec3 center() const noexcept { return (min + max) * 0.5f; }
  glm::vec3 size() const noexcept { return empty ? glm::vec3(0.f) : max - min; }
  bool contains(const glm::vec3& p, float tolerance = 0.f) const noexcept;
};

// The smallest axis-aligned box holding `box` moved by the affine matrix m: the centre moved,
// the half extent through |m's 3x3| (each output axis gathers every input axis's reach).
// Empty stays empty.
BoundingBox transformed(const BoundingBox& box, const glm::mat4& m) noexcept;

}  // namespace marrow
