#pragma once
// THE retarget job (RT3, RT4, RT6): one frame of a source skeleton's local pose in, the target
// skeleton's local pose out. A RetargetRig (made once per pair of rigs, retarget_map.hpp builds
// it from two Models) holds what does not change; a RetargetContext holds one instance's scratch.
//
// Both skeletons list parents before children; a root's parent is the model origin. Model-space
// rotations compose as quaternions, R[j] = R[parent] * q[j] (exact when every scale above a
// joint is uniform, as in humanoid rigs); model positions as P[j] = P[parent] + R[parent] *
// (S[parent] * t[j]), S[j] = S[parent] * s[j]. The source's model space is first turned into the
// target's by the alignment A (a source root's rotation is A * q, its position A * t).
//
// For target joint i mapped to source joint s (RT3):
//   R_t(i) = A * R_s(s) * inverse(R_s_rest(s)) * inverse(A) * R_t_rest(i) = R'_s(s) * offset[i]
// (R'_s: the aligned source rotation; offset[i] = inverse(R'_s_rest(s)) * R_t_rest(i), made
// once), and the local rotation is inverse(R_t(parent)) * R_t(i), normalised. An unmapped joint
// keeps its rest local (RT6). Every joint keeps its rest translation and scale (RT4) except the
// hips, whose model position is
//   P_t(hips) = P_t_rest(hips) + hips_scale * (P'_s(s_hips) - P'_s_rest(s_hips))
// (hips_scale: target hips height / source hips height).
//
// Chains (RT6): where the two rigs have a different number of bones between two mapped joints
// (three spine bones onto two), the target's bones between (`between`, unmapped) share the
// chain's rotation so that the chain's end keeps the source's direction from the chain's start:
// with D = R'_s(s_start) * inverse(R'_s_rest(s_start)) the start's model-space delta and C the
// shortest rotation taking D * v_rest to v (v: the source's start -> end direction, v_rest: at
// rest), the target's end direction becomes C * D * u_rest (u_rest: the target's at rest). The
// k bones between turn in order, bone j (1-based) by the fraction 1 / (k - j + 1) of the rotation
// that would take the end onto that direction, the last one by all of what is left, so the end
// lands on the line exactly whenever the last bone can reach it (else as close as it gets).
//
//   RetargetContext context(rig);                       // allocates, once per instance
//   RetargetJob job{.rig = &rig, .context = &context, .source_pose = source, .target_pose = target};
//   job.run();   // no throw, no allocation; nothing written when validate() fails
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow {

struct RetargetChain {
  int target_start = -1, target_end = -1;  // mapped target joints, start an ancestor of end
  std::vector<int> between;                // the target joints strictly between, in order from start
  int source_start = -1, source_end = -1;  // the source joints they are mapped to
  glm::vec3 source_rest_direction{0.f};    // unit, aligned model space
  glm::quat source_start_rest_inverse{1.f, 0.f, 0.f, 0.f};  // inverse(R'_s_rest(source_start))
  glm::vec3 target_rest_direction{0.f};    // unit, target model space
};

// What a pair of rigs shares for retargeting, made once. validate() checks it; the job trusts a
// valid rig.
struct RetargetRig {
  std::vector<int> source_parents;          // per source joint: < own index, negative: a root
  glm::quat alignment{1.f, 0.f, 0.f, 0.f};  // A: source model space -> target model space

  std::vector<int> target_parents;          // per target joint: < own index, negative: a root
  std::vector<Trs> target_rest;             // per target joint: its rest local transform
  std::vector<int> target_source;           // per target joint: the source joint it follows, -1: none
  std::vector<glm::quat> target_offset;     // per target joint: offset[i] above (identity when unmapped)

  int source_hips = -1, target_hips = -1;   // -1: no hips translation
  glm::vec3 source_hips_rest{0.f};          // P'_s_rest(s_hips), aligned model space
  glm::vec3 target_hips_rest{0.f};          // P_t_rest(hips)
  float hips_scale = 1.f;

  std::vector<RetargetChain> chains;        // in target joint order (an ancestor chain first)

  // Made by prepare_retarget_rig() from the fields above: the fast path (header).
  bool fast = false;
  std::vector<glm::quat> target_left;         // per target joint: L[i] (identity when unmapped)
  std::vector<std::uint32_t> path_offsets;    // per target joint + 1: its path in source_path
  std::vector<std::uint32_t> source_path;     // per mapped target joint: source joints, rootmost first
  std::vector<std::uint32_t> position_joints; // source joints composed for positions: the
                                              // hips and its ancestors, in order
  // Every target pose block as the fast path's kernel reads it (SoA [component][lane], x y z w):
  // its one-step mapped lanes (mask all bits) turn, the others keep the rest; the mapped joints
  // whose path is longer go one by one.
  struct Block {
    std::uint32_t block = 0;       // its index in the target pose
    std::uint32_t mapped = 0;      // lanes to turn (0: the block is its rest)
    std::int32_t source[kPoseLanes]{};  // per lane: the float index of its source rotation's x in the source pose
    float mask[kPoseLanes]{};
    float left[4][kPoseLanes]{}, offset[4][kPoseLanes]{};
  };
  std::vector<Block> blocks;
  std::vector<std::uint32_t> single_joints;
  std::vector<TrsBlock> rest_pose;            // the target's rest
  glm::quat hips_parent_inverse{1.f, 0.f, 0.f, 0.f};  // the target hips' parent at rest:
  glm::vec3 hips_parent_position{0.f}, hips_parent_scale{1.f};  // its model rotation (inverse), position, scale

  std::size_t source_joint_count() const noexcept { return source_parents.size(); }
  std::size_t target_joint_count() const noexcept { return target_parents.size(); }
  // Sizes agree, parents precede their joints, mapped joints and chains name joints in range,
  // chains' bones lie on their end's ancestry, every number is finite.
  JobStatus validate() const noexcept;
};

// One instance's scratch: model-space rotations and positions of both skeletons (the general
// path's; the fast path composes the hips' ancestors only).
class RetargetContext {
 public:
  RetargetContext() = default;
  explicit RetargetContext(const RetargetRig& rig) { resize(rig); }
  void resize(const RetargetRig& rig);  // allocates


 private:
  friend struct RetargetJob;
  std::vector<glm::quat> source_rotations_;
  std::vector<glm::vec3> source_positions_, source_scales_;
  std::vector<glm::quat> target_rotations_;
  std::vector<glm::vec3> target_positions_, target_scales_;
  std::vector<std::uint8_t> keep_;  // per target joint: a chain's bone between (empty: no chains)
};

// Fills the rig's fast-path fields. The fast path computes each mapped joint's local rotation
// without composing either skeleton:
//   local[i] = L[i] * q_s(p_1) * ... * q_s(p_n) * offset[i]
// where p_1..p_n are the source joints from (not including) the source joint of i's nearest
// mapped target ancestor a down to i's own source joint, and L[i] = inverse(offset[a] * C) with
// C the rest rotations of the unmapped target joints between a and i; for a joint with no
// mapped ancestor, p_1 is the source root and L[i] = inverse(R_t_rest(parent)) * A. It equals
// the rule above whenever it applies: no chains, no mapped ancestor of the hips, and every
// mapped ancestor's source joint an ancestor of the joint's own (rigs where it does not apply
// run the general path, with the same results). Only the hips and its ancestors are composed,
// for the hips' position. Call after any change to the rig; validate() refuses a rig
// whose fast-path fields do not match its joints.
void prepare_retarget_rig(RetargetRig& rig);

// The composition above for one skeleton (the job's, and the rig builder's for the rest poses):
// rotations, positions and accumulated scales in model space, roots turned by root_rotation.
// Sizes: pose_block_count(parents.size()) blocks, one output per joint (unchecked).
void compose_retarget_space(std::span<const int> parents, std::span<const TrsBlock> pose, const glm::quat& root_rotation,
                            std::span<glm::quat> rotations, std::span<glm::vec3> positions,
                            std::span<glm::vec3> scales) noexcept;

// One source joint's aligned model-space position in a source pose (its ancestors composed as
// above), e.g. a foot's for contacts. The joint must be in range (unchecked).
glm::vec3 retarget_source_position(const RetargetRig& rig, std::span<const TrsBlock> source_pose, std::size_t joint) noexcept;

struct RetargetJob {
  const RetargetRig* rig = nullptr;
  RetargetContext* context = nullptr;
  std::span<const TrsBlock> source_pose{};  // pose_block_count(source joints) blocks
  std::span<TrsBlock> target_pose{};        // pose_block_count(target joints) blocks

  // Checks the pointers and sizes (O(1): the rig is checked by RetargetRig::validate once).
  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
