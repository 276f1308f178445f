// Blending (B1-B3): the blending job against hand-computed poses, subtree masks, and the job
// refusing bad input without writing (X3). Against the header's formulas in double precision:
// blending_formula_test.cpp; additive clips and poses: additive_clip_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
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
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/joint_mask.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "pose_blend_util.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;
using test::blend_poses;
using test::kInf;
using test::kNaN;
using test::near_quat;
using test::random_trs;
using test::same_trs_bits;
using test::to_pose;
using test::turn;


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
      const std::vector<TrsBlock> out = blend_poses(joints, {{pose, weight}}, rest);
      for (std::size_t j = 0; j < joints; ++j) {
        const Trs got = pose_joint(out, j);
        EXPECT_TRUE(same_trs_bits(got, values[j])) << "joint " << j << " weight " << weight;
      }
    }
  }
}

TEST(BlendingJob, B2_FiftyFiftyBlendOfTwoKnownPoses) {
  const glm::vec3 y(0, 1, 0);
  const std::vector<TrsBlock> a = to_pose({Trs{{0, 0, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}}, Trs{{1, 1, 1}, turn(-30, y), {1, 1, 1}}});
  const std::vector<TrsBlock> b = to_pose({Trs{{2, 4, -6}, turn(90, y), {3, 1, 2}}, Trs{{3, 1, 1}, turn(30, y), {1, 3, 1}}});
  const std::vector<TrsBlock> rest = to_pose({Trs{}, Trs{}});
  const std::vector<TrsBlock> out = blend_poses(2, {{a, 0.5f}, {b, 0.5f}}, rest);
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
  const std::vector<TrsBlock> big = blend_poses(13, {{a, 2.f}, {b, 2.f}}, rest), half = blend_poses(13, {{a, 0.5f}, {b, 0.5f}}, rest);
  const std::vector<TrsBlock> one_three = blend_poses(13, {{a, 1.f}, {b, 3.f}}, rest);
  for (std::size_t j = 0; j < 13; ++j) {
    EXPECT_TRUE(same_trs_bits(pose_joint(big, j), pose_joint(half, j))) << "joint " << j;
    // 1 : 3 is a quarter of a and three quarters of b.
    EXPECT_TRUE(near(pose_joint(one_three, j).translation, 0.25f * va[j].translation + 0.75f * vb[j].translation, 1e-5f));
    EXPECT_TRUE(near(pose_joint(one_three, j).scale, 0.25f * va[j].scale + 0.75f * vb[j].scale, 1e-5f));
  }
}

TEST(BlendingJob, B2_ALayerWithTheNegatedQuaternionBlendsTheSame) {
  const glm::quat qa = turn(20, glm::normalize(glm::vec3(1, 2, 3))), qb = turn(100, glm::vec3(0, 0, 1));
  const auto pose_of = [](const glm::quat& q) { return to_pose({Trs{{1, 2, 3}, q, {1, 1, 1}}}); };
  const std::vector<TrsBlock> rest = to_pose({Trs{}});
  const Trs ab = pose_joint(blend_poses(1, {{pose_of(qa), 0.3f}, {pose_of(qb), 0.7f}}, rest), 0);
  const Trs a_negb = pose_joint(blend_poses(1, {{pose_of(qa), 0.3f}, {pose_of(-qb), 0.7f}}, rest), 0);
  const Trs nega_b = pose_joint(blend_poses(1, {{pose_of(-qa), 0.3f}, {pose_of(qb), 0.7f}}, rest), 0);
  EXPECT_TRUE(same_trs_bits(ab, a_negb));
  // The result lies in the first contributing layer's hemisphere: negating it negates the result.
  EXPECT_TRUE(same_trs_bits(Trs{ab.translation, -ab.rotation, ab.scale}, nega_b));
  // Normalised mean of qa and qb (aligned): a hand formula for two rotations.
  const glm::quat expected = glm::normalize(glm::quat(0.3f * qa.w + 0.7f * qb.w, 0.3f * qa.x + 0.7f * qb.x,
                                                      0.3f * qa.y + 0.7f * qb.y, 0.3f * qa.z + 0.7f * qb.z));
  EXPECT_TRUE(near_quat(ab.rotation, expected, 1e-6f));
  // q and -q are one rotation: a 50/50 blend of them is that rotation, not a cancellation.
  const Trs twins = pose_joint(blend_poses(1, {{pose_of(qb), 0.5f}, {pose_of(-qb), 0.5f}}, rest), 0);
  EXPECT_TRUE(near_quat(twins.rotation, qb, 1e-6f));
  // Per joint: where a mask leaves the first layer out, the second layer is the first
  // contributor, and its sign decides the result's.
  const glm::quat qc = turn(-70, glm::vec3(1, 0, 0));
  const auto two = [](const glm::quat& q) { return to_pose({Trs{{}, q, {1, 1, 1}}, Trs{{}, q, {1, 1, 1}}}); };
  const std::vector<TrsBlock> rest2 = to_pose({Trs{}, Trs{}});
  const std::vector<float> first_only = {1.f, 0.f};
  const auto joint = [&](std::size_t j, const glm::quat& a, const glm::quat& b) {
    return pose_joint(blend_poses(2, {{two(a), 1.f, first_only}, {two(b), 1.f}, {two(qc), 1.f}}, rest2), j).rotation;
  };
  const glm::quat base0 = joint(0, qa, qb), base1 = joint(1, qa, qb);
  EXPECT_TRUE(near_quat(joint(0, -qa, qb), -base0, 0.f));
  EXPECT_TRUE(near_quat(joint(0, qa, -qb), base0, 0.f));
  EXPECT_TRUE(near_quat(joint(1, -qa, qb), base1, 0.f));
  EXPECT_TRUE(near_quat(joint(1, qa, -qb), -base1, 0.f));
  EXPECT_TRUE(near_quat(base1, glm::normalize(qb + (glm::dot(qb, qc) < 0 ? -qc : qc)), 1e-6f));
}

