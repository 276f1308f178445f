#pragma once
// Bounding volumes of posed vertices.
#include <span>

#include <glm/vec3.hpp>

#include "marrow/core/bounding_box.hpp"
#include "marrow/core/strided_span.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

BoundingBox bounding_box_of(std::span<const glm::vec3> points) noexcept;
BoundingBox bounding_box_of(StridedSpan<const glm::vec3> points) noexcept;  // e.g. a vertex attribute

// The largest squared distance from `from` to a point (0 for none).
float farthest_squared_distance(StridedSpan<const glm::vec3> points, const glm::vec3& from) noexcept;

// The sphere around the box's centre that holds every point (not minimal, but tight for the
// elongated shapes characters have, and deterministic).
BoundingSphere bounding_sphere_of(std::span<const glm::vec3> points) noexcept;

}  // namespace marrow
