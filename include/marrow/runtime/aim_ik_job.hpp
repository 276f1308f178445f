#pragma once
// Aim IK (K2): one joint (a head, an eye, a turret) turned so that its forward axis points at
// a target, its up axis as close as it can to a pole direction, returned as a local rotation
// correction.
//
// In the joint's own space: `forward` (unit) is the aiming axis and `offset` the point it
// starts from (e.g. the eyes in front of the head joint), `up` (unit, not parallel to
// forward) the axis that should point towards `pole`. The correction makes the line through
// the offset point along forward pass through the target (exactly, when the target is not
// inside the offset's sphere around the joint), then twists about that line so up lies in the
// plane of the line and the pole. Weight in [0, 1] blends from identity (0 changes nothing).
//
// The correction is local: rotation' = rotation * correction (rotate_joint), then recompose
// the joint's subtree. Model matrices with non-uniform scale are taken by their rotation.
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
  bool* reached = nullptr;            // optional: the aim line passes within 1e-5 of the target

  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
