// Aim IK (K2) on a head on a neck, posed as a game does it: compose, solve, rotate_joint,
// recompose from the aimed joint; every check is on the recomposed model matrices.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "marrow/runtime/aim_ik_job.hpp"
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
using test::same_rotation;

// ---------------------------------------------------------------------------------------------
// K2: a head on a neck. The neck at (0, 1.5, 0) turned 0.3 rad about Y, the head 0.2 above it
// tilted 0.2 rad about X, a jaw on the head.
constexpr std::size_t kNeckJoint = 0, kHeadJoint = 1, kJawJoint = 2;

IkRig neck(const glm::vec3& scale = glm::vec3(1.f)) {
  IkRig rig({-1, 0, 1});
  rig.set(kNeckJoint, {0.f, 1.5f, 0.f}, glm::angleAxis(0.3f, glm::vec3(0, 1, 0)), scale);
  rig.set(kHeadJoint, {0.f, 0.2f, 0.f}, glm::angleAxis(-0.2f, glm::vec3(1, 0, 0)));
  rig.set(kJawJoint, {0.f, -0.05f, 0.08f});
  rig.compose();
  return rig;
}

struct Aimed {
  glm::quat correction{0.f, 0.f, 0.f, 0.f};
  bool reached = false;
};

Aimed aim(IkRig& rig, AimIkJob job) {
  Aimed out;
  job.joint = &rig.models[kHeadJoint];
  job.correction = &out.correction;
  job.reached = &out.reached;
  EXPECT_TRUE(job.run());
  rotate_joint(rig.pose, kHeadJoint, out.correction);
  rig.compose(kHeadJoint);
  return out;
}

std::vector<glm::vec3> random_targets(unsigned seed, int count, const glm::vec3& around, float min_distance) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-3.f, 3.f);
  std::vector<glm::vec3> out;
  while (static_cast<int>(out.size()) < count) {
    const glm::vec3 t = around + glm::vec3(u(rng), u(rng), u(rng));
    if (glm::length(t - around) >= min_distance) out.push_back(t);
  }
  return out;
}

TEST(AimIkJob, K2_TheForwardAxisPointsAtRandomTargets) {
  // Also on a neck of scale 0.5 and on a mirrored one (a mirror above the joint).
  for (const glm::vec3 scale : {glm::vec3(1.f), glm::vec3(0.5f), glm::vec3(-1.f, 1.f, 1.f)}) {
    const glm::vec3 head = neck(scale).at(kHeadJoint);
    for (const glm::vec3 forward : {glm::vec3(0, 0, 1), glm::normalize(glm::vec3(1, 0, 1)), glm::vec3(0, -1, 0)}) {
      for (const glm::vec3& target : random_targets(3, 40, head, 0.1f)) {
        IkRig rig = neck(scale);
        const Aimed a = aim(rig, {.target = target, .forward = forward, .up = glm::vec3(1, 0, 0), .pole = {0, 1, 0}});
        EXPECT_LT(angle_between(rig.axis(kHeadJoint, forward), target - head), 1e-5f) << scale.x;
        EXPECT_TRUE(a.reached);
        EXPECT_TRUE(near(rig.at(kHeadJoint), head, 1e-6f));  // turned about its origin
      }
    }
  }
}

// Distance from the target to the ray from the joint-space point `offset` along `forward`.
float ray_miss(const IkRig& rig, const glm::vec3& offset, const glm::vec3& forward, const glm::vec3& target) {
  const glm::vec3 start(rig.models[kHeadJoint] * glm::vec4(offset, 1.f));
  const glm::vec3 dir = rig.axis(kHeadJoint, forward), to = target - start;
  const float t = glm::dot(to, dir);
  return t >= 0.f ? glm::length(to - t * dir) : glm::length(to);
}

TEST(AimIkJob, K2_WithAnOffsetTheRayFromTheOffsetPointPassesThroughTheTarget) {
  // Eyes 0.08 above and 0.1 in front of the head joint, on a neck of scale 1 and of scale 2
  // (the offset scales with the joint).
  const glm::vec3 eyes(0.f, 0.08f, 0.1f), forward(0, 0, 1);
  for (const float scale : {1.f, 2.f}) {
    const glm::vec3 head = neck(glm::vec3(scale)).at(kHeadJoint);
    for (const glm::vec3& target : random_targets(8, 40, head, 0.5f)) {
      IkRig rig = neck(glm::vec3(scale));
      const Aimed a = aim(rig, {.target = target, .forward = forward, .offset = eyes});
      EXPECT_LE(ray_miss(rig, eyes, forward, target), 1e-5f * glm::length(target - head)) << scale;
      EXPECT_TRUE(a.reached);
    }
  }
}

