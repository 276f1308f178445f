// Two-bone IK (K1) on a leg, posed as a game does it: compose the pose with LocalToModelJob,
// solve, apply the corrections with rotate_joint, recompose the subtree from the start joint.
// Every check is on the recomposed model matrices. Aim IK (K2): aim_ik_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/runtime/two_bone_ik_job.hpp"
#include "ik_rig.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::across;
using test::angle_between;
using test::finite_unit;
using test::IkRig;
using test::kIdentity;
using test::near;
using test::rotation_angle;
using test::same_bytes;

// ---------------------------------------------------------------------------------------------
// K1: a leg. Pelvis at (0, 2, 0); the hip 0.3 to its right, turned 0.25 rad about Z; a thigh
// of a = 1 down to the knee, bent 0.4 rad about X so that the shin (b = 0.8) runs backwards;
// a toe on the foot; the other hip on the pelvis, listed after the chain so that recomposing
// from the hip writes it again.
constexpr std::size_t kPelvis = 0, kHip = 1, kKnee = 2, kFoot = 3, kToe = 4, kOtherHip = 5;
constexpr float kA = 1.f, kB = 0.8f, kChain = kA + kB;
constexpr float kReach = 1e-5f * kChain;

IkRig leg(const Trs& pelvis = Trs{{0.f, 2.f, 0.f}, kIdentity, glm::vec3(1.f)}, float knee_bend = 0.4f) {
  IkRig rig({-1, 0, 1, 2, 3, 0});
  set_pose_joint(rig.pose, kPelvis, pelvis);
  rig.set(kHip, {0.3f, 0.f, 0.f}, glm::angleAxis(0.25f, glm::vec3(0, 0, 1)));
  rig.set(kKnee, {0.f, -kA, 0.f}, glm::angleAxis(knee_bend, glm::vec3(1, 0, 0)));
  rig.set(kFoot, {0.f, -kB, 0.f});
  rig.set(kToe, {0.f, 0.f, 0.2f});
  rig.set(kOtherHip, {-0.3f, 0.f, 0.f});
  rig.compose();
  return rig;
}

struct Solved {
  glm::quat start{0.f, 0.f, 0.f, 0.f}, mid{0.f, 0.f, 0.f, 0.f};
  bool reached = false;
};

Solved two_bone(IkRig& rig, const glm::vec3& target, const glm::vec3* pole = nullptr, float weight = 1.f,
                float soften = 1.f) {
  Solved out;
  const TwoBoneIkJob job{.start = &rig.models[kHip], .mid = &rig.models[kKnee], .end = &rig.models[kFoot],
                         .target = target, .pole = pole, .weight = weight, .soften = soften,
                         .start_correction = &out.start, .mid_correction = &out.mid, .reached = &out.reached};
  EXPECT_TRUE(job.run());
  rotate_joint(rig.pose, kHip, out.start);
  rotate_joint(rig.pose, kKnee, out.mid);
  rig.compose(kHip);
  return out;
}

