#pragma once
// Aim IK (K2): one joint (a head, an eye, a turret) turned so that its forward axis points at
// a target, its up axis as close as it can to a pole direction, returned as a local rotation
// correction.
//
// In the joint's own space: `forward` (unit) is the aiming axis and `offset` the point it
// starts from (e.g. the eyes in front of the head joint), `up` (unit, not parallel to
// forward) the axis that should point towards `pole`. With O the joint's model-space origin,
// R its model rotation after the correction and o the offset as the joint's matrix places it
// (it scales with the joint), the correction makes the ray O + R o + t R forward (t >= 0) pass
// through the target T. A rotation about O keeps distances from O, so it takes the point of
// the current ray at distance |T - O| from O onto T: with o = o_along * forward + o_across,
// that point is o_across + sqrt(|T - O|^2 - |o_across|^2) * forward (relative to O). It exists
// whenever the target is outside the offset's sphere (|T - O| >= |o|), and inside it when
// o_along <= 0 and |T - O| >= |o_across| (an offset behind the joint); otherwise the job aims
// forward from O itself and reports not reached. A target on O defines no aim: identity.
//
// The aim leaves one freedom, a twist about the line from O to T (it is the aim line itself
// when the offset lies along forward): the job takes the twist that brings up closest to the
// pole direction (up's part across that line onto the pole's; none when either is within
// 1e-6 of the line). Weight in [0, 1] blends from identity (slerp; 0 gives exactly identity).
//
// The correction is local: rotation' = rotation * correction (rotate_joint), then recompose
// the joint's subtree. The model-space rotation R' about the joint is the local correction
// inverse(q) * R' * q, q the rotation of the joint's model matrix (columns normalised and made
// orthogonal, as decompose_trs); forward and up are directions of that rotation, the offset
// is mapped by the matrix itself. Exact when the scale above the joint is uniform; a mirrored
// matrix is taken as mirrored by an ancestor (as in two_bone_ik_job.hpp).
//
//   glm::quat correction;
//   AimIkJob aim{.joint = &models[head], .target = ball, .offset = eyes, .correction = &correction};
//   aim.run();
//   rotate_joint(pose, head, correction);
//   LocalToModelJob{.parents = parents, .local_pose = pose, .from = head, .models = models}.run();
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/runtime/job_status.hpp"

namespace marrow {

struct AimIkJob {
  const glm::mat4* joint = nullptr;   // the joint's model-space transform
  glm::vec3 target{0.f};              // model space
  glm::vec3 forward{0.f, 0.f, 1.f};   // joint space, unit
  glm::vec3 offset{0.f};              // joint space
  glm::vec3 up{0.f, 1.f, 0.f};        // joint space, unit, not parallel to forward
  glm::vec3 pole{0.f, 1.f, 0.f};      // model-space direction (need not be unit; not zero)
  float weight = 1.f;                 // [0, 1]

  glm::quat* correction = nullptr;    // required output
  bool* reached = nullptr;            // optional: the ray, with the correction as written (weighted),
                                      // passes within 1e-5 * |T - O| of the target

  // Null joint or correction, non-finite matrix or vectors, forward or up not unit (within
  // 1e-3), up parallel to forward (within 1e-3 rad), a zero pole, weight outside [0, 1].
  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
