#include "marrow/runtime/local_pose.hpp"

#include "kernels/pose_kernels.hpp"

namespace marrow {

void rotate_joint(std::span<TrsBlock> pose, std::size_t joint, const glm::quat& correction) noexcept {
  // An exact identity (an IK job at weight 0) leaves the joint bit for bit as it was, which
  // renormalising would not.
  if (correction.w == 1.f && correction.x == 0.f && correction.y == 0.f && correction.z == 0.f) return;
  TrsBlock& b = pose[joint / kPoseLanes];
  const std::size_t l = joint % kPoseLanes;
  const glm::quat q = glm::normalize(glm::quat(b.q[3][l], b.q[0][l], b.q[1][l], b.q[2][l]) * correction);
  b.q[0][l] = q.x;
  b.q[1][l] = q.y;
  b.q[2][l] = q.z;
  b.q[3][l] = q.w;
}

bool pose_to_matrices(std::span<const TrsBlock> pose, std::span<glm::mat4> out) noexcept {
  if (pose.size() < pose_block_count(out.size())) return false;
  if (out.empty()) return true;
  detail::pose_kernels(simd_choice()).to_matrices(pose.data(), out.size(), &out[0][0][0], nullptr, nullptr);
  return true;
}

namespace {

bool scatter_fits(std::span<const int> scatter, std::size_t size) noexcept {
  for (const int i : scatter)
    if (i >= 0 && static_cast<std::size_t>(i) >= size) return false;
  return true;
}

}  // namespace

bool pose_to_matrices(std::span<const TrsBlock> pose, std::span<glm::mat4> out, std::span<const int> scatter,
                      std::span<glm::mat4> scatter_out, bool checked) noexcept {
  if (pose.size() < pose_block_count(out.size()) || scatter.size() != out.size()) return false;
  if (!checked && !scatter_fits(scatter, scatter_out.size())) return false;
  if (out.empty()) return true;
  detail::pose_kernels(simd_choice())
      .to_matrices(pose.data(), out.size(), &out[0][0][0], scatter.data(), scatter_out.empty() ? nullptr : &scatter_out[0][0][0]);
  return true;
}

bool pose_to_scattered_matrices(std::span<const TrsBlock> pose, std::span<const int> scatter, std::span<glm::mat4> scatter_out,
                                bool checked) noexcept {
  if (pose.size() < pose_block_count(scatter.size())) return false;
  if (!checked && !scatter_fits(scatter, scatter_out.size())) return false;
  if (scatter.empty() || scatter_out.empty()) return true;
  detail::pose_kernels(simd_choice()).to_matrices(pose.data(), scatter.size(), nullptr, scatter.data(), &scatter_out[0][0][0]);
  return true;
}

}  // namespace marrow
