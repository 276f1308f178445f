#pragma once
// THE local-to-model job (X2): every path that composes a hierarchy calls it (players, the
// Animator's scene nodes, the asset layer, bounds).
//
//   models[i] = models[parent[i]] * local[i]                 parent[i] >= 0 (always < i)
//   models[i] = root * root_prefix[i] * local[i]             parent[i] < 0 (a root)
//
// root_prefix is empty (identity) or one matrix per joint (P8); root is an optional matrix in
// front of every root (e.g. an instance's placement). Locals come in one of three forms: a T/R/S
// pose (local_pose.hpp, the sampling and blending jobs' output), matrices, or gathered: each
// joint names where its local is, a row of source_matrices (e.g. the poses of several skins made
// into matrices one after the other, in their own joint orders) or its own row of
// local_matrices (kLocalMatrix, e.g. a node's loaded transform):
//
//   local[i] = v == kLocalMatrix ? local_matrices[i] : source_matrices[v]   (v = local_sources[i])
//
// The gathered and matrix forms give the same bits for the same matrices; the pose form differs
// from them in the last bits. Only joints in
// [from, to) are written; joints before `from` are read from models as they are, so after a
// change below joint k (IK, a procedural bone) compose [k, joint_count) again.
//
//   LocalToModelJob job{.parents = parents, .local_pose = pose, .models = models};
//   job.run();   // no throw, no allocation; nothing written when validate() fails
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow {

// A gathered local that is the joint's own row of local_matrices.
inline constexpr std::uint32_t kLocalMatrix = 0xFFFFFFFFu;

struct LocalToModelJob {
  std::span<const int> parents{};                  // one per joint: < own index, negative = root
  std::span<const TrsBlock> local_pose{};          // either pose_block_count(joints) blocks...
  std::span<const glm::mat4> local_matrices{};     // ...or one matrix per joint...
  std::span<const std::uint32_t> local_sources{};  // ...or one source per joint (exactly one form;
                                                   // local_matrices too when a source is kLocalMatrix)
  std::span<const glm::mat4> source_matrices{};  // what local_sources index
  std::span<const glm::mat4> root_prefix{};        // empty, or one per joint
  const glm::mat4* root = nullptr;               // optional
  std::size_t from = 0;
  std::size_t to = std::numeric_limits<std::size_t>::max();  // clamped to the joint count
  std::span<glm::mat4> models{};                   // one per joint
  // true: the caller made parents and local_sources itself and keeps them valid (an Animator's
  // frame: its model's parents, its own sources), so run() checks the sizes only and skips the
  // per-joint scans below. An index out of order or range is then undefined behaviour.
  bool indices_checked = false;

  // Checks sizes, from <= joint count, and for the joints composed ([from, min(to, joints)),
  // what a run reads) that each parent precedes its joint and each source is within
  // source_matrices (or kLocalMatrix with local_matrices given). O(joints composed), whatever
  // indices_checked says.
  JobStatus validate() const noexcept;
  // validate() (its size checks alone when indices_checked), then composes
  // [from, min(to, joints)); false (and nothing written) when invalid.
  bool run() const noexcept;

 private:
  JobStatus check(bool scan_indices) const noexcept;
  JobStatus check_sources(bool scan_indices) const noexcept;
};

}  // namespace marrow
