#pragma once
// Two-bone IK (K1): a chain start -> mid -> end (hip, knee, foot; shoulder, elbow, hand) bent
// so that the end joint reaches a target, in model space, returned as local rotation
// corrections for start and mid.
//
// Geometry: with start S, mid M, end E (the joints' model-space origins), bone lengths
// a = |M - S| and b = |E - M|, chain length L = a + b, and target T:
//   - the reach d = |T - S|, softened (below), is clamped to [|a - b|, L];
//   - the end goes to S + d * normalize(T - S): exactly T when reachable, else as close as the
//     chain gets along the line from S towards T (unreachable targets extend the chain);
//   - the mid joint goes where both bone lengths are kept, in the plane of S, T and the pole
//     (a model-space point the mid joint bends towards), on the pole's side of the line S-T.
//     Without a pole (or with one on the line S-T) the plane of S, M, T, on M's side, i.e.
//     the current bend. When M is on the line S-T too: a bent chain keeps the sense of its
//     bend (the mid joint moves to the side cross(T - S, (M - S) x (E - M)), i.e. about the
//     same hinge axis); a straight chain bends towards start's local +Z (its model-space
//     direction made perpendicular to S-T), or +X when +Z is within 30 degrees of the line,
//     so the choice turns with the character. Give a pole where this matters;
//   - start's correction is the shortest rotation taking M - S to the new M - S, mid's the
//     shortest taking the end (after start's correction) to the new end around the new M.
//
// Soften in (0, 1]: with s = soften * L, a target distance x <= s is reached as it is; beyond,
//     d = L - (L - s) * exp(-(x - s) / (L - s)),
// continuous with slope 1 at s, increasing, below L for every finite x and approaching it
// smoothly, so a target moving out past full extension never snaps the chain straight
// (soften = 1: no softening, the clamp alone).
//
// Bone lengths never change; joints outside the start's subtree never move; weight in [0, 1]
// blends each correction from identity (slerp; 0 gives exactly identity, 1 the full correction).
// Degenerate input keeps what it cannot define and never yields NaN: a zero-length bone (below
// 1e-5 L) gets the identity correction, a target on S keeps the end's current direction from S,
// a zero-length chain gets identities.
//
// Corrections are local: multiply them on the right of the joints' local rotations
// (rotation' = rotation * correction), then recompose the subtree (LocalToModelJob with
// from = start). A model-space rotation R about a joint is the local correction
// inverse(q) * R * q, q being the rotation of the joint's model matrix (mid's after start's
// correction): its columns normalised and made orthogonal (x kept, then y), as decompose_trs.
// Exact when the scale above each joint is uniform (the joint's own scale may be anything
// positive); non-uniform scale above a joint is taken by its rotation. A mirrored model matrix
// (negative determinant) is taken as mirrored by an ancestor: a chain under a mirrored pelvis
// works, a start or mid joint whose own local scale is negative gets a mirrored correction.
//
//   glm::quat start_correction, mid_correction;
//   TwoBoneIkJob ik{.start = &models[hip], .mid = &models[knee], .end = &models[foot], .target = ground,
//                   .start_correction = &start_correction, .mid_correction = &mid_correction};
//   ik.run();
//   rotate_joint(pose, hip, start_correction);           // local_pose.hpp
//   rotate_joint(pose, knee, mid_correction);
//   LocalToModelJob{.parents = parents, .local_pose = pose, .from = hip, .models = models}.run();
#include <span>

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
  bool* reached = nullptr;                // optional: the end, with the corrections as written (weighted),
                                          // lands within 1e-5 * (a + b) of the target

  // Null inputs or outputs, one quaternion for both corrections, non-finite target, pole,
  // weight, soften or matrices, weight or soften out of range.
  JobStatus validate() const noexcept;
  bool run() const noexcept;

  // Several chains (a character's legs), two at a time in the lanes of one solve: each job
  // gives what its own run() gives, bit for bit, and ran[i] is that run()'s result. Every job
  // reads its matrices as they are when the call starts: a chain inside another's subtree, which
  // must see the other's correction first, needs a call of its own after the recompose. False,
  // writing nothing, when ran and jobs differ in size.
  static bool run_all(std::span<const TwoBoneIkJob> jobs, std::span<bool> ran) noexcept;
};

}  // namespace marrow
