#include "marrow/runtime/inertialization_job.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "kernels/blend_kernels.hpp"
#include "marrow/runtime/simd_level.hpp"

namespace marrow {
namespace {

using Quintic = InertializationState::Quintic;

constexpr float kNoOffset = 1e-7f;

// Bollo's quintic for one component (the header's formulas), in double: t1^5 is small.
Quintic quintic(float x0, float v0, float t1) {
  Quintic q;
  const double x = x0, v = v0, t = t1, t2 = t * t;
  const double a0 = (-8.0 * v * t - 20.0 * x) / t2;
  q.x0 = x0;
  q.v0 = v0;
  q.a0 = static_cast<float>(a0);
  q.a = static_cast<float>(-(a0 * t2 + 6.0 * v * t + 12.0 * x) / (2.0 * t2 * t2 * t));
  q.b = static_cast<float>((3.0 * a0 * t2 + 16.0 * v * t + 30.0 * x) / (2.0 * t2 * t2));
  q.c = static_cast<float>(-(3.0 * a0 * t2 + 12.0 * v * t + 20.0 * x) / (2.0 * t2 * t));
  q.t1 = t1;
  return q;
}

// The modified Rodrigues parameters axis * tan(angle / 4) of a unit quaternion, in the
// hemisphere of `reference` (w >= 0 when it is null): x y z / (1 + w).
glm::vec3 rotation_parameters(glm::quat q, const glm::quat* reference) {
  if (reference != nullptr ? glm::dot(q, *reference) < 0.f : q.w < 0.f) q = -q;
  const float w = 1.f + q.w;
  if (!(w > 1e-6f)) return glm::vec3(0.f);  // a half turn the other way round: no shorter side
  return glm::vec3(q.x, q.y, q.z) / w;
}

glm::vec3 translation_of(std::span<const TrsBlock> pose, std::size_t j) {
  const TrsBlock& b = pose[j / kPoseLanes];
  const std::size_t l = j % kPoseLanes;
  return {b.t[0][l], b.t[1][l], b.t[2][l]};
}

glm::quat rotation_of(std::span<const TrsBlock> pose, std::size_t j) {
  const TrsBlock& b = pose[j / kPoseLanes];
  const std::size_t l = j % kPoseLanes;
  const glm::quat q(b.q[3][l], b.q[0][l], b.q[1][l], b.q[2][l]);
  const float n = glm::length(q);
  return n > 0.f ? q / n : glm::quat(1.f, 0.f, 0.f, 0.f);
}

bool finite_pose(std::span<const TrsBlock> pose, std::size_t joints) {
  for (std::size_t j = 0; j < joints; ++j) {
    const TrsBlock& b = pose[j / kPoseLanes];
    const std::size_t l = j % kPoseLanes;
    for (int c = 0; c < 3; ++c)
      if (!std::isfinite(b.t[c][l]) || !std::isfinite(b.s[c][l])) return false;
    for (int c = 0; c < 4; ++c)
      if (!std::isfinite(b.q[c][l])) return false;
  }
  return true;
}

}  // namespace

float InertializationState::Quintic::at(float t) const noexcept {
  if (!(t < t1)) return 0.f;
  return ((((a * t + b) * t + c) * t + 0.5f * a0) * t + v0) * t + x0;
}

void InertializationState::resize(std::size_t joints) {
  joints_.assign(joints, Joint{});
  blocks_.assign(pose_block_count(joints), Block{});
  end_ = 0.f;
}

JobStatus InertializationSetupJob::validate() const noexcept {
  if (state == nullptr) return job_error("state", "is null");
  const std::size_t blocks = pose_block_count(state->joint_count());
  if (previous.size() < blocks || current.size() < blocks || next.size() < blocks)
    return job_error("previous, current, next", "have fewer blocks than the state's joints need");
  if (!(dt > 0.f) || !std::isfinite(dt)) return job_error("dt", "is not a finite number of seconds above 0");
  if (!(duration > 0.f) || !std::isfinite(duration)) return job_error("duration", "is not a finite number of seconds above 0");
  const std::size_t joints = state->joint_count();
  if (!finite_pose(previous, joints) || !finite_pose(current, joints) || !finite_pose(next, joints))
    return job_error("previous, current, next", "hold a value that is not finite");
  return kJobOk;
}

bool InertializationSetupJob::run() const noexcept {
  if (!validate()) return false;
  InertializationState& s = *state;
  s.end_ = duration;
  for (std::size_t j = 0; j < s.joint_count(); ++j) {
    const glm::vec3 b = translation_of(next, j);
    const glm::vec3 t0 = translation_of(current, j) - b;
    const glm::vec3 t_prev = translation_of(previous, j) - b;
    const glm::quat qb_inverse = glm::conjugate(rotation_of(next, j));
    const glm::quat q0 = rotation_of(current, j) * qb_inverse;
    const glm::vec3 r0 = rotation_parameters(q0, nullptr);
    const glm::quat q0_short = q0.w < 0.f ? -q0 : q0;
    const glm::vec3 r_prev = rotation_parameters(rotation_of(previous, j) * qb_inverse, &q0_short);
    InertializationState::Joint& joint = s.joints_[j];
    joint.moves = false;
    for (int c = 0; c < 3; ++c) {
      joint.translation[c] = quintic(t0[c], (t0[c] - t_prev[c]) / dt, duration);
      joint.rotation[c] = quintic(r0[c], (r0[c] - r_prev[c]) / dt, duration);
      joint.moves |= std::abs(t0[c]) > kNoOffset || std::abs(r0[c]) > kNoOffset || t0[c] != t_prev[c] || r0[c] != r_prev[c];
    }
    // The frame's layout: x0 and v0 (the header's two shared weights do the rest).
    InertializationState::Block& block = s.blocks_[j / kPoseLanes];
    const std::size_t l = j % kPoseLanes;
    for (int c = 0; c < 6; ++c) {
      const Quintic& q = c < 3 ? joint.translation[c] : joint.rotation[c - 3];
      block.c[c][0][l] = joint.moves ? q.x0 : 0.f;
      block.c[c][1][l] = joint.moves ? q.v0 : 0.f;
    }
    block.moves[l] = joint.moves ? 1.f : 0.f;
  }
  for (InertializationState::Block& block : s.blocks_) {
    block.any = block.translates = false;
    block.all = true;
    for (const float m : block.moves) block.any |= m != 0.f, block.all &= m != 0.f;
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 2; ++k)
        for (const float x : block.c[c][k]) block.translates |= x != 0.f;
  }
  return true;
}

