#pragma once
// The per-frame bounds job (S5): one axis-aligned box around every vertex a skin poses, from
// the per-joint boxes made at load (joint_bounds.hpp) and this frame's joint transforms, in
// O(joints) with no vertex pass.
//
//   models[j]  the joint's transform from its own space into the output space: for a palette
//              palette[j] = M * inverse_bind[j], models[j] = M (the skeleton's model-space
//              transforms, AnimationPlayer::world_transforms / SkinPose::world_transforms,
//              with the draw matrix on the left for world space).
//   out        the union over the listed joints of each box moved by models[j]:
//              centre' = M c, half extent' = |M's 3x3| e.
//
// Why it contains every posed vertex (linear blend skinning): a vertex v skinned by joints j
// with weights w_j >= 0, sum w_j = 1 lands at sum_j w_j palette[j] v = sum_j w_j M_j (IBM_j v).
// Each IBM_j v lies in joint j's box B_j (the box was made around exactly those points), so
// each M_j IBM_j v lies in the moved box M_j B_j, hence in the output box; the output box is
// convex, so the weighted mean of points inside it is inside it too. Weights that do not sum to
// 1 or are negative break the argument (importers normalise and refuse them). Morph targets are
// covered when the box was made around the range they can move the vertex through.
//
// Dual-quaternion skinning (S3) is not a convex blend of the joint transforms (the blended
// rotation is normalised, moving points off the chords), so this box does not bound it:
// callers pose such parts' vertices instead (Animator::bounds does).
//
//   SkinnedBoundsJob job{.bounds = skin.joint_bounds ... , .models = worlds, .out = &box};
//   job.run();   // no throw, no allocation; nothing written when validate() fails
#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/bounding_box.hpp"
#include "marrow/runtime/job_status.hpp"

namespace marrow {

struct SkinnedBoundsJob {
  std::span<const std::uint32_t> joints{};  // JointBounds::joints: indices into models
  std::span<const glm::vec3> centers{};     // one per entry of joints, joint space
  std::span<const glm::vec3> extents{};     // one per entry of joints, joint space
  std::span<const glm::mat4> models{};      // per joint: its space -> output space
  BoundingBox* out = nullptr;               // empty when joints is empty

  // Sizes, out set, and every joint index within models. O(joints).
  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