::testing::AssertionResult lengths_kept(const IkRig& rig, float a = kA, float b = kB, float tol = kReach) {
  const float got_a = glm::length(rig.at(kKnee) - rig.at(kHip)), got_b = glm::length(rig.at(kFoot) - rig.at(kKnee));
  if (std::fabs(got_a - a) <= tol && std::fabs(got_b - b) <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "bone lengths " << got_a << ", " << got_b << " (were " << a << ", " << b << ")";
}

TEST(TwoBoneIkJob, K1_AReachableTargetIsReachedWithBoneLengthsKept) {
  const glm::vec3 hip = leg().at(kHip);  // (0.3, 2, 0)
  std::vector<glm::vec3> targets = {{0.3f, 0.8f, 0.f},  {0.8f, 1.0f, -0.2f}, {0.3f, 2.5f, 0.1f},
                                    {-0.5f, 1.5f, 0.9f}, {1.8f, 2.3f, 0.4f}, {0.3f, 2.f, -0.25f}};
  std::mt19937 rng(21);
  std::normal_distribution<float> g(0.f, 1.f);
  std::uniform_real_distribution<float> r(0.25f, 1.75f);  // inside [|a - b|, a + b] = [0.2, 1.8]
  for (int i = 0; i < 40; ++i) targets.push_back(hip + r(rng) * glm::normalize(glm::vec3(g(rng), g(rng), g(rng))));
  const glm::vec3 pole = hip + glm::vec3(0.f, 0.f, 2.f);
  for (const glm::vec3& target : targets) {
    for (const glm::vec3* p : {static_cast<const glm::vec3*>(nullptr), &pole}) {
      IkRig rig = leg();
      const Solved s = two_bone(rig, target, p);
      EXPECT_LE(glm::length(rig.at(kFoot) - target), kReach) << "target " << target.x << ", " << target.y << ", " << target.z;
      EXPECT_TRUE(s.reached);
      EXPECT_TRUE(lengths_kept(rig));
    }
  }
}

TEST(TwoBoneIkJob, K1_TheChainBendsInThePlaneOfStartTargetAndPoleOnThePolesSide) {
  // Straight below the hip at 1.2 with the pole in front: the knee goes 0.75 down and
  // sqrt(1 - 0.75^2) = 0.6614 forward (law of cosines: x = (a^2 - b^2 + d^2) / 2d).
  {
    IkRig rig = leg();
    const glm::vec3 hip = rig.at(kHip), pole = hip + glm::vec3(0.f, -0.5f, 3.f);
    two_bone(rig, hip - glm::vec3(0.f, 1.2f, 0.f), &pole);
    EXPECT_TRUE(near(rig.at(kKnee), hip + glm::vec3(0.f, -0.75f, 0.6614378f), kReach));
  }
  const glm::vec3 hip = leg().at(kHip);
  const glm::vec3 target = hip + glm::vec3(0.1f, -1.1f, 0.3f);
  for (const glm::vec3 offset : {glm::vec3(0, 0, 2), glm::vec3(0, 0, -2), glm::vec3(2, -1, 0), glm::vec3(-1, 1, -1)}) {
    IkRig rig = leg();
    const glm::vec3 pole = hip + offset;
    two_bone(rig, target, &pole);
    const glm::vec3 u = glm::normalize(target - hip);
    const glm::vec3 normal = glm::normalize(glm::cross(u, pole - hip));
    const glm::vec3 knee = rig.at(kKnee) - hip;
    EXPECT_LE(std::fabs(glm::dot(knee, normal)), kReach) << "pole offset " << offset.x << ", " << offset.y << ", " << offset.z;
    EXPECT_GT(glm::dot(knee, glm::normalize(across(pole - hip, u))), 0.5f);  // h = 0.686 on the pole's side
    EXPECT_LE(glm::length(rig.at(kFoot) - target), kReach);
  }
}

TEST(TwoBoneIkJob, K1_WithoutAPoleTheChainKeepsItsCurrentBendPlane) {
  for (const glm::vec3 to_target : {glm::vec3(0.4f, -1.f, -0.4f), glm::vec3(-0.6f, -0.3f, 0.5f), glm::vec3(0.f, -1.5f, 0.3f)}) {
    IkRig rig = leg();
    const glm::vec3 hip = rig.at(kHip), knee_before = rig.at(kKnee) - hip, target = hip + to_target;
    const glm::vec3 u = glm::normalize(to_target);
    two_bone(rig, target);
    const glm::vec3 knee = rig.at(kKnee) - hip;
    EXPECT_LE(std::fabs(glm::dot(knee, glm::normalize(glm::cross(u, knee_before)))), kReach);
    EXPECT_GT(glm::dot(knee, glm::normalize(across(knee_before, u))), 0.f);  // on the knee's side
    EXPECT_LE(glm::length(rig.at(kFoot) - target), kReach);
  }
}

TEST(TwoBoneIkJob, K1_AnUnreachableTargetStraightensTheChainTowardsIt) {
  for (const glm::vec3 to_target : {glm::vec3(2.f, -2.f, 1.f), glm::vec3(0.f, 1.81f, 0.f), glm::vec3(-30.f, 4.f, 7.f)}) {
    IkRig rig = leg();
    const glm::vec3 hip = rig.at(kHip);
    const Solved s = two_bone(rig, hip + to_target);
    const glm::vec3 foot = rig.at(kFoot) - hip;
    EXPECT_NEAR(glm::length(foot), kChain, kReach);
    EXPECT_LT(angle_between(foot, to_target), 1e-5f);
    EXPECT_NEAR(glm::length(rig.at(kKnee) - hip) + glm::length(rig.at(kFoot) - rig.at(kKnee)), glm::length(foot), kReach);
    EXPECT_TRUE(lengths_kept(rig));
    EXPECT_FALSE(s.reached);
  }
}

TEST(TwoBoneIkJob, K1_ANearHalfTurnIsReachedAsPreciselyAsAnyOtherTarget) {
  // The pole and target put the thigh within `miss` of the opposite of its direction now, with
  // the knee bent (reach 1.2): the hip's correction is a near half turn, the arc a float solve
  // loses about 1.6e-7 / miss on (1.6e-4 of the chain at a miss of 1e-3: why the job solves in
  // double). Each is reached to 1e-5 of the chain.
  const float d = 1.2f, x = (kA * kA - kB * kB + d * d) / (2.f * d), h = std::sqrt(kA * kA - x * x);
  for (const float miss : {0.3f, 0.1f, 1e-2f, 1e-3f, 3e-4f, 1e-4f}) {
    IkRig rig = leg();
    const glm::vec3 hip = rig.at(kHip), thigh = glm::normalize(rig.at(kKnee) - hip);
    const glm::vec3 side = glm::normalize(glm::cross(thigh, glm::vec3(0.f, 0.f, 1.f)));
    const glm::vec3 wanted = -std::cos(miss) * thigh + std::sin(miss) * side;  // the thigh's new direction
    const glm::vec3 across_thigh = glm::normalize(glm::cross(wanted, glm::vec3(0.f, 0.f, 1.f)));
    const glm::vec3 u = (x * wanted + h * across_thigh) / kA;  // to the target: the thigh at x along it
    const glm::vec3 k = glm::normalize(wanted - glm::dot(wanted, u) * u);
    const glm::vec3 target = hip + d * u, pole = hip + 2.f * k;
    const Solved s = two_bone(rig, target, &pole);
    EXPECT_TRUE(s.reached) << "miss " << miss;
    EXPECT_TRUE(near(rig.at(kFoot), target, kReach)) << "miss " << miss << ": " << glm::length(rig.at(kFoot) - target);
    EXPECT_LT(angle_between(rig.at(kKnee) - hip, wanted), 1e-4f) << "miss " << miss;
    EXPECT_TRUE(lengths_kept(rig));
  }
}

// `reached` says whether the end, with the corrections as written, lands within 1e-5 of the
// chain of the target: checked on the recomposed leg for targets just inside and beyond full
// extension and the fold (gaps around the tolerance), at weight 1 and below, alone and paired.
// Misses within 2e-6 of the chain of the tolerance are the float compose's to decide, not
// checked.
TEST(TwoBoneIkJob, K1_ReachedIsWhetherTheWrittenCorrectionsLandTheEndOnTheTarget) {
  std::mt19937 rng(5);
  std::normal_distribution<float> g(0.f, 1.f);
  std::uniform_real_distribution<float> gap(-3e-5f, 3e-5f), unit(0.f, 1.f);
  int checked[2] = {0, 0};
  for (int i = 0; i < 4000; ++i) {
    IkRig rig = leg();
    const glm::vec3 hip = rig.at(kHip), dir = glm::normalize(glm::vec3(g(rng), g(rng), g(rng)));
    // Beyond full extension (a + b) or short of the fold (a - b), by a gap of either sign.
    const float edge = i % 2 == 0 ? kChain : kA - kB;
    const float distance = edge + (i % 2 == 0 ? 1.f : -1.f) * gap(rng) * kChain;
    const glm::vec3 target = hip + distance * dir;
    const float weight = i % 4 < 2 ? 1.f : 1.f - 0.01f * unit(rng);
    const Solved s = two_bone(rig, target, nullptr, weight);
    const float miss = glm::length(rig.at(kFoot) - target);
    if (std::fabs(miss - kReach) > 2e-6f * kChain) {
      EXPECT_EQ(miss <= kReach, s.reached) << "distance " << distance << " weight " << weight << " miss " << miss / kChain;
      ++checked[miss <= kReach];
    }
    // Paired with another chain, the same answer (run_all).
    IkRig other = leg();
    const glm::vec3 far_target = other.at(kHip) + glm::vec3(0.f, -2.5f, 0.f);
    bool reached[2] = {false, true}, ran[2] = {};
    glm::quat q[4];
    IkRig again = leg();
    const std::array<TwoBoneIkJob, 2> jobs{
        TwoBoneIkJob{.start = &again.models[kHip], .mid = &again.models[kKnee], .end = &again.models[kFoot], .target = target,
                     .weight = weight, .start_correction = &q[0], .mid_correction = &q[1], .reached = &reached[0]},
        TwoBoneIkJob{.start = &other.models[kHip], .mid = &other.models[kKnee], .end = &other.models[kFoot], .target = far_target,
                     .start_correction = &q[2], .mid_correction = &q[3], .reached = &reached[1]}};
    ASSERT_TRUE(TwoBoneIkJob::run_all(jobs, ran));
    EXPECT_EQ(s.reached, reached[0]);
    EXPECT_FALSE(reached[1]);  // 2.5 below a hip whose leg reaches 1.8
  }
  EXPECT_GT(checked[0], 500);
  EXPECT_GT(checked[1], 500);
}

TEST(TwoBoneIkJob, K1_ATargetCloserThanTheBoneDifferenceFoldsTheChainTowardsIt) {
  // |a - b| = 0.2: the foot stops 0.2 from the hip on the way to the target, the knee folded
  // beyond it at 1.
  IkRig rig = leg();
  const glm::vec3 hip = rig.at(kHip), to_target(0.05f, -0.02f, 0.05f);
  const Solved s = two_bone(rig, hip + to_target);
  const glm::vec3 u = glm::normalize(to_target);
  EXPECT_TRUE(near(rig.at(kFoot), hip + 0.2f * u, kReach));
  EXPECT_TRUE(near(rig.at(kKnee), hip + kA * u, kReach));
  EXPECT_TRUE(lengths_kept(rig));
  EXPECT_FALSE(s.reached);
}

TEST(TwoBoneIkJob, K1_WeightZeroChangesNothing) {
  IkRig rig = leg();
  const IkRig before = rig;
  const Solved s = two_bone(rig, rig.at(kHip) + glm::vec3(0.5f, -0.9f, 0.4f), nullptr, 0.f);
  EXPECT_EQ(s.start, kIdentity);
  EXPECT_EQ(s.mid, kIdentity);
  EXPECT_FALSE(s.reached);
  EXPECT_TRUE(same_bytes(rig.pose.data(), before.pose.data(), rig.pose.size() * sizeof(TrsBlock)));
  EXPECT_TRUE(same_bytes(rig.models.data(), before.models.data(), rig.models.size() * sizeof(glm::mat4)));
}

TEST(TwoBoneIkJob, K1_WeightHalfTurnsEachJointHalfway) {
  const glm::vec3 target = leg().at(kHip) + glm::vec3(0.6f, -0.7f, 0.5f);
  IkRig full = leg(), half = leg();
  const float before = glm::length(full.at(kFoot) - target);
  const Solved f = two_bone(full, target);
  const Solved h = two_bone(half, target, nullptr, 0.5f);
  for (const auto& [full_q, half_q] : {std::pair{f.start, h.start}, std::pair{f.mid, h.mid}}) {
    ASSERT_GT(rotation_angle(full_q), 0.05f);
    EXPECT_NEAR(rotation_angle(half_q), 0.5f * rotation_angle(full_q), 1e-5f);
    const glm::vec3 axis_full(full_q.x, full_q.y, full_q.z), axis_half(half_q.x, half_q.y, half_q.z);
    EXPECT_GT(glm::dot(axis_full, axis_half) * full_q.w * half_q.w, 0.f);  // same sense
    EXPECT_LT(angle_between(axis_full * full_q.w, axis_half * half_q.w), 1e-4f);
  }
  const float halfway = glm::length(half.at(kFoot) - target);
  EXPECT_LT(halfway, before - 0.1f);
  EXPECT_GT(halfway, 0.05f);
  EXPECT_FALSE(h.reached);
  EXPECT_TRUE(f.reached);
  EXPECT_TRUE(lengths_kept(half));
}

TEST(TwoBoneIkJob, K1_JointsOutsideTheStartsSubtreeNeverMove) {
  IkRig rig = leg();
  const IkRig before = rig;
  const glm::vec3 pole(0.f, 1.f, 4.f);
  two_bone(rig, rig.at(kHip) + glm::vec3(0.3f, -0.6f, 0.6f), &pole);
  EXPECT_TRUE(same_bytes(&rig.models[kPelvis], &before.models[kPelvis], sizeof(glm::mat4)));
  EXPECT_TRUE(same_bytes(&rig.models[kOtherHip], &before.models[kOtherHip], sizeof(glm::mat4)));
  EXPECT_TRUE(same_bytes(&rig.models[kHip][3], &before.models[kHip][3], sizeof(glm::vec4)));  // turned, not moved
  // The toe rides with the foot.
  EXPECT_GT(glm::length(rig.at(kFoot) - before.at(kFoot)), 0.1f);
  EXPECT_TRUE(near(glm::inverse(rig.models[kFoot]) * rig.models[kToe],
                   glm::inverse(before.models[kFoot]) * before.models[kToe], 1e-5f));
}

TEST(TwoBoneIkJob, K1_SoftenNeverSnapsAndReachesExactlyBelowIt) {
  // soften 0.8: targets up to s = 0.8 * 1.8 = 1.44 are reached; beyond, the reach follows
  // 1.8 - 0.36 exp(-(x - 1.44) / 0.36): continuous, increasing, never past 1.8.
  const glm::vec3 hip = leg().at(kHip), dir = glm::normalize(glm::vec3(0.2f, -1.f, 0.3f));
  const float soft_start = 0.8f * kChain, step = 0.002f;
  float previous = 0.f;
  for (float x = 0.3f; x < 3.5f; x += step) {
    IkRig rig = leg();
    const Solved s = two_bone(rig, hip + x * dir, nullptr, 1.f, 0.8f);
    const glm::vec3 foot = rig.at(kFoot) - hip;
    const float r = glm::length(foot);
    ASSERT_LT(angle_between(foot, dir), 1e-5f) << x;
    ASSERT_TRUE(lengths_kept(rig)) << x;
    if (x <= soft_start) {
      ASSERT_NEAR(r, x, kReach) << x;
      ASSERT_TRUE(s.reached) << x;
    } else {
      const float expected = kChain - (kChain - soft_start) * std::exp(-(x - soft_start) / (kChain - soft_start));
      ASSERT_NEAR(r, expected, kReach) << x;
      ASSERT_LE(r, kChain + kReach) << x;
      if (x > soft_start + 0.05f) {
        ASSERT_FALSE(s.reached) << x;
      }
    }
    if (x > 0.3f) {
      ASSERT_GE(r, previous - 1e-6f) << x;                 // monotonic
      ASSERT_LE(r - previous, step + 1e-5f) << x;          // no snap: slope at most 1
    }
    previous = r;
  }
  // Far out the chain approaches full extension without passing it.
  IkRig far = leg();
  two_bone(far, hip + 20.f * dir, nullptr, 1.f, 0.8f);
  EXPECT_NEAR(glm::length(far.at(kFoot) - hip), kChain, kReach);
}

TEST(TwoBoneIkJob, K1_AChainUnderARotatedScaledParentStillReaches) {
  // The pelvis turned and scaled by 2, then also mirrored (a mirror above the chain).
  for (const glm::vec3 scale : {glm::vec3(2.f), glm::vec3(-2.f, 2.f, 2.f)}) {
    const Trs pelvis{{1.f, 0.5f, -2.f}, glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3))), scale};
    const glm::vec3 hip = leg(pelvis).at(kHip);
    std::mt19937 rng(5);
    std::normal_distribution<float> g(0.f, 1.f);
    std::uniform_real_distribution<float> r(0.5f, 3.5f);  // model-space reach [0.4, 3.6]
    for (int i = 0; i < 30; ++i) {
      IkRig rig = leg(pelvis);
      const glm::vec3 target = hip + r(rng) * glm::normalize(glm::vec3(g(rng), g(rng), g(rng)));
      const glm::vec3 pole = hip + glm::vec3(g(rng), g(rng), g(rng));
      const Solved s = two_bone(rig, target, i % 2 == 0 ? &pole : nullptr);
      EXPECT_LE(glm::length(rig.at(kFoot) - target), 2.f * kReach) << i << " scale x " << scale.x;
      EXPECT_TRUE(s.reached) << i << " scale x " << scale.x;
      EXPECT_TRUE(lengths_kept(rig, 2.f * kA, 2.f * kB, 2.f * kReach)) << i << " scale x " << scale.x;
    }
  }
}