TEST(AimIkJob, K2_AnOffsetBehindTheJointStillAimsAtCloseTargets) {
  // A rear sight 0.5 behind the pivot: a target 0.3 from the pivot is inside the offset's
  // sphere, yet the ray from the sight through it exists (the target in front of the sight).
  const glm::vec3 sight(0.f, 0.f, -0.5f), forward(0, 0, 1);
  IkRig rig = neck();
  const glm::vec3 target = rig.at(kHeadJoint) + glm::vec3(0.2f, 0.1f, -0.2f);
  const Aimed a = aim(rig, {.target = target, .forward = forward, .offset = sight});
  EXPECT_TRUE(a.reached);
  EXPECT_LE(ray_miss(rig, sight, forward, target), 1e-5f);
}

TEST(AimIkJob, K2_UpTurnsTowardsThePole) {
  // Up ends in the plane of the joint-to-target line and the pole, on the pole's side: the
  // twist about that line with up closest to the pole (with no offset the line is forward).
  const glm::vec3 head = neck().at(kHeadJoint), forward(0, 0, 1), up(0, 1, 0);
  for (const glm::vec3 offset : {glm::vec3(0.f), glm::vec3(0.f, 0.08f, 0.1f)}) {
    for (const glm::vec3 pole : {glm::vec3(0, 1, 0), glm::vec3(1, 0, 0), glm::vec3(0.3f, -1.f, 0.2f)}) {
      for (const glm::vec3& target : random_targets(13, 20, head, 0.5f)) {
        IkRig rig = neck();
        aim(rig, {.target = target, .forward = forward, .offset = offset, .up = up, .pole = pole});
        const glm::vec3 line = glm::normalize(target - head), got = rig.axis(kHeadJoint, up);
        const glm::vec3 pole_across = across(pole, line);
        if (glm::length(pole_across) < 1e-2f) continue;  // pole along the line: no preferred twist
        EXPECT_LE(std::fabs(glm::dot(got, glm::normalize(glm::cross(line, pole)))), 1e-5f);
        EXPECT_GT(glm::dot(got, pole_across), 0.f);
        if (offset == glm::vec3(0.f)) {
          EXPECT_LT(angle_between(rig.axis(kHeadJoint, forward), line), 1e-5f);
        }
      }
    }
  }
}

TEST(AimIkJob, K2_WeightZeroIsIdentityAndHalfTurnsHalfway) {
  const glm::vec3 target = neck().at(kHeadJoint) + glm::vec3(1.f, 0.5f, -0.3f);
  IkRig rig = neck();
  const IkRig before = rig;
  const Aimed none = aim(rig, {.target = target, .weight = 0.f});
  EXPECT_EQ(none.correction, kIdentity);
  EXPECT_FALSE(none.reached);
  EXPECT_TRUE(same_bytes(rig.pose.data(), before.pose.data(), rig.pose.size() * sizeof(TrsBlock)));
  EXPECT_TRUE(same_bytes(rig.models.data(), before.models.data(), rig.models.size() * sizeof(glm::mat4)));
  IkRig full_rig = neck(), half_rig = neck();
  const Aimed full = aim(full_rig, {.target = target}), half = aim(half_rig, {.target = target, .weight = 0.5f});
  ASSERT_GT(rotation_angle(full.correction), 0.1f);
  EXPECT_NEAR(rotation_angle(half.correction), 0.5f * rotation_angle(full.correction), 1e-5f);
  EXPECT_TRUE(same_rotation(half.correction * half.correction, full.correction, 1e-5f));
  EXPECT_FALSE(half.reached);
}

TEST(AimIkJob, K2_ATargetInsideTheOffsetSphereIsNotReachedButFinite) {
  // Eyes 0.3 above and 0.4 in front (|offset| = 0.5); targets 0.17 and 0.35 from the joint
  // cannot be on the ray from the eyes in front of them: the joint aims forward from its
  // origin instead.
  const glm::vec3 eyes(0.f, 0.3f, 0.4f), forward(0, 0, 1);
  for (const glm::vec3 to_target : {glm::vec3(0.1f, 0.1f, -0.1f), glm::vec3(0.35f, 0.f, 0.f), glm::vec3(0.f, 0.f, 0.35f)}) {
    IkRig rig = neck();
    const glm::vec3 head = rig.at(kHeadJoint), target = head + to_target;
    const Aimed a = aim(rig, {.target = target, .forward = forward, .offset = eyes});
    EXPECT_FALSE(a.reached);
    EXPECT_TRUE(finite_unit(a.correction));
    EXPECT_LT(angle_between(rig.axis(kHeadJoint, forward), target - head), 1e-5f);
  }
  // A target on the joint defines no aim: identity.
  IkRig on = neck();
  const Aimed b = aim(on, {.target = on.at(kHeadJoint)});
  EXPECT_EQ(b.correction, kIdentity);
  EXPECT_FALSE(b.reached);
}

