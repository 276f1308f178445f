#pragma once
// Bounding volumes of posed vertices.
#include <span>

#include <glm/vec3.hpp>

#include "marrow/model/model.hpp"

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

BoundingBox bounding_box_of(std::span<const glm::vec3> points) noexcept;

// The sphere around the box's centre that holds every point (not minimal, but tight for the
// elongated shapes characters have, and deterministic).
BoundingSphere bounding_sphere_of(std::span<const glm::vec3> points) noexcept;

}  // namespace marrow