TEST(TwoBoneIkJob, K1_AStraightChainOnTheTargetLineBendsTowardsStartsLocalZ) {
  // Knee unbent: hip, knee and foot on one line, the target on it 1.2 from the hip, no pole.
  // The knee goes 0.75 along the line and 0.6614 towards the hip's +Z made perpendicular.
  IkRig rig = leg(Trs{{0.f, 2.f, 0.f}, kIdentity, glm::vec3(1.f)}, 0.f);
  const glm::vec3 hip = rig.at(kHip), u = glm::normalize(rig.at(kFoot) - hip);
  const glm::vec3 side = glm::normalize(across(rig.axis(kHip, {0, 0, 1}), u));
  const Solved s = two_bone(rig, hip + 1.2f * u);
  EXPECT_TRUE(near(rig.at(kKnee), hip + 0.75f * u + 0.6614378f * side, kReach));
  EXPECT_TRUE(s.reached);
}

TEST(TwoBoneIkJob, K1_AMidJointOnTheTargetLineKeepsTheSenseOfItsBend) {
  // The target on the thigh's line: S, M, T define no plane. The shin bends backwards about
  // the knee's hinge; after the solve it still does (the knee moves forward, +Z).
  IkRig rig = leg();
  const glm::vec3 hip = rig.at(kHip), thigh = glm::normalize(rig.at(kKnee) - hip);
  const glm::vec3 hinge = glm::cross(rig.at(kKnee) - hip, rig.at(kFoot) - rig.at(kKnee));
  const Solved s = two_bone(rig, hip + 1.3f * thigh);
  EXPECT_TRUE(s.reached);
  EXPECT_GT(glm::dot(glm::cross(rig.at(kKnee) - hip, rig.at(kFoot) - rig.at(kKnee)), hinge), 0.f);
  EXPECT_GT(glm::dot(across(rig.at(kKnee) - hip, thigh), glm::vec3(0, 0, 1)), 0.5f);
}

