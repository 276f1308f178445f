// Blending (B1-B3): the blending job against hand-computed poses and against the header's
// formulas in double precision, additive clips and poses, subtree masks, and the job refusing
// bad input without writing (X3).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "marrow/core/trs.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/runtime/additive_pose.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/joint_mask.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/track_sampler.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::random_rotation;
using test::near;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Trs random_trs(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-3.f, 3.f), s(0.5f, 2.f);
  return Trs{{u(rng), u(rng), u(rng)}, random_rotation(rng), {s(rng), s(rng), s(rng)}};
}

// A pose of joints.size() joints; padding lanes hold NaN (jobs must not care).
std::vector<TrsBlock> to_pose(const std::vector<Trs>& joints) {
  std::vector<TrsBlock> pose(pose_block_count(joints.size()));
  std::memset(pose.data(), 0xff, pose.size() * sizeof(TrsBlock));  // NaN
  for (std::size_t j = 0; j < joints.size(); ++j) set_pose_joint(pose, j, joints[j]);
  return pose;
}

std::vector<Trs> to_joints(std::span<const TrsBlock> pose, std::size_t joints) {
  std::vector<Trs> out(joints);
  for (std::size_t j = 0; j < joints; ++j) out[j] = pose_joint(pose, j);
  return out;
}

glm::quat about(float degrees, const glm::vec3& axis) { return glm::angleAxis(glm::radians(degrees), axis); }

bool same_bits(const Trs& a, const Trs& b) {
  return a.translation == b.translation && a.scale == b.scale && a.rotation.x == b.rotation.x &&
         a.rotation.y == b.rotation.y && a.rotation.z == b.rotation.z && a.rotation.w == b.rotation.w;
}