// ---------------------------------------------------------------------------------------------
// X3: every bad field refused by validate(), named, and nothing written.

TEST(AimIkJob, K2_AMatrixWithParallelColumnsGivesAFiniteCorrection) {
  // Every column (4, 4, 4): no frame can be made from them, so the decomposition's rotation is
  // used (a fuzzer's input: a Gram-Schmidt that left rounding noise in place of the second
  // column made a NaN here).
  glm::mat4 all_fours;
  for (int c = 0; c < 4; ++c) all_fours[c] = glm::vec4(4.f);
  glm::quat correction;
  AimIkJob job;
  job.joint = &all_fours;
  job.target = {4.f, 4.f, 3.97790527f};
  job.offset = {0.141176701f, 0.141235352f, 4.f};
  job.pole = {4.f, 4.f, 4.f};
  job.correction = &correction;
  ASSERT_TRUE(job.validate().ok());
  ASSERT_TRUE(job.run());
  EXPECT_TRUE(finite_unit(correction));
}

TEST(AimIkJob, X3_RefusesEachBadFieldWithoutWriting) {
  const IkRig rig = neck();
  const glm::mat4 nan_matrix(NAN);
  const glm::quat sentinel(7.f, 7.f, 7.f, 7.f);
  glm::quat correction = sentinel;
  bool reached = true;
  auto job = [&] {
    return AimIkJob{.joint = &rig.models[kHeadJoint], .target = {1.f, 2.f, 3.f}, .correction = &correction, .reached = &reached};
  };
  std::vector<std::pair<AimIkJob, const char*>> cases;
  cases.emplace_back(job(), "joint"), cases.back().first.joint = nullptr;
  cases.emplace_back(job(), "correction"), cases.back().first.correction = nullptr;
  cases.emplace_back(job(), "joint"), cases.back().first.joint = &nan_matrix;
  cases.emplace_back(job(), "target"), cases.back().first.target.x = NAN;
  cases.emplace_back(job(), "forward"), cases.back().first.forward.z = INFINITY;
  cases.emplace_back(job(), "offset"), cases.back().first.offset.y = NAN;
  cases.emplace_back(job(), "up"), cases.back().first.up.x = NAN;
  cases.emplace_back(job(), "pole"), cases.back().first.pole.z = -INFINITY;
  cases.emplace_back(job(), "forward"), cases.back().first.forward = glm::vec3(0.f);
  cases.emplace_back(job(), "forward"), cases.back().first.forward = glm::vec3(0.f, 0.f, 1.01f);
  cases.emplace_back(job(), "up"), cases.back().first.up = glm::vec3(0.f, 0.5f, 0.f);
  cases.emplace_back(job(), "up"), cases.back().first.up = glm::vec3(0.f, 0.f, 1.f);   // = forward
  cases.emplace_back(job(), "up"), cases.back().first.up = glm::vec3(0.f, 0.f, -1.f);  // opposite
  cases.emplace_back(job(), "pole"), cases.back().first.pole = glm::vec3(0.f);
  cases.emplace_back(job(), "weight"), cases.back().first.weight = -1.f;
  cases.emplace_back(job(), "weight"), cases.back().first.weight = 2.f;
  cases.emplace_back(job(), "weight"), cases.back().first.weight = NAN;
  for (const auto& [j, field] : cases) {
    EXPECT_STREQ(j.validate().field, field);
    EXPECT_FALSE(j.run());
    EXPECT_TRUE(same_bytes(&correction, &sentinel, sizeof(glm::quat)) && reached) << field;
  }
  EXPECT_EQ(cases[11].first.validate().message("AimIkJob"), "AimIkJob: up is parallel to forward");
  // Slightly off unit is accepted (|length - 1| < 1e-3).
  AimIkJob nearly = job();
  nearly.forward = glm::vec3(0.f, 0.f, 1.0009f);
  EXPECT_TRUE(nearly.run());
  EXPECT_TRUE(job().run());
}

}  // namespace
}  // namespace marrow