TEST(BlendingJob, B2_TheRestPoseJoinsBelowTheThreshold) {
  const glm::quat quarter_z = turn(90, glm::vec3(0, 0, 1));
  const std::vector<TrsBlock> layer = to_pose({Trs{{10, 0, 0}, quarter_z, {2, 2, 2}}});
  const std::vector<TrsBlock> rest = to_pose({Trs{{0, 5, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}}});
  // Weight 0.04 with threshold 0.1: the rest joins at 0.06, so the layer has 0.4 and the rest 0.6.
  const Trs got = pose_joint(blend_poses(1, {{layer, 0.04f}}, rest, {}, 0.1f), 0);
  EXPECT_TRUE(near(got.translation, {4, 3, 0}, 1e-5f));           // 0.4 * 10, 0.6 * 5
  EXPECT_TRUE(near(got.scale, {1.4f, 1.4f, 1.4f}, 1e-6f));         // 0.4 * 2 + 0.6 * 1
  // normalize(0.4 (0, 0, .70710678, .70710678) + 0.6 (0, 0, 0, 1)) = normalize(0, 0, .28284271,
  // .88284271): length .92704437, so (0, 0, .30510159, .95231981), 35.53 degrees about z.
  EXPECT_TRUE(near_quat(got.rotation, glm::quat(0.95231981f, 0, 0, 0.30510159f), 1e-6f));
  // At or above the threshold the rest pose stays out: the lone layer, exactly.
  const Trs at = pose_joint(blend_poses(1, {{layer, 0.1f}}, rest, {}, 0.1f), 0);
  EXPECT_TRUE(same_trs_bits(at, pose_joint(layer, 0)));
  // Two layers of 0.03 each with threshold 0.1: 0.3, 0.3 and the rest 0.4.
  const std::vector<TrsBlock> other = to_pose({Trs{{0, 0, 10}, glm::quat(1, 0, 0, 0), {1, 1, 1}}});
  const Trs two = pose_joint(blend_poses(1, {{layer, 0.03f}, {other, 0.03f}}, rest, {}, 0.1f), 0);
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
      const std::vector<TrsBlock> out = blend_poses(19, layers, rest, {}, threshold);
      for (std::size_t j = 0; j < 19; ++j) EXPECT_TRUE(same_trs_bits(pose_joint(out, j), rv[j])) << "joint " << j;
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
  const std::vector<TrsBlock> mixed = blend_poses(n, {{walk_pose, 1.f}, {wave_pose, 1.f, upper}}, rest);
  for (std::size_t j = 0; j < n; ++j) {
    const Trs got = pose_joint(mixed, j);
    if (!is_upper[j]) {
      EXPECT_TRUE(same_trs_bits(got, walk[j])) << "joint " << j;
    } else {
      EXPECT_TRUE(near(got.translation, 0.5f * (walk[j].translation + wave[j].translation), 1e-5f)) << "joint " << j;
    }
  }
  // With the walk masked to the complement, the upper body is the wave's exactly.
  const std::vector<float> lower = subtree_mask(kBody, kSpine, 0.f, 1.f);
  const std::vector<TrsBlock> split = blend_poses(n, {{walk_pose, 1.f, lower}, {wave_pose, 1.f, upper}}, rest);
  for (std::size_t j = 0; j < n; ++j) {
    EXPECT_TRUE(same_trs_bits(pose_joint(split, j), is_upper[j] ? wave[j] : walk[j])) << "joint " << j;
  }
}