TEST(TwoBoneIkJob, K1_HugeAndTinyChainsAreSolvedLikeAnyOther) {
  // Any finite input is valid: chains far beyond float's squares (past about 1e19 they overflow,
  // below about 1e-19 they lose their precision) are reached and finite, the solve being in double.
  for (const float scale : {1e-30f, 1e-20f, 1e-12f, 1.f, 1e11f, 1e13f, 1e20f, 1e30f}) {
    // Joints at scale * (position), their axes scaled alike.
    const auto joint = [&](const glm::vec3& at) { return glm::scale(glm::translate(glm::mat4(1.f), scale * at), glm::vec3(scale)); };
    const glm::mat4 start = joint(glm::vec3(0.f)), mid = joint({0.f, -kA, 0.f}),
                    end = joint({0.f, -kA - kB * std::cos(0.4f), kB * std::sin(0.4f)});
    const glm::vec3 target = scale * glm::vec3(0.5f, -1.f, 0.4f);
    glm::quat start_q, mid_q;
    bool reached = false;
    ASSERT_TRUE((TwoBoneIkJob{.start = &start, .mid = &mid, .end = &end, .target = target, .start_correction = &start_q,
                              .mid_correction = &mid_q, .reached = &reached}
                     .run()))
        << scale;
    EXPECT_TRUE(finite_unit(start_q) && finite_unit(mid_q)) << scale;
    EXPECT_TRUE(reached) << scale;
  }
}

