#pragma once
// THE local-to-model job (X2): every path that composes a hierarchy calls it (players, the
// Animator's scene nodes, the asset layer, bounds).
//
//   models[i] = models[parent[i]] * local[i]                 parent[i] >= 0 (always < i)
//   models[i] = root * root_prefix[i] * local[i]             parent[i] < 0 (a root)
//
// root_prefix is empty (identity) or one matrix per joint (P8); root is an optional matrix in
// front of every root (e.g. an instance's placement). Locals come either as a T/R/S pose
// (local_pose.hpp, the sampling and blending jobs' output) or as matrices. Only joints in
// [from, to) are written; joints before `from` are read from models as they are, so after a
// change below joint k (IK, a procedural bone) compose [k, joint_count) again.
//
//   LocalToModelJob job{.parents = parents, .local_pose = pose, .models = models};
//   job.run();   // no throw, no allocation; nothing written when validate() fails
#include <cstddef>
#include <limits>
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow {

struct LocalToModelJob {
  std::span<const int> parents{};                  // one per joint: < own index, negative = root
  std::span<const TrsBlock> local_pose{};          // either pose_block_count(joints) blocks...
  std::span<const glm::mat4> local_matrices{};     // ...or one matrix per joint (exactly one of the two)
  std::span<const glm::mat4> root_prefix{};        // empty, or one per joint
  const glm::mat4* root = nullptr;               // optional
  std::size_t from = 0;
  std::size_t to = std::numeric_limits<std::size_t>::max();  // clamped to the joint count
  std::span<glm::mat4> models{};                   // one per joint

  // Checks sizes, that every parent precedes its joint, and from <= joint count. O(joints).
  JobStatus validate() const noexcept;
  // validate(), then composes [from, min(to, joints)); false (and nothing written) when invalid.
  bool run() const noexcept;
};

}  // namespace marrow
