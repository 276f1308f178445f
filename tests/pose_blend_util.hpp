#pragma once
// Poses for the blending tests: random joints, poses in the jobs' blocks (padding lanes NaN),
// comparisons to the bit and within a tolerance, and a blend through the BlendingJob.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "test_util.hpp"

namespace marrow::test {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

inline Trs random_trs(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-3.f, 3.f), s(0.5f, 2.f);
  return Trs{{u(rng), u(rng), u(rng)}, random_rotation(rng), {s(rng), s(rng), s(rng)}};
}

// A pose of joints.size() joints; padding lanes hold NaN (jobs must not care).
inline std::vector<TrsBlock> to_pose(const std::vector<Trs>& joints) {
  std::vector<TrsBlock> pose(pose_block_count(joints.size()));
  std::memset(pose.data(), 0xff, pose.size() * sizeof(TrsBlock));  // NaN
  for (std::size_t j = 0; j < joints.size(); ++j) set_pose_joint(pose, j, joints[j]);
  return pose;
}

inline std::vector<Trs> to_joints(std::span<const TrsBlock> pose, std::size_t joints) {
  std::vector<Trs> out(joints);
  for (std::size_t j = 0; j < joints; ++j) out[j] = pose_joint(pose, j);
  return out;
}

inline glm::quat turn(float degrees, const glm::vec3& axis) { return glm::angleAxis(glm::radians(degrees), axis); }

inline bool same_trs_bits(const Trs& a, const Trs& b) {
  return a.translation == b.translation && a.scale == b.scale && a.rotation.x == b.rotation.x &&
         a.rotation.y == b.rotation.y && a.rotation.z == b.rotation.z && a.rotation.w == b.rotation.w;
}

inline ::testing::AssertionResult near_quat(const glm::quat& a, const glm::quat& b, float tol) {
  for (int c = 0; c < 4; ++c) {
    if (!(std::fabs(a[c] - b[c]) <= tol)) {
      return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ", " << a.w << ") vs (" << b.x
                                           << ", " << b.y << ", " << b.z << ", " << b.w << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// Blends with the job (default threshold unless given); the output starts as NaN.
inline std::vector<TrsBlock> blend_poses(std::size_t joints, const std::vector<BlendingLayer>& layers, const std::vector<TrsBlock>& rest,
                            const std::vector<BlendingLayer>& additive = {}, float threshold = 0.1f) {
  std::vector<TrsBlock> out(pose_block_count(joints));
  std::memset(out.data(), 0xff, out.size() * sizeof(TrsBlock));
  BlendingJob job;
  job.layers = layers;
  job.additive_layers = additive;
  job.rest_pose = rest;
  job.joint_count = joints;
  job.threshold = threshold;
  job.output = out;
  EXPECT_TRUE(job.validate()) << job.validate().message("BlendingJob");
  EXPECT_TRUE(job.run());
  return out;
}

inline ::testing::AssertionResult near_trs(const Trs& got, const Trs& want, float tol) {
  const auto close = [tol](float g, float w) { return std::fabs(g - w) <= tol * std::max(1.f, std::fabs(w)); };
  for (int c = 0; c < 3; ++c) {
    if (!close(got.translation[c], want.translation[c]) || !close(got.scale[c], want.scale[c])) {
      return ::testing::AssertionFailure() << "T " << near(got.translation, want.translation, 0.f).message() << " S "
                                           << near(got.scale, want.scale, 0.f).message();
    }
  }
  return near_quat(got.rotation, want.rotation, tol);
}

}  // namespace marrow::test