::testing::AssertionResult near_quat(const glm::quat& a, const glm::quat& b, float tol) {
  for (int c = 0; c < 4; ++c) {
    if (!(std::fabs(a[c] - b[c]) <= tol)) {
      return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ", " << a.w << ") vs (" << b.x
                                           << ", " << b.y << ", " << b.z << ", " << b.w << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// Blends with the job (default threshold unless given); the output starts as NaN.
std::vector<TrsBlock> blend(std::size_t joints, const std::vector<BlendingLayer>& layers, const std::vector<TrsBlock>& rest,
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

// ---------------------------------------------------------------------------------------------
// B1, B2: normal layers

TEST(BlendingJob, B1_OneLayerAtWeightOneReturnsTheLayerExactly) {
  std::mt19937 rng(1);
  for (std::size_t joints : {1u, 8u, 11u, 30u}) {
    std::vector<Trs> values(joints), rest_values(joints);
    for (Trs& t : values) t = random_trs(rng);
    for (Trs& t : rest_values) t = random_trs(rng);
    const std::vector<TrsBlock> pose = to_pose(values), rest = to_pose(rest_values);
    // A lone source (any weight at or above the threshold) comes out bit for bit.
    for (float weight : {1.f, 0.37f, 0.1f}) {
      const std::vector<TrsBlock> out = blend(joints, {{pose, weight}}, rest);
      for (std::size_t j = 0; j < joints; ++j) {
        const Trs got = pose_joint(out, j);
        EXPECT_TRUE(same_bits(got, values[j])) << "joint " << j << " weight " << weight;
      }
    }
  }
}

TEST(BlendingJob, B2_FiftyFiftyBlendOfTwoKnownPoses) {
  const glm::vec3 y(0, 1, 0);
  const std::vector<TrsBlock> a = to_pose({Trs{{0, 0, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}}, Trs{{1, 1, 1}, about(-30, y), {1, 1, 1}}});
  const std::vector<TrsBlock> b = to_pose({Trs{{2, 4, -6}, about(90, y), {3, 1, 2}}, Trs{{3, 1, 1}, about(30, y), {1, 3, 1}}});
  const std::vector<TrsBlock> rest = to_pose({Trs{}, Trs{}});
  const std::vector<TrsBlock> out = blend(2, {{a, 0.5f}, {b, 0.5f}}, rest);
  // Joint 0: translations and scales averaged; the normalised mean of identity and 90 degrees
  // about y is slerp at 0.5: 45 degrees, (0, sin 22.5, 0, cos 22.5).
  const Trs j0 = pose_joint(out, 0);
  EXPECT_TRUE(near(j0.translation, {1, 2, -3}, 1e-6f));
  EXPECT_TRUE(near(j0.scale, {2, 1, 1.5f}, 1e-6f));
  EXPECT_TRUE(near_quat(j0.rotation, glm::quat(0.92387953f, 0, 0.38268343f, 0), 1e-6f));
  // Joint 1: -30 and +30 degrees meet at identity.
  const Trs j1 = pose_joint(out, 1);
  EXPECT_TRUE(near(j1.translation, {2, 1, 1}, 1e-6f));
  EXPECT_TRUE(near(j1.scale, {1, 2, 1}, 1e-6f));
  EXPECT_TRUE(near_quat(j1.rotation, glm::quat(1, 0, 0, 0), 1e-6f));
}

TEST(BlendingJob, B2_WeightsAreNormalised) {
  std::mt19937 rng(2);
  std::vector<Trs> va(13), vb(13);
  for (Trs& t : va) t = random_trs(rng);
  for (Trs& t : vb) t = random_trs(rng);
  const std::vector<TrsBlock> a = to_pose(va), b = to_pose(vb), rest = to_pose(std::vector<Trs>(13));
  const std::vector<TrsBlock> big = blend(13, {{a, 2.f}, {b, 2.f}}, rest), half = blend(13, {{a, 0.5f}, {b, 0.5f}}, rest);
  const std::vector<TrsBlock> one_three = blend(13, {{a, 1.f}, {b, 3.f}}, rest);
  for (std::size_t j = 0; j < 13; ++j) {
    EXPECT_TRUE(same_bits(pose_joint(big, j), pose_joint(half, j))) << "joint " << j;
    // 1 : 3 is a quarter of a and three quarters of b.
    EXPECT_TRUE(near(pose_joint(one_three, j).translation, 0.25f * va[j].translation + 0.75f * vb[j].translation, 1e-5f));
    EXPECT_TRUE(near(pose_joint(one_three, j).scale, 0.25f * va[j].scale + 0.75f * vb[j].scale, 1e-5f));
  }
}

TEST(BlendingJob, B2_ALayerWithTheNegatedQuaternionBlendsTheSame) {
  const glm::quat qa = about(20, glm::normalize(glm::vec3(1, 2, 3))), qb = about(100, glm::vec3(0, 0, 1));
  const auto pose_of = [](const glm::quat& q) { return to_pose({Trs{{1, 2, 3}, q, {1, 1, 1}}}); };
  const std::vector<TrsBlock> rest = to_pose({Trs{}});
  const Trs ab = pose_joint(blend(1, {{pose_of(qa), 0.3f}, {pose_of(qb), 0.7f}}, rest), 0);
  const Trs a_negb = pose_joint(blend(1, {{pose_of(qa), 0.3f}, {pose_of(-qb), 0.7f}}, rest), 0);
  const Trs nega_b = pose_joint(blend(1, {{pose_of(-qa), 0.3f}, {pose_of(qb), 0.7f}}, rest), 0);
  EXPECT_TRUE(same_bits(ab, a_negb));
  // The result lies in the first contributing layer's hemisphere: negating it negates the result.
  EXPECT_TRUE(same_bits(Trs{ab.translation, -ab.rotation, ab.scale}, nega_b));
  // Normalised mean of qa and qb (aligned): a hand formula for two rotations.
  const glm::quat expected = glm::normalize(glm::quat(0.3f * qa.w + 0.7f * qb.w, 0.3f * qa.x + 0.7f * qb.x,
                                                      0.3f * qa.y + 0.7f * qb.y, 0.3f * qa.z + 0.7f * qb.z));
  EXPECT_TRUE(near_quat(ab.rotation, expected, 1e-6f));
  // q and -q are one rotation: a 50/50 blend of them is that rotation, not a cancellation.
  const Trs twins = pose_joint(blend(1, {{pose_of(qb), 0.5f}, {pose_of(-qb), 0.5f}}, rest), 0);
  EXPECT_TRUE(near_quat(twins.rotation, qb, 1e-6f));
  // Per joint: where a mask leaves the first layer out, the second layer is the first
  // contributor, and its sign decides the result's.
  const glm::quat qc = about(-70, glm::vec3(1, 0, 0));
  const auto two = [](const glm::quat& q) { return to_pose({Trs{{}, q, {1, 1, 1}}, Trs{{}, q, {1, 1, 1}}}); };
  const std::vector<TrsBlock> rest2 = to_pose({Trs{}, Trs{}});
  const std::vector<float> first_only = {1.f, 0.f};
  const auto joint = [&](std::size_t j, const glm::quat& a, const glm::quat& b) {
    return pose_joint(blend(2, {{two(a), 1.f, first_only}, {two(b), 1.f}, {two(qc), 1.f}}, rest2), j).rotation;
  };
  const glm::quat base0 = joint(0, qa, qb), base1 = joint(1, qa, qb);
  EXPECT_TRUE(near_quat(joint(0, -qa, qb), -base0, 0.f));
  EXPECT_TRUE(near_quat(joint(0, qa, -qb), base0, 0.f));
  EXPECT_TRUE(near_quat(joint(1, -qa, qb), base1, 0.f));
  EXPECT_TRUE(near_quat(joint(1, qa, -qb), -base1, 0.f));
  EXPECT_TRUE(near_quat(base1, glm::normalize(qb + (glm::dot(qb, qc) < 0 ? -qc : qc)), 1e-6f));
}

TEST(BlendingJob, B2_TheRestPoseJoinsBelowTheThreshold) {
  const glm::quat quarter_z = about(90, glm::vec3(0, 0, 1));
  const std::vector<TrsBlock> layer = to_pose({Trs{{10, 0, 0}, quarter_z, {2, 2, 2}}});
  const std::vector<TrsBlock> rest = to_pose({Trs{{0, 5, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}}});
  // Weight 0.04 with threshold 0.1: the rest joins at 0.06, so the layer has 0.4 and the rest 0.6.
  const Trs got = pose_joint(blend(1, {{layer, 0.04f}}, rest, {}, 0.1f), 0);
  EXPECT_TRUE(near(got.translation, {4, 3, 0}, 1e-5f));           // 0.4 * 10, 0.6 * 5
  EXPECT_TRUE(near(got.scale, {1.4f, 1.4f, 1.4f}, 1e-6f));         // 0.4 * 2 + 0.6 * 1
  // normalize(0.4 (0, 0, .70710678, .70710678) + 0.6 (0, 0, 0, 1)) = normalize(0, 0, .28284271,
  // .88284271): length .92704437, so (0, 0, .30510159, .95231981), 35.53 degrees about z.
  EXPECT_TRUE(near_quat(got.rotation, glm::quat(0.95231981f, 0, 0, 0.30510159f), 1e-6f));
  // At or above the threshold the rest pose stays out: the lone layer, exactly.
  const Trs at = pose_joint(blend(1, {{layer, 0.1f}}, rest, {}, 0.1f), 0);
  EXPECT_TRUE(same_bits(at, pose_joint(layer, 0)));
  // Two layers of 0.03 each with threshold 0.1: 0.3, 0.3 and the rest 0.4.
  const std::vector<TrsBlock> other = to_pose({Trs{{0, 0, 10}, glm::quat(1, 0, 0, 0), {1, 1, 1}}});
  const Trs two = pose_joint(blend(1, {{layer, 0.03f}, {other, 0.03f}}, rest, {}, 0.1f), 0);
  EXPECT_TRUE(near(two.translation, {3, 2, 3}, 1e-5f));
}

TEST(BlendingJob, B2_AllWeightsZeroGiveTheRestPoseExactly) {
  std::mt19937 rng(3);
  std::vector<Trs> rv(19), lv(19);
  for (Trs& t : rv) t = random_trs(rng);
  for (Trs& t : lv) t = random_trs(rng);
  const std::vector<TrsBlock> rest = to_pose(rv), layer = to_pose(lv);
  const std::vector<float> zero_mask(19, 0.f);
  for (const std::vector<BlendingLayer>& layers :
       {std::vector<BlendingLayer>{}, std::vector<BlendingLayer>{{layer, 0.f}, {layer, 0.f}},
        std::vector<BlendingLayer>{{layer, 1.f, zero_mask}}}) {
    for (float threshold : {0.1f, 0.3f, 1e-30f}) {
      const std::vector<TrsBlock> out = blend(19, layers, rest, {}, threshold);
      for (std::size_t j = 0; j < 19; ++j) EXPECT_TRUE(same_bits(pose_joint(out, j), rv[j])) << "joint " << j;
    }
  }
}

// pelvis; spine, chest, neck, head, two arms under the chest; two legs of two joints.
const std::vector<int> kBody = {-1, 0, 1, 2, 3, 2, 2, 0, 7, 0, 9};
constexpr int kSpine = 1;

TEST(BlendingJob, B2_AMaskLeavesTheLegsAlone) {
  std::mt19937 rng(4);
  const std::size_t n = kBody.size();
  std::vector<Trs> walk(n), wave(n), rv(n);
  for (Trs& t : walk) t = random_trs(rng);
  for (Trs& t : wave) t = random_trs(rng);
  for (Trs& t : rv) t = random_trs(rng);
  const std::vector<TrsBlock> walk_pose = to_pose(walk), wave_pose = to_pose(wave), rest = to_pose(rv);
  const std::vector<float> upper = subtree_mask(kBody, kSpine);
  const std::vector<bool> is_upper = {false, true, true, true, true, true, true, false, false, false, false};
  // The wave on the upper body over the walk: legs and pelvis are the walk's, bit for bit; the
  // upper body is the mean of both (each at weight 1).
  const std::vector<TrsBlock> mixed = blend(n, {{walk_pose, 1.f}, {wave_pose, 1.f, upper}}, rest);
  for (std::size_t j = 0; j < n; ++j) {
    const Trs got = pose_joint(mixed, j);
    if (!is_upper[j]) {
      EXPECT_TRUE(same_bits(got, walk[j])) << "joint " << j;
    } else {
      EXPECT_TRUE(near(got.translation, 0.5f * (walk[j].translation + wave[j].translation), 1e-5f)) << "joint " << j;
    }
  }
  // With the walk masked to the complement, the upper body is the wave's exactly.
  const std::vector<float> lower = subtree_mask(kBody, kSpine, 0.f, 1.f);
  const std::vector<TrsBlock> split = blend(n, {{walk_pose, 1.f, lower}, {wave_pose, 1.f, upper}}, rest);
  for (std::size_t j = 0; j < n; ++j) {
    EXPECT_TRUE(same_bits(pose_joint(split, j), is_upper[j] ? wave[j] : walk[j])) << "joint " << j;
  }
}

TEST(BlendingJob, B2_APerJointMaskWeightScalesThatJointOnly) {
  const glm::quat id(1, 0, 0, 0);
  const std::vector<TrsBlock> a = to_pose({Trs{{0, 0, 0}, id, {1, 1, 1}}, Trs{{0, 0, 0}, id, {1, 1, 1}}});
  const std::vector<TrsBlock> b = to_pose({Trs{{3, 0, 0}, id, {4, 4, 4}}, Trs{{3, 0, 0}, id, {4, 4, 4}}});
  const std::vector<TrsBlock> rest = to_pose({Trs{}, Trs{}});
  const std::vector<float> mask = {1.f, 0.5f};
  const std::vector<TrsBlock> out = blend(2, {{a, 1.f}, {b, 1.f, mask}}, rest);
  // Joint 0: 1 and 1 -> the mean. Joint 1: 1 and 0.5 -> b has a third: x = 3 / 3, s = 1 + 3 / 3.
  EXPECT_TRUE(near(pose_joint(out, 0).translation, {1.5f, 0, 0}, 1e-6f));
  EXPECT_TRUE(near(pose_joint(out, 0).scale, {2.5f, 2.5f, 2.5f}, 1e-6f));
  EXPECT_TRUE(near(pose_joint(out, 1).translation, {1, 0, 0}, 1e-6f));
  EXPECT_TRUE(near(pose_joint(out, 1).scale, {2, 2, 2}, 1e-6f));
}

TEST(BlendingJob, B2_RotationsThatCancelFallBackToTheFirstContributorNeverNaN) {
  // Two rotations in the identity's hemisphere (dot 0 with it) that cancel, with the identity
  // first at a negligible weight: the sum has no length left, so the identity is taken.
  const std::vector<TrsBlock> id = to_pose({Trs{{}, glm::quat(1, 0, 0, 0), {1, 1, 1}}});
  const std::vector<TrsBlock> px = to_pose({Trs{{}, glm::quat(0, 1, 0, 0), {1, 1, 1}}});
  const std::vector<TrsBlock> nx = to_pose({Trs{{}, glm::quat(0, -1, 0, 0), {1, 1, 1}}});
  const std::vector<TrsBlock> rest = to_pose({Trs{}});
  const Trs got = pose_joint(blend(1, {{id, 1e-20f}, {px, 1.f}, {nx, 1.f}}, rest), 0);
  EXPECT_TRUE(near_quat(got.rotation, glm::quat(1, 0, 0, 0), 0.f));
  // Zero-initialised poses (rotation 0 0 0 0) everywhere: finite, no NaN.
  const std::vector<TrsBlock> zeros(2);
  std::vector<TrsBlock> out(2);
  BlendingLayer layers[] = {{zeros, 0.5f}, {zeros, 0.02f}};
  BlendingLayer additive[] = {{zeros, 1.f}};
  ASSERT_TRUE((BlendingJob{layers, additive, zeros, 13, 0.1f, out}.run()));
  for (std::size_t j = 0; j < 16; ++j) {
    const Trs t = pose_joint(out, j);
    for (int c = 0; c < 3; ++c) EXPECT_TRUE(std::isfinite(t.translation[c]) && std::isfinite(t.scale[c])) << j;
    for (int c = 0; c < 4; ++c) EXPECT_TRUE(std::isfinite(t.rotation[c])) << j;
  }
}

TEST(BlendingJob, B2_PaddingLanesComeOutAFiniteIdentity) {
  // Inputs' padding lanes hold NaN (to_pose); the output's padding is overwritten.
  std::mt19937 rng(5);
  std::vector<Trs> v(5);
  for (Trs& t : v) t = random_trs(rng);
  const std::vector<TrsBlock> pose = to_pose(v), rest = to_pose(v);
  const std::vector<TrsBlock> out = blend(5, {{pose, 0.3f}, {pose, 0.02f}}, rest, {{pose, 0.5f}});
  for (std::size_t j = 5; j < 8; ++j) EXPECT_TRUE(same_bits(pose_joint(out, j), Trs{})) << "lane " << j;
}

#if defined(__unix__)
TEST(BlendingJob, B2_MasksAreReadOnlyUpToJointCount) {
  // Masks that end where readable memory ends (a no-access page follows): reading a whole
  // block of lanes for the last, partial block would fault.
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* memory = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<char*>(memory) + page, page, PROT_NONE), 0);
  const std::size_t n = 11;
  float* mask = reinterpret_cast<float*>(static_cast<char*>(memory) + page) - n;
  for (std::size_t j = 0; j < n; ++j) mask[j] = 0.5f;
  std::mt19937 rng(12);
  std::vector<Trs> v(n);
  for (Trs& t : v) t = random_trs(rng);
  const std::vector<TrsBlock> pose = to_pose(v);
  const std::span<const float> m(mask, n);
  const std::vector<TrsBlock> out = blend(n, {{pose, 1.f, m}, {pose, 1.f}}, pose, {{pose, 1.f, m}});
  EXPECT_TRUE(near(pose_joint(out, n - 1).translation, 1.5f * v[n - 1].translation, 1e-5f));
  munmap(memory, 2 * page);
}
#endif

// ---------------------------------------------------------------------------------------------
// B3: additive layers

TEST(BlendingJob, B3_WeightZeroChangesNothing) {
  std::mt19937 rng(6);
  std::vector<Trs> base(10), delta(10);
  for (Trs& t : base) t = random_trs(rng);
  for (Trs& t : delta) t = random_trs(rng);
  const std::vector<TrsBlock> base_pose = to_pose(base), delta_pose = to_pose(delta);
  std::vector<float> mask(10, 1.f);
  mask[3] = mask[9] = 0.f;
  const std::vector<TrsBlock> none = blend(10, {{base_pose, 1.f}}, base_pose, {{delta_pose, 0.f}});
  const std::vector<TrsBlock> masked = blend(10, {{base_pose, 1.f}}, base_pose, {{delta_pose, 1.f, mask}});
  for (std::size_t j = 0; j < 10; ++j) {
    EXPECT_TRUE(same_bits(pose_joint(none, j), base[j])) << "joint " << j;
    if (mask[j] == 0.f) {
      EXPECT_TRUE(same_bits(pose_joint(masked, j), base[j])) << "joint " << j;
    }
  }
  EXPECT_FALSE(same_bits(pose_joint(masked, 0), base[0]));
}

TEST(BlendingJob, B3_HalfWeightHandComputed) {
  const glm::quat quarter_x = about(90, glm::vec3(1, 0, 0)), quarter_z = about(90, glm::vec3(0, 0, 1));
  const std::vector<TrsBlock> base = to_pose({Trs{{1, 2, 3}, quarter_x, {2, 2, 2}}});
  // The delta rotation given with w < 0 is the same rotation: applied the shorter way.
  for (const glm::quat& dr : {quarter_z, -quarter_z}) {
    const std::vector<TrsBlock> delta = to_pose({Trs{{4, 0, -2}, dr, {3, 1, 0.5f}}});
    const Trs got = pose_joint(blend(1, {{base, 1.f}}, base, {{delta, 0.5f}}), 0);
    EXPECT_TRUE(near(got.translation, {3, 2, 2}, 1e-6f));             // T + dT / 2
    EXPECT_TRUE(near(got.scale, {4, 2, 1.5f}, 1e-6f));                // 2 (1 + (dS - 1) / 2)
    // nlerp(identity, 90 degrees about z, 0.5) is 45 degrees about z (the halfway point of a
    // symmetric arc): R = 90x * 45z = (c45 * c22.5, s45 * c22.5, -s45 * s22.5, c45 * s22.5)
    // in (w, x, y, z), with c45 = s45 = .70710678, c22.5 = .92387953, s22.5 = .38268343.
    EXPECT_TRUE(near_quat(got.rotation, glm::quat(0.65328148f, 0.65328148f, -0.27059805f, 0.27059805f), 1e-6f));
  }
}

TEST(BlendingJob, B3_AdditiveLayersApplyInOrder) {
  const glm::quat qx = about(90, glm::vec3(1, 0, 0)), qy = about(90, glm::vec3(0, 1, 0));
  const std::vector<TrsBlock> base = to_pose({Trs{}});
  const std::vector<TrsBlock> dx = to_pose({Trs{{}, qx, {1, 1, 1}}}), dy = to_pose({Trs{{}, qy, {1, 1, 1}}});
  const Trs xy = pose_joint(blend(1, {{base, 1.f}}, base, {{dx, 1.f}, {dy, 1.f}}), 0);
  const Trs yx = pose_joint(blend(1, {{base, 1.f}}, base, {{dy, 1.f}, {dx, 1.f}}), 0);
  EXPECT_TRUE(near_quat(xy.rotation, qx * qy, 1e-6f));
  EXPECT_TRUE(near_quat(yx.rotation, qy * qx, 1e-6f));
}

// A clip with what real clips have: tracks starting before, at and after 0, untracked joints,
// two tracks on one bone (the later wins), an empty track, a track outside the skeleton.
struct TestRig {
  std::vector<glm::mat4> rest;
  AnimationClip clip;
};

TestRig test_rig(std::mt19937& rng, std::size_t joints) {
  TestRig rig;
  for (std::size_t j = 0; j < joints; ++j) rig.rest.push_back(compose_trs(random_trs(rng)));
  rig.clip.name = "test";
  rig.clip.duration = Ticks{40'000};
  std::uniform_int_distribution<int> start(-5000, 5000), gap(1, 6000);
  for (std::size_t j = 0; j < joints; ++j) {
    if (j % 4 == 2) continue;
    BoneTrack track{static_cast<int>(j), {}};
    Ticks t{start(rng)};
    glm::quat q = random_rotation(rng);
    for (int k = 0; k < 8; ++k) {
      Trs key = random_trs(rng);
      q = glm::normalize(about(std::uniform_real_distribution<float>(-120.f, 120.f)(rng), glm::vec3(0, 1, 0)) * q);
      track.keys.push_back(Keyframe{t, key.translation, k % 3 == 1 ? -q : q, key.scale});
      t += Ticks{gap(rng)};
    }
    rig.clip.tracks.push_back(track);
  }
  rig.clip.tracks.push_back(rig.clip.tracks.front());  // a second track on joint 0: this one wins
  for (Keyframe& key : rig.clip.tracks.back().keys) key.translation += glm::vec3(1, 0, 0);
  rig.clip.tracks.push_back(BoneTrack{1, {}});
  rig.clip.tracks.push_back(BoneTrack{static_cast<int>(joints) + 3, {Keyframe{}}});
  return rig;
}

// Base = the reference pose (one layer), plus the additive clip sampled at t with weight 1:
// the clip itself at t, within 1e-5 (a rotation up to its sign).
void expect_additive_reproduces(const AnimationClip& clip, std::span<const glm::mat4> rest, std::span<const Ticks> times) {
  const std::size_t n = rest.size();
  const std::vector<Trs> reference = clip_reference_pose(clip, rest);
  const std::vector<TrsBlock> base = to_pose(reference);
  const RuntimeClip full = compile_clip(clip, rest);
  const RuntimeClip additive = compile_additive_clip(make_additive_clip(clip, reference), n);
  SamplingContext full_context(n), additive_context(n);
  std::vector<TrsBlock> expected(pose_block_count(n)), delta(pose_block_count(n));
  for (Ticks t : times) {
    ASSERT_TRUE((SamplingJob{&full, t, &full_context, expected}.run()));
    ASSERT_TRUE((SamplingJob{&additive, t, &additive_context, delta}.run()));
    const std::vector<TrsBlock> out = blend(n, {{base, 1.f}}, base, {{delta, 1.f}});
    for (std::size_t j = 0; j < n; ++j) {
      const Trs got = pose_joint(out, j), want = pose_joint(expected, j);
      const float tol = 1e-5f * std::max(1.f, glm::length(want.translation));
      ASSERT_TRUE(near(got.translation, want.translation, tol)) << "joint " << j << " t " << t.count();
      ASSERT_TRUE(near(got.scale, want.scale, 1e-5f * std::max(1.f, glm::length(want.scale)))) << "joint " << j;
      const glm::quat aligned = glm::dot(got.rotation, want.rotation) < 0 ? -got.rotation : got.rotation;
      ASSERT_TRUE(near_quat(aligned, want.rotation, 1e-5f)) << "joint " << j << " t " << t.count();
    }
  }
}

TEST(AdditiveClip, B3_AnAdditiveLayerAtWeightOneOverItsReferenceReproducesTheClip) {
  std::mt19937 rng(7);
  const TestRig rig = test_rig(rng, 21);
  std::vector<Ticks> times;
  for (std::int64_t t = -8000; t < 60'000; t += 1733) times.push_back(Ticks{t});
  expect_additive_reproduces(rig.clip, rig.rest, times);
}

TEST(AdditiveClip, B3_AnAdditiveFoxWalkAtWeightOneReproducesTheWalk) {
  const auto file = std::filesystem::path(MARROW_SHARED_ASSETS) / "gltf" / "Fox" / "Fox.gltf";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const Model model = load_model_file(file);
  const SkinningData& skin = model.skins.at(0).data;
  ASSERT_FALSE(skin.animation_clips.empty());
  for (const auto& [name, clip] : skin.animation_clips) {
    std::vector<Ticks> times;
    for (int i = 0; i <= 24; ++i) times.push_back(Ticks{clip.duration.count() * i / 24});
    SCOPED_TRACE(name);
    expect_additive_reproduces(clip, skin.bind_pose, times);
  }
}

TEST(AdditiveClip, B3_ClipReferencePoseIsTheClipAtTimeZeroOrRest) {
  const glm::mat4 rest0 = compose_trs(glm::vec3(7, 8, 9), about(30, glm::vec3(0, 1, 0)), glm::vec3(2));
  const std::vector<glm::mat4> rest = {rest0, glm::mat4(1.f), glm::mat4(1.f), glm::mat4(1.f)};
  AnimationClip clip;
  clip.duration = Ticks{100};
  // Joint 1 starts after 0 (its first key holds), joint 2 straddles 0 (halfway), joint 3 has two
  // tracks (the later wins), joint 0 none (rest), and a track outside the skeleton.
  clip.tracks.push_back(BoneTrack{1, {Keyframe{Ticks{10}, {1, 0, 0}}, Keyframe{Ticks{20}, {2, 0, 0}}}});
  clip.tracks.push_back(BoneTrack{2, {Keyframe{Ticks{-10}, {0, 0, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}},
                                     Keyframe{Ticks{10}, {4, 0, 0}, glm::quat(1, 0, 0, 0), {3, 3, 3}}}});
  clip.tracks.push_back(BoneTrack{3, {Keyframe{Ticks{0}, {5, 0, 0}}}});
  clip.tracks.push_back(BoneTrack{3, {Keyframe{Ticks{0}, {6, 0, 0}}}});
  clip.tracks.push_back(BoneTrack{9, {Keyframe{Ticks{0}, {9, 0, 0}}}});
  const std::vector<Trs> ref = clip_reference_pose(clip, rest);
  ASSERT_EQ(ref.size(), 4u);
  EXPECT_TRUE(near(ref[0].translation, {7, 8, 9}));
  EXPECT_TRUE(near(ref[0].scale, {2, 2, 2}));
  EXPECT_TRUE(test::same_rotation(ref[0].rotation, about(30, glm::vec3(0, 1, 0))));
  EXPECT_TRUE(near(ref[1].translation, {1, 0, 0}, 0.f));
  EXPECT_TRUE(near(ref[2].translation, {2, 0, 0}, 1e-6f));
  EXPECT_TRUE(near(ref[2].scale, {2, 2, 2}, 1e-6f));
  EXPECT_TRUE(near(ref[3].translation, {6, 0, 0}, 0.f));
}

TEST(AdditiveClip, B3_KeysBecomeDeltasFromTheReference) {
  const glm::quat r_ref = about(40, glm::vec3(0, 0, 1)), r_key = about(100, glm::vec3(0, 0, 1));
  AnimationClip clip;
  clip.name = "wave";
  clip.duration = Ticks{30};
  clip.target_space = ClipTargetSpace::SceneNode;
  clip.tracks.push_back(BoneTrack{1, {Keyframe{Ticks{0}, {3, 4, 5}, r_key, {2, 6, 1}}, Keyframe{Ticks{30}}}});
  clip.tracks.push_back(BoneTrack{5, {Keyframe{}}});  // no reference entry: dropped
  const std::vector<Trs> reference = {Trs{}, Trs{{1, 1, 1}, r_ref, {2, 3, 4}}};
  const AnimationClip additive = make_additive_clip(clip, reference);
  EXPECT_EQ(additive.name, "wave");
  EXPECT_EQ(additive.duration, Ticks{30});
  EXPECT_EQ(additive.target_space, ClipTargetSpace::JointPalette);
  ASSERT_EQ(additive.tracks.size(), 1u);
  const Keyframe& k = additive.tracks[0].keys[0];
  EXPECT_TRUE(near(k.translation, {2, 3, 4}, 0.f));
  EXPECT_TRUE(near(k.scale, {1, 2, 0.25f}, 0.f));
  EXPECT_TRUE(near_quat(k.rotation, about(60, glm::vec3(0, 0, 1)), 1e-6f));  // inverse(40) * 100
  EXPECT_EQ(additive.tracks[0].keys[1].time, Ticks{30});
}

TEST(AdditiveClip, B3_ABadReferenceIsRefusedNamingTheJoint) {
  AnimationClip clip;
  clip.tracks.push_back(BoneTrack{2, {Keyframe{}}});
  std::vector<Trs> reference(3);
  reference[2].scale.y = 0.f;
  EXPECT_TRUE(test::throws_with<std::invalid_argument>([&] { make_additive_clip(clip, reference); }, {"joint 2", "zero scale"}));
  reference[2] = Trs{};
  reference[2].translation.x = kNaN;
  EXPECT_TRUE(test::throws_with<std::invalid_argument>([&] { make_additive_clip(clip, reference); }, {"joint 2", "not finite"}));
  reference[2] = Trs{};
  reference[2].rotation = glm::quat(0, 0, 0, 0);
  EXPECT_TRUE(test::throws_with<std::invalid_argument>([&] { make_additive_clip(clip, reference); }, {"joint 2", "length zero"}));
  reference[2] = Trs{};
  reference[0].scale.x = 0.f;  // a joint no track uses: not refused
  EXPECT_NO_THROW(make_additive_clip(clip, reference));
  // A delta that overflows (a huge scale over a tiny one), and a clip validate_clip refuses.
  reference[2].scale = glm::vec3(1e-30f);
  clip.tracks[0].keys[0].scale = glm::vec3(1e30f);
  EXPECT_THROW(make_additive_clip(clip, reference), std::invalid_argument);
  clip.tracks[0].keys[0].scale = glm::vec3(1.f);
  clip.tracks[0].keys.push_back(Keyframe{Ticks{-5}});
  EXPECT_THROW(make_additive_clip(clip, reference), std::invalid_argument);
  EXPECT_THROW(clip_reference_pose(clip, std::vector<glm::mat4>(3, glm::mat4(1.f))), std::invalid_argument);
}

TEST(AdditiveClip, B3_CompiledAdditiveClipHoldsIdentityForJointsWithoutATrack) {
  AnimationClip additive;
  additive.tracks.push_back(BoneTrack{1, {Keyframe{Ticks{0}, {1, 2, 3}}}});
  const RuntimeClip clip = compile_additive_clip(additive, 3);
  ASSERT_EQ(clip.joint_count(), 3u);
  SamplingContext context(3);
  std::vector<TrsBlock> pose(1);
  ASSERT_TRUE((SamplingJob{&clip, Ticks{0}, &context, pose}.run()));
  EXPECT_TRUE(same_bits(pose_joint(pose, 0), Trs{}));
  EXPECT_TRUE(same_bits(pose_joint(pose, 2), Trs{}));
  EXPECT_TRUE(near(pose_joint(pose, 1).translation, {1, 2, 3}, 0.f));
}

TEST(AdditivePose, B3_MakeAdditivePoseIsTheDeltaFromItsReference) {
  const glm::quat r_ref = about(40, glm::vec3(1, 0, 0)), r = about(-50, glm::vec3(1, 0, 0));
  std::vector<TrsBlock> pose = to_pose({Trs{}, Trs{{3, 4, 5}, r, {2, 6, 1}}});
  const std::vector<TrsBlock> reference = to_pose({Trs{}, Trs{{1, 1, 1}, r_ref, {2, 3, 4}}});
  std::vector<TrsBlock> out(1);
  ASSERT_TRUE(make_additive_pose(pose, reference, 2, out));
  EXPECT_TRUE(same_bits(pose_joint(out, 0), Trs{}));
  const Trs d = pose_joint(out, 1);
  EXPECT_TRUE(near(d.translation, {2, 3, 4}, 0.f));
  EXPECT_TRUE(near(d.scale, {1, 2, 0.25f}, 0.f));
  EXPECT_TRUE(near_quat(d.rotation, about(-90, glm::vec3(1, 0, 0)), 1e-6f));
  // In place, and the same deltas as an additive clip's keys.
  ASSERT_TRUE(make_additive_pose(pose, reference, 2, pose));
  EXPECT_TRUE(same_bits(pose_joint(pose, 1), d));
  AnimationClip clip;
  clip.tracks.push_back(BoneTrack{1, {Keyframe{Ticks{0}, {3, 4, 5}, r, {2, 6, 1}}}});
  const Keyframe k = make_additive_clip(clip, to_joints(reference, 2)).tracks[0].keys[0];
  EXPECT_TRUE(same_bits(Trs{k.translation, k.rotation, k.scale}, d));
  // Each input or the output short: false, nothing written.
  const std::vector<TrsBlock> nine(2);
  std::vector<TrsBlock> out9(2);
  EXPECT_TRUE(make_additive_pose(nine, nine, 9, out9));
  EXPECT_FALSE(make_additive_pose(pose, nine, 9, out9));
  EXPECT_FALSE(make_additive_pose(nine, reference, 9, out9));
  EXPECT_FALSE(make_additive_pose(nine, nine, 9, out));
  EXPECT_FALSE(make_additive_pose(nine, nine, std::numeric_limits<std::size_t>::max(), out9));
  EXPECT_TRUE(same_bits(pose_joint(out, 1), d));
}

// ---------------------------------------------------------------------------------------------
// Subtree masks

TEST(JointMask, B2_SubtreeMaskMarksTheRootAndEveryJointBelowIt) {
  EXPECT_EQ(subtree_mask(kBody, kSpine), (std::vector<float>{0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(subtree_mask(kBody, 7, 0.5f, 0.25f), (std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.5f, 0.5f, 0.25f, 0.25f}));
  EXPECT_EQ(subtree_mask(kBody, 0), std::vector<float>(kBody.size(), 1.f));
  // Two roots: the second tree is outside the first.
  EXPECT_EQ(subtree_mask(std::vector<int>{-1, 0, -1, 2}, 0), (std::vector<float>{1, 1, 0, 0}));
  EXPECT_THROW(subtree_mask(kBody, 11), std::out_of_range);
  EXPECT_THROW(subtree_mask(kBody, -1), std::out_of_range);
  EXPECT_THROW(subtree_mask(kBody, 1, -1.f), std::invalid_argument);
  EXPECT_THROW(subtree_mask(kBody, 1, 1.f, kNaN), std::invalid_argument);
  EXPECT_THROW(subtree_mask(kBody, 1, kInf), std::invalid_argument);
  EXPECT_THROW(subtree_mask(std::vector<int>{-1, 1}, 0), std::invalid_argument);
  EXPECT_THROW(subtree_mask(std::vector<int>{-1, 2, 0}, 0), std::invalid_argument);
}

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
    const glm::quat q = about(angle * (u(rng) - 0.5f) * 2.f, glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 0.1f))) * centre[j];
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
        t.rotation = about(40.f * (u(rng) - 0.5f), glm::normalize(glm::vec3(u(rng), u(rng) + 0.1f, u(rng))));
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

::testing::AssertionResult near_trs(const Trs& got, const Trs& want, float tol) {
  const auto close = [tol](float g, float w) { return std::fabs(g - w) <= tol * std::max(1.f, std::fabs(w)); };
  for (int c = 0; c < 3; ++c) {
    if (!close(got.translation[c], want.translation[c]) || !close(got.scale[c], want.scale[c])) {
      return ::testing::AssertionFailure() << "T " << near(got.translation, want.translation, 0.f).message() << " S "
                                           << near(got.scale, want.scale, 0.f).message();
    }
  }
  return near_quat(got.rotation, want.rotation, tol);
}

TEST(BlendingJob, B2_B3_EqualTheFormulasOnRandomLayers) {
  std::mt19937 rng(8);
  std::uniform_int_distribution<std::size_t> joints(1, 37), few(0, 4), many(17, 40);
  for (int trial = 0; trial < 80; ++trial) {
    const std::size_t layer_count = trial % 4 == 3 ? many(rng) : few(rng);
    const std::size_t additive_count = trial % 8 == 5 ? many(rng) : few(rng);
    const RandomBlend b = random_blend(rng, joints(rng), layer_count, additive_count);
    const std::vector<TrsBlock> out = blend(b.joints, b.job_layers, b.rest_pose, b.job_additive, b.threshold);
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
  const std::vector<TrsBlock> a = blend(29, forty, four.rest_pose, {}, four.threshold);
  const std::vector<TrsBlock> b = blend(29, summed, four.rest_pose, {}, four.threshold);
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
    const std::vector<TrsBlock> x = blend(b.joints, unmasked, b.rest_pose, b.job_additive, b.threshold);
    const std::vector<TrsBlock> y = blend(b.joints, masked, b.rest_pose, b.job_additive, b.threshold);
    for (std::size_t j = 0; j < b.joints; ++j) {
      ASSERT_TRUE(same_bits(pose_joint(x, j), pose_joint(y, j))) << "trial " << trial << " joint " << j;
    }
  }
}

TEST(BlendingJob, B2_EverySimdLevelGivesTheSameBlend) {
  std::mt19937 rng(10);
  struct Restore {  // the level in force before, also when an assertion ends the test early
    SimdLevel saved = simd_level();
    ~Restore() { set_simd_level(saved); }
  } restore;
  for (int trial = 0; trial < 12; ++trial) {
    const RandomBlend b = random_blend(rng, 3 + 7 * static_cast<std::size_t>(trial), trial == 5 ? 20 : 3, trial == 7 ? 20 : 2);
    set_simd_level(SimdLevel::Sse2);
    const std::vector<TrsBlock> first = blend(b.joints, b.job_layers, b.rest_pose, b.job_additive, b.threshold);
    for (SimdLevel level : {SimdLevel::Avx2, SimdLevel::Avx512}) {
      if (set_simd_level(level) != level) continue;  // not on this processor
      const std::vector<TrsBlock> out = blend(b.joints, b.job_layers, b.rest_pose, b.job_additive, b.threshold);
      for (std::size_t j = 0; j < b.joints; ++j) {
        ASSERT_TRUE(near_trs(pose_joint(out, j), pose_joint(first, j), 1e-6f)) << to_string(level) << " joint " << j;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// X3: bad input refused, nothing written

TEST(BlendingJob, X3_RefusesBadInputWithoutWriting) {
  const std::size_t n = 11;
  std::vector<TrsBlock> pose(2), rest(2), short_pose(1), buffer(5);
  const std::vector<float> mask(n, 1.f), short_mask(n - 1, 1.f);
  std::vector<float> inf_mask = mask, nan_mask = mask, negative_mask = mask;
  inf_mask[10] = kInf, nan_mask[3] = kNaN, negative_mask[0] = -0.5f;
  std::vector<TrsBlock> out(2);
  std::memset(out.data(), 0x5a, out.size() * sizeof(TrsBlock));
  std::memset(buffer.data(), 0x5a, buffer.size() * sizeof(TrsBlock));
  const std::vector<TrsBlock> out_before = out, buffer_before = buffer;
  const BlendingLayer good{pose, 1.f};
  std::vector<BlendingLayer> storage;
  storage.reserve(256);  // spans below point into it
  const auto one = [&](BlendingLayer l) { storage.push_back(l); return std::span<const BlendingLayer>(&storage.back(), 1); };
  const auto job = [&] {
    BlendingJob j;
    j.layers = one(good);
    j.rest_pose = rest;
    j.joint_count = n;
    j.output = out;
    return j;
  };
  std::vector<std::pair<BlendingJob, const char*>> cases;
  const auto add = [&](const char* field, auto change) {
    BlendingJob j = job();
    change(j);
    cases.emplace_back(j, field);
  };
  for (const char* field : {"layers", "additive_layers"}) {
    const bool normal = field[0] == 'l';
    const auto set = [&, normal](BlendingJob& j, BlendingLayer l) {
      (normal ? j.layers : j.additive_layers) = one(l);
    };
    for (float w : {kNaN, -1.f, kInf, -kInf}) add(field, [&, w](BlendingJob& j) { set(j, {pose, w}); });
    add(field, [&](BlendingJob& j) { set(j, {short_pose, 1.f}); });
    for (const std::vector<float>* m : {&short_mask, &std::as_const(inf_mask), &std::as_const(nan_mask), &std::as_const(negative_mask)}) {
      add(field, [&, m](BlendingJob& j) { set(j, {pose, 1.f, *m}); });
    }
  }
  for (float t : {0.f, -0.1f, kNaN, kInf}) add("threshold", [t](BlendingJob& j) { j.threshold = t; });
  add("rest_pose", [&](BlendingJob& j) { j.rest_pose = short_pose; });
  add("output", [&](BlendingJob& j) { j.output = std::span<TrsBlock>(out).first(1); });
  add("joint_count", [&](BlendingJob& j) { j.joint_count = std::numeric_limits<std::size_t>::max() - 2; });
  // Overlaps: the output over a layer's pose, an additive pose, the rest pose, partly, a mask.
  const std::span<TrsBlock> whole(buffer);
  add("output", [&](BlendingJob& j) { j.layers = one({whole.subspan(1, 2), 1.f}), j.output = whole.subspan(2, 2); });
  add("output", [&](BlendingJob& j) { j.additive_layers = one({whole.subspan(0, 2), 1.f}), j.output = whole.subspan(1, 2); });
  add("output", [&](BlendingJob& j) { j.rest_pose = whole.subspan(3, 2), j.output = whole.subspan(2, 2); });
  add("output", [&](BlendingJob& j) {
    j.layers = one({pose, 1.f, std::span<const float>(reinterpret_cast<const float*>(&buffer[1]) + 70, n)});
    j.output = whole.subspan(2, 2);
  });
  for (const auto& [j, field] : cases) {
    EXPECT_STREQ(j.validate().field, field);
    EXPECT_FALSE(j.run()) << field;
    EXPECT_EQ(std::memcmp(out.data(), out_before.data(), out.size() * sizeof(TrsBlock)), 0) << field;
    EXPECT_EQ(std::memcmp(buffer.data(), buffer_before.data(), buffer.size() * sizeof(TrsBlock)), 0) << field;
  }
  EXPECT_EQ(cases[0].first.validate().message("BlendingJob"), "BlendingJob: layers has a weight that is negative or not finite");
  EXPECT_EQ(cases[5].first.validate().message("BlendingJob"), "BlendingJob: layers has a mask whose size is not joint_count");
  // What is fine: adjacent buffers, weight 0, an empty mask, no layers, no joints at all.
  EXPECT_TRUE(job().validate());
  BlendingJob adjacent = job();
  adjacent.layers = one({whole.subspan(0, 2), 0.f});
  adjacent.rest_pose = whole.subspan(3, 2);
  adjacent.output = whole.subspan(2, 1);
  adjacent.joint_count = 8;
  EXPECT_TRUE(adjacent.validate()) << adjacent.validate().message("BlendingJob");
  EXPECT_TRUE((BlendingJob{{}, {}, {}, 0, 0.1f, {}}.run()));
}

}  // namespace
}  // namespace marrow
