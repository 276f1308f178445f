#pragma once
// A rig's poses mirrored across its sagittal plane (MM5, model/motion_database.hpp): the left and
// right bones of the humanoid map swap, and every world transform is reflected across a plane.
// Shared by the database (features of the mirrored motion) and MotionClips (mirrored clips).
//
// Node n's mirrored world transform is placed on its mirror node m(n):
//   W'[m(n)] = S * W[n] * C[n],   C[n] = rest(n)^-1 * S_rest * rest(m(n))   (rotations only)
// S reflects across the clip's plane; S_rest across the rest pose's sagittal plane (its normal
// from the right to the left upper leg). C[n] turns the reflected frame of n into the frame m(n)
// has at rest, so the result is a proper rotation and a symmetric rest pose maps onto itself.
// For a rest pose that is not symmetric, C[n] then takes the half turn (none, about x, y or z)
// that maps m(n)'s children's offsets onto n's, so that mirrored clips keep the rig's offsets
// (motion_mirror.cpp, choose_half_turns).
// Positions are S * p[n] whatever the rest pose is, so features of the mirrored motion are the
// original ones with the sides swapped and x negated (up to rounding).
#include <span>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/model.hpp"

namespace marrow::detail {

struct MotionMirror {
  std::vector<int> mirror;             // per scene node: its mirror node (itself in the middle)
  std::vector<glm::mat4> correction;   // per scene node: C[n] (rotation part only)
};

// From the model's humanoid map (throws std::invalid_argument when it has none) and its loaded
// pose; left_leg and right_leg give the rest pose's sagittal plane.
MotionMirror make_motion_mirror(const Model& model, int left_leg, int right_leg);

// The reflection across the plane through `point` with unit normal `normal`.
glm::mat4 reflection(const glm::vec3& point, const glm::vec3& normal);

// world: one transform per scene node; out: the mirrored pose (resized to match).
void mirror_pose(const MotionMirror& mirror, const glm::mat4& reflect, std::span<const glm::mat4> world, std::vector<glm::mat4>& out);

}  // namespace marrow::detail