TEST(TwoBoneIkJob, K1_DegenerateInputsGiveFiniteResults) {
  enum class Pole { None, OnTheLine, OnTheStart };
  struct Case {
    const char* name;
    float a, b;             // bone lengths
    float bend;             // knee
    glm::vec3 to_target;    // from the hip
    Pole pole;
  };
  const glm::vec3 somewhere(0.3f, -0.5f, 0.2f), on_start(0.f);
  const Case cases[] = {{"zero thigh", 0.f, kB, 0.4f, somewhere, Pole::None},
                        {"zero shin", kA, 0.f, 0.4f, somewhere, Pole::None},
                        {"zero chain", 0.f, 0.f, 0.4f, somewhere, Pole::None},
                        {"target on the start", kA, kB, 0.4f, on_start, Pole::None},
                        {"target on the start, equal bones", kA, kA, 0.4f, on_start, Pole::None},
                        {"target on the start, straight equal bones", kA, kA, 0.f, on_start, Pole::None},
                        {"pole on the line", kA, kB, 0.4f, somewhere, Pole::OnTheLine},
                        {"pole on the start", kA, kB, 0.4f, somewhere, Pole::OnTheStart},
                        {"folded chain", kA, kA, 3.14159265f, somewhere, Pole::None}};
  for (const Case& c : cases) {
    IkRig rig = leg(Trs{{0.f, 2.f, 0.f}, kIdentity, glm::vec3(1.f)}, c.bend);
    rig.set(kKnee, {0.f, -c.a, 0.f}, glm::angleAxis(c.bend, glm::vec3(1, 0, 0)));
    rig.set(kFoot, {0.f, -c.b, 0.f});
    rig.compose();
    const glm::vec3 hip = rig.at(kHip), target = hip + c.to_target;
    const glm::vec3 pole = c.pole == Pole::OnTheStart ? hip : hip + 3.f * c.to_target;
    const Solved s = two_bone(rig, target, c.pole != Pole::None ? &pole : nullptr);
    EXPECT_TRUE(finite_unit(s.start) && finite_unit(s.mid)) << c.name;
    for (const glm::mat4& m : rig.models) EXPECT_TRUE(is_finite(m)) << c.name;
    EXPECT_TRUE(lengths_kept(rig, c.a, c.b)) << c.name;
    const float reach = glm::length(rig.at(kFoot) - hip);
    EXPECT_GE(reach, std::fabs(c.a - c.b) - kReach) << c.name;
    EXPECT_LE(reach, c.a + c.b + kReach) << c.name;
    if (c.a + c.b == 0.f) {
      EXPECT_TRUE(s.start == kIdentity && s.mid == kIdentity) << c.name;
    }
  }
  // A zero-length bone leaves the other one aiming at the target.
  IkRig rig = leg();
  rig.set(kKnee, {0.f, 0.f, 0.f});
  rig.compose();
  const glm::vec3 hip = rig.at(kHip), to_target(0.3f, -0.5f, 0.2f);
  two_bone(rig, hip + to_target);
  EXPECT_TRUE(near(rig.at(kFoot), hip + kB * glm::normalize(to_target), kReach));
  // A knee scaled to zero across (its model matrix loses a column) still bends the leg.
  IkRig flat = leg();
  flat.set(kKnee, {0.f, -kA, 0.f}, glm::angleAxis(0.4f, glm::vec3(1, 0, 0)), {0.f, 1.f, 1.f});
  flat.compose();
  const Solved f = two_bone(flat, hip + to_target);
  EXPECT_TRUE(f.reached);
  EXPECT_LE(glm::length(flat.at(kFoot) - (hip + to_target)), kReach);
  // A pole on the line S-T is no pole.
  IkRig with_pole = leg(), without = leg();
  const glm::vec3 pole = hip + 2.f * to_target;
  two_bone(with_pole, hip + to_target, &pole);
  two_bone(without, hip + to_target);
  EXPECT_TRUE(near(with_pole.at(kKnee), without.at(kKnee), 1e-6f));
}

