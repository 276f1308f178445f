#pragma once
// Two-bone IK (K1): a chain start -> mid -> end (hip, knee, foot; shoulder, elbow, hand) bent
// so that the end joint reaches a target, in model space, returned as local rotation
// corrections for start and mid.
//
// Geometry: with start S, mid M, end E (the joints' model-space origins), bone lengths
// a = |M - S| and b = |E - M|, and target T:
//   - the reach d = |T - S| is clamped to [|a - b|, a + b] (softened near a + b, below);
//   - the end goes to S + d * normalize(T - S): exactly T when reachable, else as close as the
//     chain gets along the line from S towards T (unreachable targets extend the chain);
//   - the mid joint goes where both bone lengths are kept, in the plane of S, T and the pole
//     (a model-space point the mid joint bends towards; without a pole, the plane of S, M, T,
//     i.e. the current bend), on the pole's side;
//   - start's correction is the shortest rotation taking M - S to the new M - S, mid's the
//     shortest taking the end (after start's correction) to the new end around the new M.
// Bone lengths never change; joints outside the start's subtree never move; weight in [0, 1]
// blends each correction from identity (0 changes nothing, 1 is the full correction);
// soften in (0, 1]: targets beyond soften * (a + b) approach full extension smoothly instead
// of snapping straight (1: no softening). Degenerate input (a zero-length bone, a target on S,
// a pole on the line S-T) keeps the current direction for what it cannot define.
//
// Corrections are local: multiply them on the right of the joints' local rotations
// (rotation' = rotation * correction), then recompose the subtree (LocalToModelJob with
// from = start). Model matrices with non-uniform scale are taken by their rotation.
//
//   glm::quat start_correction, mid_correction;
//   TwoBoneIkJob ik{.start = &models[hip], .mid = &models[knee], .end = &models[foot], .target = ground,
//                   .start_correction = &start_correction, .mid_correction = &mid_correction};
//   ik.run();
//   rotate_joint(pose, hip, start_correction);           // local_pose.hpp
//   rotate_joint(pose, knee, mid_correction);
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/runtime/job_status.hpp"

namespace marrow {

struct TwoBoneIkJob {
  const glm::mat4* start = nullptr;   // model-space transforms of the three joints
  const glm::mat4* mid = nullptr;
  const glm::mat4* end = nullptr;
  glm::vec3 target{0.f};              // model space
  const glm::vec3* pole = nullptr;    // optional model-space point the mid joint bends towards
  float weight = 1.f;                 // [0, 1]
  float soften = 1.f;                 // (0, 1]

  // Outputs.
  glm::quat* start_correction = nullptr;  // required
  glm::quat* mid_correction = nullptr;    // required
  bool* reached = nullptr;                // optional: the end lands within 1e-5 * (a + b) of the target

  // Null inputs or outputs, non-finite target, pole, weight, soften or matrices, weight or
  // soften out of range.
  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
