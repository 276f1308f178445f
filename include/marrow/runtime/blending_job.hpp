#pragma once
// The blending job (B1-B3): local poses of one skeleton (B1: T/R/S per joint, local_pose.hpp)
// blended into one local pose.
//
// Normal layers (B2), per joint j: a_i = weight_i * mask_i[j] (no mask: 1). With A = sum a_i,
// when A < threshold the rest pose joins as one more layer of weight threshold - A (so a
// skeleton with every layer faded out holds its rest pose, and weights between fade in
// smoothly). Then, over the contributing layers (a_i > 0):
//   T = sum a_i T_i / sum a_i,   S = sum a_i S_i / sum a_i,
//   R = normalize(sum a_i s_i q_i),  s_i = +1 or -1 so that q_i lies in the hemisphere of the
//       first contributing layer's rotation (the rest pose's when no layer contributes).
// Additive layers (B3), applied after the normal blend, in order; each pose holds deltas
// (additive_pose.hpp: dT = T - T_ref, dR = inverse(R_ref) * R, dS = S / S_ref). With
// a = weight * mask[j]:
//   T += a * dT,   R = R * nlerp(identity, dR, a),   S *= 1 + a * (dS - 1)
// where nlerp takes dR in the identity's hemisphere (w >= 0). At a = 1 over its reference pose
// an additive layer reproduces its clip.
//
// Exact cases: a joint with one contributing source (one layer, or the rest pose alone) gets
// that source's values bit for bit (so all weights 0 give the rest pose exactly), and a = 0
// leaves a joint unchanged bit for bit. Products weight * mask are clamped to 2^64 (no sum
// overflows); a rotation sum too short to normalise (below 1e-15) takes the first contributing
// rotation, and a zero-length delta rotation changes nothing, so finite inputs never give NaN.
// Every joint's lanes of every pose must be finite, masked-out joints included (a weight of 0
// times NaN is NaN). The padding lanes of the output's last block are written with the
// identity; inputs' padding lanes are never trusted.
//
//   BlendingLayer layers[] = {{walk_pose, 1.f - u}, {run_pose, u}};
//   BlendingJob job{.layers = layers, .rest_pose = bind, .joint_count = n, .output = pose};
//   job.run();   // no throw, no allocation; nothing written when validate() fails
#include <cstddef>
#include <span>

#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow {

struct BlendingLayer {
  std::span<const TrsBlock> pose{};         // pose_block_count(joint_count) blocks at least
  float weight = 0.f;                       // finite, >= 0
  std::span<const float> joint_weights{};   // empty (1 for every joint) or one per joint, each finite and >= 0
};

struct BlendingJob {
  std::span<const BlendingLayer> layers{};           // normal layers (B2); may be empty, any number
  std::span<const BlendingLayer> additive_layers{};  // delta poses (B3); may be empty, any number
  std::span<const TrsBlock> rest_pose{};             // the fill below the threshold (bind pose)
  std::size_t joint_count = 0;
  float threshold = 0.1f;                            // finite, > 0
  std::span<TrsBlock> output{};                      // pose_block_count(joint_count) blocks at least;
                                                     // may not overlap any input

  // Sizes, weights and masks (NaN, infinite or negative values are refused), the threshold,
  // overlaps (of what is read and written: pose_block_count(joint_count) blocks of each pose,
  // joint_count floats of each mask; inputs may share memory). O(layers * joints). A problem
  // names its field: "joint_count", "output", "rest_pose", "threshold", "layers" or
  // "additive_layers".
  JobStatus validate() const noexcept;
  // validate(), then blends; false (and nothing written) when invalid.
  bool run() const noexcept;
};

}  // namespace marrow