TEST(BlendingJob, B2_APerJointMaskWeightScalesThatJointOnly) {
  const glm::quat id(1, 0, 0, 0);
  const std::vector<TrsBlock> a = to_pose({Trs{{0, 0, 0}, id, {1, 1, 1}}, Trs{{0, 0, 0}, id, {1, 1, 1}}});
  const std::vector<TrsBlock> b = to_pose({Trs{{3, 0, 0}, id, {4, 4, 4}}, Trs{{3, 0, 0}, id, {4, 4, 4}}});
  const std::vector<TrsBlock> rest = to_pose({Trs{}, Trs{}});
  const std::vector<float> mask = {1.f, 0.5f};
  const std::vector<TrsBlock> out = blend_poses(2, {{a, 1.f}, {b, 1.f, mask}}, rest);
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
  const Trs got = pose_joint(blend_poses(1, {{id, 1e-20f}, {px, 1.f}, {nx, 1.f}}, rest), 0);
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
  const std::vector<TrsBlock> out = blend_poses(5, {{pose, 0.3f}, {pose, 0.02f}}, rest, {{pose, 0.5f}});
  for (std::size_t j = 5; j < 8; ++j) EXPECT_TRUE(same_trs_bits(pose_joint(out, j), Trs{})) << "lane " << j;
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
  const std::vector<TrsBlock> out = blend_poses(n, {{pose, 1.f, m}, {pose, 1.f}}, pose, {{pose, 1.f, m}});
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
  const std::vector<TrsBlock> none = blend_poses(10, {{base_pose, 1.f}}, base_pose, {{delta_pose, 0.f}});
  const std::vector<TrsBlock> masked = blend_poses(10, {{base_pose, 1.f}}, base_pose, {{delta_pose, 1.f, mask}});
  for (std::size_t j = 0; j < 10; ++j) {
    EXPECT_TRUE(same_trs_bits(pose_joint(none, j), base[j])) << "joint " << j;
    if (mask[j] == 0.f) {
      EXPECT_TRUE(same_trs_bits(pose_joint(masked, j), base[j])) << "joint " << j;
    }
  }
  EXPECT_FALSE(same_trs_bits(pose_joint(masked, 0), base[0]));
}

TEST(BlendingJob, B3_HalfWeightHandComputed) {
  const glm::quat quarter_x = turn(90, glm::vec3(1, 0, 0)), quarter_z = turn(90, glm::vec3(0, 0, 1));
  const std::vector<TrsBlock> base = to_pose({Trs{{1, 2, 3}, quarter_x, {2, 2, 2}}});
  // The delta rotation given with w < 0 is the same rotation: applied the shorter way.
  for (const glm::quat& dr : {quarter_z, -quarter_z}) {
    const std::vector<TrsBlock> delta = to_pose({Trs{{4, 0, -2}, dr, {3, 1, 0.5f}}});
    const Trs got = pose_joint(blend_poses(1, {{base, 1.f}}, base, {{delta, 0.5f}}), 0);
    EXPECT_TRUE(near(got.translation, {3, 2, 2}, 1e-6f));             // T + dT / 2
    EXPECT_TRUE(near(got.scale, {4, 2, 1.5f}, 1e-6f));                // 2 (1 + (dS - 1) / 2)
    // nlerp(identity, 90 degrees about z, 0.5) is 45 degrees about z (the halfway point of a
    // symmetric arc): R = 90x * 45z = (c45 * c22.5, s45 * c22.5, -s45 * s22.5, c45 * s22.5)
    // in (w, x, y, z), with c45 = s45 = .70710678, c22.5 = .92387953, s22.5 = .38268343.
    EXPECT_TRUE(near_quat(got.rotation, glm::quat(0.65328148f, 0.65328148f, -0.27059805f, 0.27059805f), 1e-6f));
  }
}

TEST(BlendingJob, B3_AdditiveLayersApplyInOrder) {
  const glm::quat qx = turn(90, glm::vec3(1, 0, 0)), qy = turn(90, glm::vec3(0, 1, 0));
  const std::vector<TrsBlock> base = to_pose({Trs{}});
  const std::vector<TrsBlock> dx = to_pose({Trs{{}, qx, {1, 1, 1}}}), dy = to_pose({Trs{{}, qy, {1, 1, 1}}});
  const Trs xy = pose_joint(blend_poses(1, {{base, 1.f}}, base, {{dx, 1.f}, {dy, 1.f}}), 0);
  const Trs yx = pose_joint(blend_poses(1, {{base, 1.f}}, base, {{dy, 1.f}, {dx, 1.f}}), 0);
  EXPECT_TRUE(near_quat(xy.rotation, qx * qy, 1e-6f));
  EXPECT_TRUE(near_quat(yx.rotation, qy * qx, 1e-6f));
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
