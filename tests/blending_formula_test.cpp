// Blending (B2, B3) against the formulas of blending_job.hpp in double precision, on random
// layers, masks and additive layers, at every SIMD level.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "pose_blend_util.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;
using test::random_rotation;
using test::blend_poses;
using test::near_trs;
using test::random_trs;
using test::same_trs_bits;
using test::to_pose;
using test::turn;

// ---------------------------------------------------------------------------------------------
// The formulas of blending_job.hpp in double precision, joint by joint.

struct Layer {
  std::vector<Trs> pose;
  float weight = 0.f;
  std::vector<float> mask;
};

std::vector<Trs> reference_blend(const std::vector<Layer>& layers, const std::vector<Layer>& additive,
                                 const std::vector<Trs>& rest, float threshold) {
  const std::size_t n = rest.size();
  std::vector<Trs> out(n);
  const auto dq = [](const glm::quat& q) { return glm::dquat(q.w, q.x, q.y, q.z); };
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<std::pair<double, Trs>> sources;
    double total = 0;
    for (const Layer& l : layers) {
      const double a = double(l.weight) * (l.mask.empty() ? 1.0 : double(l.mask[j]));
      if (a > 0) sources.emplace_back(a, l.pose[j]);
      total += a;
    }
    if (total < threshold) sources.emplace_back(threshold - total, rest[j]);
    double sum = 0;
    glm::dvec3 t(0), s(0);
    glm::dquat r(0, 0, 0, 0);
    const glm::dquat first = dq(sources.front().second.rotation);
    for (const auto& [a, trs] : sources) {
      sum += a;
      t += a * glm::dvec3(trs.translation);
      s += a * glm::dvec3(trs.scale);
      const glm::dquat q = dq(trs.rotation);
      r = r + (glm::dot(first, q) < 0 ? -a : a) * q;
    }
    glm::dvec3 T = t / sum, S = s / sum;
    glm::dquat R = glm::normalize(r);
    for (const Layer& l : additive) {
      const double a = double(l.weight) * (l.mask.empty() ? 1.0 : double(l.mask[j]));
      const Trs& d = l.pose[j];
      T += a * glm::dvec3(d.translation);
      S *= glm::dvec3(1) + a * (glm::dvec3(d.scale) - glm::dvec3(1));
      glm::dquat dr = dq(d.rotation);
      if (dr.w < 0) dr = -dr;
      R = R * glm::normalize(glm::dquat(1 - a + a * dr.w, a * dr.x, a * dr.y, a * dr.z));
    }
    out[j] = Trs{glm::vec3(T), glm::quat(float(R.w), float(R.x), float(R.y), float(R.z)), glm::vec3(S)};
  }
  return out;
}

struct RandomBlend {
  std::size_t joints;
  std::vector<Trs> rest;
  std::vector<Layer> layers, additive;
  float threshold;
  std::vector<std::vector<TrsBlock>> poses;  // layers', then additive layers'
  std::vector<TrsBlock> rest_pose;
  std::vector<BlendingLayer> job_layers, job_additive;
};

// Layer rotations scatter within 1.2 rad of a per-joint rotation, with random signs (so the
// hemisphere matters but no pair is near orthogonal); weights 0, below and above the
// threshold; masks with zeros; up to 40 layers (more than one kernel call takes).
RandomBlend random_blend(std::mt19937& rng, std::size_t joints, std::size_t layer_count, std::size_t additive_count) {
  std::uniform_real_distribution<float> u(0.f, 1.f);
  RandomBlend b;
  b.joints = joints;
  b.threshold = u(rng) < 0.5f ? 0.1f : 0.6f;
  std::vector<glm::quat> centre(joints);
  for (glm::quat& q : centre) q = random_rotation(rng);
  const auto scattered = [&](std::size_t j, float angle) {
    const glm::quat q = turn(angle * (u(rng) - 0.5f) * 2.f, glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 0.1f))) * centre[j];
    return u(rng) < 0.5f ? -q : q;
  };
  const auto random_layer = [&](bool is_additive) {
    Layer l;
    const float kind = u(rng);
    l.weight = kind < 0.15f ? 0.f : (kind < 0.4f ? 0.05f * u(rng) : 2.f * u(rng));
    if (is_additive) l.weight = u(rng) < 0.2f ? 0.f : u(rng);
    if (u(rng) < 0.5f) {
      for (std::size_t j = 0; j < joints; ++j) l.mask.push_back(u(rng) < 0.3f ? 0.f : 1.5f * u(rng));
    }
    for (std::size_t j = 0; j < joints; ++j) {
      Trs t = random_trs(rng);
      if (is_additive) {
        t.translation *= 0.2f;
        t.rotation = turn(40.f * (u(rng) - 0.5f), glm::normalize(glm::vec3(u(rng), u(rng) + 0.1f, u(rng))));
        if (u(rng) < 0.3f) t.rotation = -t.rotation;
        t.scale = glm::vec3(0.9f) + 0.2f * glm::vec3(u(rng), u(rng), u(rng));
      } else {
        t.rotation = scattered(j, 68.f);
      }
      l.pose.push_back(t);
    }
    return l;
  };
  for (std::size_t j = 0; j < joints; ++j) b.rest.push_back(Trs{random_trs(rng).translation, scattered(j, 68.f), random_trs(rng).scale});
  for (std::size_t i = 0; i < layer_count; ++i) b.layers.push_back(random_layer(false));
  for (std::size_t i = 0; i < additive_count; ++i) b.additive.push_back(random_layer(true));
  b.rest_pose = to_pose(b.rest);
  for (const Layer& l : b.layers) b.poses.push_back(to_pose(l.pose));
  for (const Layer& l : b.additive) b.poses.push_back(to_pose(l.pose));
  for (std::size_t i = 0; i < layer_count; ++i) b.job_layers.push_back({b.poses[i], b.layers[i].weight, b.layers[i].mask});
  for (std::size_t i = 0; i < additive_count; ++i) {
    b.job_additive.push_back({b.poses[layer_count + i], b.additive[i].weight, b.additive[i].mask});
  }
  return b;
}