TEST(RotateJoint, K1_MultipliesOneJointsLocalRotationOnTheRight) {
  std::mt19937 rng(2);
  std::normal_distribution<float> g(0.f, 1.f);
  std::vector<TrsBlock> pose(2);
  for (std::size_t j = 0; j < 16; ++j) {
    set_pose_joint(pose, j, Trs{{g(rng), g(rng), g(rng)}, glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng))),
                                {g(rng), g(rng), g(rng)}});
  }
  const std::vector<TrsBlock> before = pose;
  const glm::quat c = glm::normalize(glm::quat(0.9f, 0.1f, -0.3f, 0.2f));
  rotate_joint(pose, 11, c);  // block 1, lane 3
  const Trs was = pose_joint(before, 11), now = pose_joint(pose, 11);
  const glm::quat expected = glm::normalize(was.rotation * c);
  EXPECT_TRUE(near(glm::vec3(now.rotation.x, now.rotation.y, now.rotation.z), glm::vec3(expected.x, expected.y, expected.z), 1e-6f));
  EXPECT_NEAR(now.rotation.w, expected.w, 1e-6f);
  EXPECT_EQ(now.translation, was.translation);
  EXPECT_EQ(now.scale, was.scale);
  // The local matrix gains the correction on the right of its rotation: T * R * C * S.
  EXPECT_TRUE(near(compose_trs(now), compose_trs(was.translation, was.rotation * c, was.scale), 1e-5f));
  for (std::size_t j = 0; j < 16; ++j) {
    if (j == 11) continue;
    const Trs a = pose_joint(pose, j), b = pose_joint(before, j);
    EXPECT_TRUE(same_bytes(&a, &b, sizeof(Trs))) << j;
  }
  // The exact identity leaves the joint bit for bit.
  const std::vector<TrsBlock> turned = pose;
  rotate_joint(pose, 11, kIdentity);
  EXPECT_TRUE(same_bytes(pose.data(), turned.data(), 2 * sizeof(TrsBlock)));
}