JobStatus InertializationJob::validate() const noexcept {
  if (state == nullptr) return job_error("state", "is null");
  const std::size_t blocks = pose_block_count(state->joint_count());
  if (pose.size() < blocks) return job_error("pose", "has fewer blocks than the state's joints need");
  if (output.size() < blocks) return job_error("output", "has fewer blocks than the state's joints need");
  if (!(elapsed >= 0.f) || !std::isfinite(elapsed)) return job_error("elapsed", "is not a finite number of seconds >= 0");
  return kJobOk;
}

bool InertializationJob::run() const noexcept {
  if (!validate()) return false;
  const std::span<const InertializationState::Block> blocks = state->blocks();
  const bool running = elapsed < state->end();
  const detail::BlendKernels& kernels = detail::blend_kernels(simd_choice());
  // The weights of x0 and v0 at this time (the header's expanded quintic), in double.
  const double t1 = state->end(), u = static_cast<double>(elapsed) / t1, w = 1.0 - u, w2 = w * w;
  const float p = static_cast<float>(1.0 + u * u * (-10.0 + u * (20.0 + u * (-15.0 + 4.0 * u))));
  const float q = static_cast<float>(static_cast<double>(elapsed) * w2 * w2);
  kernels.inertialize(pose.data(), blocks.data(), blocks.size(), running, p, q, output.data());
  return true;
}

}  // namespace marrow