TEST(BlendingJob, B2_B3_EqualTheFormulasOnRandomLayers) {
  std::mt19937 rng(8);
  std::uniform_int_distribution<std::size_t> joints(1, 37), few(0, 4), many(17, 40);
  for (int trial = 0; trial < 80; ++trial) {
    const std::size_t layer_count = trial % 4 == 3 ? many(rng) : few(rng);
    const std::size_t additive_count = trial % 8 == 5 ? many(rng) : few(rng);
    const RandomBlend b = random_blend(rng, joints(rng), layer_count, additive_count);
    const std::vector<TrsBlock> out = blend_poses(b.joints, b.job_layers, b.rest_pose, b.job_additive, b.threshold);
    const std::vector<Trs> want = reference_blend(b.layers, b.additive, b.rest, b.threshold);
    for (std::size_t j = 0; j < b.joints; ++j) {
      ASSERT_TRUE(near_trs(pose_joint(out, j), want[j], 1e-5f))
          << "trial " << trial << " joint " << j << " layers " << layer_count << " additive " << additive_count;
    }
  }
}

TEST(BlendingJob, B2_ManyLayersBlendAsTheirSum) {
  // Forty layers (several kernel passes) that are four poses ten times each blend as the four
  // poses with ten times the weight.
  std::mt19937 rng(9);
  const RandomBlend four = random_blend(rng, 29, 4, 0);
  std::vector<BlendingLayer> forty, summed;
  for (std::size_t i = 0; i < 4; ++i) {
    const BlendingLayer& l = four.job_layers[i];
    summed.push_back({l.pose, l.weight * 10.f, l.joint_weights});
  }
  for (int k = 0; k < 10; ++k) {
    for (const BlendingLayer& l : four.job_layers) forty.push_back(l);
  }
  const std::vector<TrsBlock> a = blend_poses(29, forty, four.rest_pose, {}, four.threshold);
  const std::vector<TrsBlock> b = blend_poses(29, summed, four.rest_pose, {}, four.threshold);
  for (std::size_t j = 0; j < 29; ++j) EXPECT_TRUE(near_trs(pose_joint(a, j), pose_joint(b, j), 2e-6f)) << "joint " << j;
}

TEST(BlendingJob, B2_AMaskOfOnesGivesTheSameBitsAsNoMask) {
  // Unmasked layers take the job's shared weights, masked ones the per-lane loop: one rule.
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    RandomBlend b = random_blend(rng, 1 + 3 * static_cast<std::size_t>(trial), 1 + static_cast<std::size_t>(trial) % 5, 1);
    const std::vector<float> ones(b.joints, 1.f);
    std::vector<BlendingLayer> unmasked = b.job_layers, masked = b.job_layers;
    for (BlendingLayer& l : unmasked) l.joint_weights = {};
    for (BlendingLayer& l : masked) l.joint_weights = ones;
    const std::vector<TrsBlock> x = blend_poses(b.joints, unmasked, b.rest_pose, b.job_additive, b.threshold);
    const std::vector<TrsBlock> y = blend_poses(b.joints, masked, b.rest_pose, b.job_additive, b.threshold);
    for (std::size_t j = 0; j < b.joints; ++j) {
      ASSERT_TRUE(same_trs_bits(pose_joint(x, j), pose_joint(y, j))) << "trial " << trial << " joint " << j;
    }
  }
}

TEST(BlendingJob, B2_EverySimdLevelGivesTheSameBlend) {
  std::mt19937 rng(10);
  struct Restore {  // the choice in force before, also when an assertion ends the test early
    SimdChoice saved = simd_choice();
    ~Restore() { set_simd_choice(saved); }
  } restore;
  for (int trial = 0; trial < 12; ++trial) {
    const RandomBlend b = random_blend(rng, 3 + 7 * static_cast<std::size_t>(trial), trial == 5 ? 20 : 3, trial == 7 ? 20 : 2);
    set_simd_level(SimdLevel::Sse2);
    const std::vector<TrsBlock> first = blend_poses(b.joints, b.job_layers, b.rest_pose, b.job_additive, b.threshold);
    for (const SimdChoice choice : runnable_simd_choices()) {  // native and emulated
      set_simd_choice(choice);
      const std::vector<TrsBlock> out = blend_poses(b.joints, b.job_layers, b.rest_pose, b.job_additive, b.threshold);
      for (std::size_t j = 0; j < b.joints; ++j) {
        ASSERT_TRUE(near_trs(pose_joint(out, j), pose_joint(first, j), 1e-6f)) << to_string(choice) << " joint " << j;
      }
    }
  }
}

}  // namespace
}  // namespace marrow
