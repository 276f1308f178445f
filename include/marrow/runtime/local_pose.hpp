#pragma once
// A local pose (B1): translation, rotation and scale of every joint of one skeleton, relative
// to its parent, stored structure-of-arrays in blocks of eight joints so the jobs that read and
// write it (sampling, blending, local-to-model) work on eight joints per instruction.
//
//   joint j lives in block j / 8, lane j % 8
//   std::vector<TrsBlock> pose(pose_block_count(joints));
//
// Lanes past the last joint of the last block are padding: jobs may write them and ignore them.
#include <cstddef>
#include <span>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>

#include "marrow/core/trs.hpp"

namespace marrow {

inline constexpr std::size_t kPoseLanes = 8;

struct alignas(32) TrsBlock {
  float t[3][kPoseLanes];  // translation x, y, z
  float q[4][kPoseLanes];  // rotation x, y, z, w
  float s[3][kPoseLanes];  // scale x, y, z
};

constexpr std::size_t pose_block_count(std::size_t joints) noexcept { return (joints + kPoseLanes - 1) / kPoseLanes; }

// Joint j of a pose (j < 8 * pose.size()). Inline: IK and root motion read and write single
// joints in the frame, where a call and a Trs through memory cost more than the copy.
inline Trs pose_joint(std::span<const TrsBlock> pose, std::size_t joint) noexcept {
  const TrsBlock& b = pose[joint / kPoseLanes];
  const std::size_t l = joint % kPoseLanes;
  return Trs{glm::vec3(b.t[0][l], b.t[1][l], b.t[2][l]), glm::quat(b.q[3][l], b.q[0][l], b.q[1][l], b.q[2][l]),
             glm::vec3(b.s[0][l], b.s[1][l], b.s[2][l])};
}
inline void set_pose_joint(std::span<TrsBlock> pose, std::size_t joint, const Trs& trs) noexcept {
  TrsBlock& b = pose[joint / kPoseLanes];
  const std::size_t l = joint % kPoseLanes;
  for (int c = 0; c < 3; ++c) {
    b.t[c][l] = trs.translation[c];
    b.s[c][l] = trs.scale[c];
  }
  b.q[0][l] = trs.rotation.x;
  b.q[1][l] = trs.rotation.y;
  b.q[2][l] = trs.rotation.z;
  b.q[3][l] = trs.rotation.w;
}

// rotation' = normalize(rotation * correction) for one joint: applies a local correction (IK).
// An exactly identity correction (IK at weight 0) leaves the joint's bits as they are.
void rotate_joint(std::span<TrsBlock> pose, std::size_t joint, const glm::quat& correction) noexcept;

// out[j] = T * R * S of joint j for every j < out.size() (eight joints per instruction). The
// pose must hold at least pose_block_count(out.size()) blocks; returns false (nothing
// written) when it does not.
bool pose_to_matrices(std::span<const TrsBlock> pose, std::span<glm::mat4> out) noexcept;
// The same, each joint's matrix also stored at scatter_out[scatter[j]] when scatter[j] >= 0 (a
// skin's joints into its scene nodes, in one pass). scatter holds out.size() indices, each
// below scatter_out.size(); returns false (nothing written) otherwise. The caller that checked
// them once may pass checked = true to skip the O(joints) check.
bool pose_to_matrices(std::span<const TrsBlock> pose, std::span<glm::mat4> out, std::span<const int> scatter,
                      std::span<glm::mat4> scatter_out, bool checked = false) noexcept;
// Only there: joint j's matrix stored at scatter_out[scatter[j]] for every j < scatter.size()
// with scatter[j] >= 0, nothing for the others.
bool pose_to_scattered_matrices(std::span<const TrsBlock> pose, std::span<const int> scatter, std::span<glm::mat4> scatter_out,
                                bool checked = false) noexcept;

}  // namespace marrow