// ---------------------------------------------------------------------------------------------
// X3: every bad field refused by validate(), named, and nothing written.

TEST(TwoBoneIkJob, X3_RefusesEachBadFieldWithoutWriting) {
  const IkRig rig = leg();
  const glm::mat4 nan_matrix(NAN), inf_matrix(INFINITY);
  const glm::vec3 pole(0.f, 1.f, 3.f), nan_pole(NAN, 0.f, 0.f);
  const glm::quat sentinel(7.f, 7.f, 7.f, 7.f);
  glm::quat start_q = sentinel, mid_q = sentinel;
  bool reached = true;
  auto job = [&] {
    return TwoBoneIkJob{.start = &rig.models[kHip], .mid = &rig.models[kKnee], .end = &rig.models[kFoot],
                        .target = {0.5f, 1.f, 0.3f}, .pole = &pole, .weight = 1.f, .soften = 1.f,
                        .start_correction = &start_q, .mid_correction = &mid_q, .reached = &reached};
  };
  std::vector<std::pair<TwoBoneIkJob, const char*>> cases;
  cases.emplace_back(job(), "start"), cases.back().first.start = nullptr;
  cases.emplace_back(job(), "mid"), cases.back().first.mid = nullptr;
  cases.emplace_back(job(), "end"), cases.back().first.end = nullptr;
  cases.emplace_back(job(), "start_correction"), cases.back().first.start_correction = nullptr;
  cases.emplace_back(job(), "mid_correction"), cases.back().first.mid_correction = nullptr;
  cases.emplace_back(job(), "mid_correction"), cases.back().first.mid_correction = &start_q;
  cases.emplace_back(job(), "start"), cases.back().first.start = &nan_matrix;
  cases.emplace_back(job(), "mid"), cases.back().first.mid = &inf_matrix;
  cases.emplace_back(job(), "end"), cases.back().first.end = &nan_matrix;
  cases.emplace_back(job(), "target"), cases.back().first.target.y = NAN;
  cases.emplace_back(job(), "target"), cases.back().first.target.z = -INFINITY;
  cases.emplace_back(job(), "pole"), cases.back().first.pole = &nan_pole;
  cases.emplace_back(job(), "weight"), cases.back().first.weight = -0.01f;
  cases.emplace_back(job(), "weight"), cases.back().first.weight = 1.01f;
  cases.emplace_back(job(), "weight"), cases.back().first.weight = NAN;
  cases.emplace_back(job(), "soften"), cases.back().first.soften = 0.f;
  cases.emplace_back(job(), "soften"), cases.back().first.soften = 1.5f;
  cases.emplace_back(job(), "soften"), cases.back().first.soften = NAN;
  for (const auto& [j, field] : cases) {
    EXPECT_STREQ(j.validate().field, field);
    EXPECT_FALSE(j.run());
    EXPECT_TRUE(same_bytes(&start_q, &sentinel, sizeof(glm::quat)) && same_bytes(&mid_q, &sentinel, sizeof(glm::quat)) &&
                reached)
        << field;
  }
  EXPECT_EQ(cases[12].first.validate().message("TwoBoneIkJob"), "TwoBoneIkJob: weight is outside [0, 1]");
  // The untouched job is valid; without the optional pole and reached too.
  EXPECT_TRUE(job().run());
  TwoBoneIkJob bare = job();
  bare.pole = nullptr;
  bare.reached = nullptr;
  EXPECT_TRUE(bare.run());
}

