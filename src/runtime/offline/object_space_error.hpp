#pragma once
// Private: how far a joint's error moves the points around it (clip_compression.hpp's bound).
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

namespace marrow::detail {

// The largest singular value of m (the most it stretches a vector), from the largest eigenvalue
// of m^T m in closed form.
double largest_singular_value(const glm::dmat3& m) noexcept;

// The most any point at `distance` from the joint in its own frame (p with |p| <= distance)
// moves when its model matrix is `b` instead of `a`: |(b - a) p| <= |t_b - t_a| + distance *
// sigma_max(B - A), B and A the 3x3 parts. An upper bound, reached when the largest stretch
// points along the translation's difference.
double displacement_bound(const glm::dmat4& a, const glm::dmat4& b, double distance) noexcept;

}  // namespace marrow::detail