// K1 in batches (TwoBoneIkJob::run_all, two chains in the lanes of one solve): every job gives
// its own run()'s bits, whatever it is paired with: usual chains, the general solve's special
// cases (a target on the start joint, a straight chain on the target line, a near half turn), a
// refused job between them, an odd count.
TEST(TwoBoneIkJob, K1_RunAllGivesEachJobItsOwnRunsBitsWhateverItIsPairedWith) {
  IkRig bent = leg(), straight = leg(Trs{{0.f, 2.f, 0.f}, kIdentity, glm::vec3(1.f)}, 0.f);
  const glm::vec3 pole(0.3f, 1.f, 3.f);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-2.f, 2.f), w(0.f, 1.f);
  constexpr std::size_t kJobs = 11;
  std::array<Solved, kJobs> alone, batched;
  std::vector<TwoBoneIkJob> jobs;
  for (std::size_t i = 0; i < kJobs; ++i) {
    IkRig& rig = i == 3 ? straight : bent;
    const glm::vec3 hip = rig.at(kHip);
    glm::vec3 target = hip + glm::vec3(u(rng), u(rng), u(rng));
    if (i == 2) target = hip;  // on the start joint
    if (i == 3) target = hip + 0.5f * (rig.at(kFoot) - hip);  // a straight chain on the line
    if (i == 5) target = hip + 1.7f * glm::normalize(hip - rig.at(kFoot));  // a near half turn
    jobs.push_back(TwoBoneIkJob{.start = &rig.models[kHip], .mid = &rig.models[kKnee], .end = &rig.models[kFoot],
                                .target = target, .pole = i % 3 == 1 ? &pole : nullptr, .weight = i % 2 == 0 ? 1.f : w(rng),
                                .soften = i % 4 == 0 ? 0.9f : 1.f, .start_correction = &alone[i].start,
                                .mid_correction = &alone[i].mid, .reached = &alone[i].reached});
  }
  jobs[7].mid_correction = nullptr;  // refused
  std::array<bool, kJobs> ran_alone{};
  for (std::size_t i = 0; i < kJobs; ++i) ran_alone[i] = jobs[i].run();
  for (std::size_t i = 0; i < kJobs; ++i) {
    jobs[i].start_correction = &batched[i].start;
    if (i != 7) jobs[i].mid_correction = &batched[i].mid;
    jobs[i].reached = &batched[i].reached;
  }
  std::array<bool, kJobs> ran{};
  ASSERT_TRUE(TwoBoneIkJob::run_all(jobs, ran));
  for (std::size_t i = 0; i < kJobs; ++i) {
    EXPECT_EQ(ran[i], ran_alone[i]) << i;
    EXPECT_TRUE(same_bytes(&batched[i].start, &alone[i].start, sizeof(glm::quat)) &&
                same_bytes(&batched[i].mid, &alone[i].mid, sizeof(glm::quat)) && batched[i].reached == alone[i].reached)
        << "job " << i;
  }
  EXPECT_FALSE(ran[7]);
  // Sizes that differ: nothing solved, nothing written.
  for (Solved& b : batched) b = Solved{};
  std::array<bool, kJobs - 1> short_ran{};
  EXPECT_FALSE(TwoBoneIkJob::run_all(jobs, short_ran));
  for (const Solved& b : batched) EXPECT_TRUE(b.start == glm::quat(0.f, 0.f, 0.f, 0.f) && !b.reached);
}

}  // namespace
}  // namespace marrow
