// Inertialization (AG4): Bollo's quintic per joint, continuity at the switch, the new pose alone
// once it ends (runtime/inertialization_job.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/runtime/inertialization_job.hpp"

namespace marrow {
namespace {

using Quintic = InertializationState::Quintic;

// A one-joint state whose translation offset is x0 along x, with velocity v0 at the switch.
Quintic translation_quintic(float x0, float v0, float duration, float dt = 1.f / 60.f) {
  std::vector<TrsBlock> previous(1), current(1), next(1);
  set_pose_joint(next, 0, Trs{});
  set_pose_joint(current, 0, Trs{glm::vec3(x0, 0.f, 0.f)});
  set_pose_joint(previous, 0, Trs{glm::vec3(x0 - v0 * dt, 0.f, 0.f)});
  InertializationState state(1);
  EXPECT_TRUE((InertializationSetupJob{.previous = previous, .current = current, .next = next, .dt = dt, .duration = duration,
                                       .state = &state}
                   .run()));
  return state.joints()[0].translation[0];
}

// One-sided differences (second order), so t = 0 and t = t1 can be measured from one side.
double slope_after(const Quintic& q, double t, double h) {
  const auto x = [&](double u) { return static_cast<double>(q.at(static_cast<float>(u))); };
  return (-3.0 * x(t) + 4.0 * x(t + h) - x(t + 2 * h)) / (2 * h);
}
double slope_before(const Quintic& q, double t, double h) {
  const auto x = [&](double u) { return static_cast<double>(q.at(static_cast<float>(u))); };
  return (3.0 * x(t) - 4.0 * x(t - h) + x(t - 2 * h)) / (2 * h);
}
double curvature_after(const Quintic& q, double t, double h) {
  const auto x = [&](double u) { return static_cast<double>(q.at(static_cast<float>(u))); };
  return (2.0 * x(t) - 5.0 * x(t + h) + 4.0 * x(t + 2 * h) - x(t + 3 * h)) / (h * h);
}

TEST(Inertialization, AG4_TheOffsetAndItsDerivativesStartFromTheOldPoseAndReachZeroAtTheEnd) {
  for (const float v0 : {-4.f, -0.5f, 0.f, 0.7f}) {
    const Quintic q = translation_quintic(0.3f, v0, 0.5f);
    SCOPED_TRACE(v0);
    EXPECT_EQ(q.at(0.f), 0.3f);
    EXPECT_NEAR(q.v0, v0, 1e-3f);  // measured over one frame
    EXPECT_NEAR(q.a0, (-8.0 * q.v0 * 0.5 - 20.0 * 0.3) / 0.25, 1e-3);
    EXPECT_NEAR(slope_after(q, 0.0, 1e-3), q.v0, 1e-2);
    EXPECT_NEAR(curvature_after(q, 0.0, 1e-2), q.a0, 0.03 * std::abs(q.a0) + 0.1);
    EXPECT_EQ(q.t1, 0.5f);
    // At the end: the value and both derivatives reach zero, and it stays zero after.
    EXPECT_NEAR(q.at(0.5f - 1e-4f), 0.f, 1e-6f);
    EXPECT_NEAR(slope_before(q, 0.5 - 1e-6, 1e-3), 0.0, 1e-2);
    EXPECT_NEAR((q.at(0.5f - 2e-2f) - 2.f * q.at(0.5f - 1e-2f)) / 1e-4f, 0.0, 0.05 * std::abs(q.a0) + 0.2);
    EXPECT_EQ(q.at(0.5f), 0.f);
    EXPECT_EQ(q.at(1.5f), 0.f);
  }
}

// Old pose A moves (translation along a line, rotation about a fixed axis); new pose B is still.
TEST(Inertialization, AG4_PoseAndVelocityAreContinuousAtTheSwitch) {
  const float dt = 1.f / 60.f;
  const glm::vec3 axis = glm::normalize(glm::vec3(0.3f, 1.f, -0.2f));
  const auto a_at = [&](float t) {
    return Trs{glm::vec3(0.2f, 1.f, 0.f) + t * glm::vec3(0.5f, -0.25f, 0.1f), glm::angleAxis(0.8f + 1.5f * t, axis) *
                                                                                   glm::angleAxis(0.3f, glm::vec3(1.f, 0.f, 0.f)),
               glm::vec3(1.f)};
  };
  const Trs b{glm::vec3(-0.1f, 0.9f, 0.2f), glm::angleAxis(0.3f, glm::vec3(1.f, 0.f, 0.f)), glm::vec3(1.f)};
  std::vector<TrsBlock> previous(1), current(1), next(1), out(1);
  set_pose_joint(previous, 0, a_at(-dt));
  set_pose_joint(current, 0, a_at(0.f));
  set_pose_joint(next, 0, b);
  InertializationState state(1);
  ASSERT_TRUE((InertializationSetupJob{.previous = previous, .current = current, .next = next, .dt = dt, .duration = 0.4f,
                                       .state = &state}
                   .run()));
  // At the switch the output is the old pose.
  ASSERT_TRUE((InertializationJob{.state = &state, .pose = next, .elapsed = 0.f, .output = out}.run()));
  const Trs at_switch = pose_joint(out, 0);
  EXPECT_LT(glm::length(at_switch.translation - a_at(0.f).translation), 1e-5f);
  EXPECT_GT(std::abs(glm::dot(at_switch.rotation, a_at(0.f).rotation)), 1.f - 1e-6f);
  // Its velocity just after (second-order one-sided differences) is the old pose's just before.
  const float h = 1e-3f;
  Trs after[2];
  for (int k = 0; k < 2; ++k) {
    ASSERT_TRUE((InertializationJob{.state = &state, .pose = next, .elapsed = h * static_cast<float>(k + 1), .output = out}.run()));
    after[k] = pose_joint(out, 0);
  }
  const glm::vec3 velocity_after = (-3.f * at_switch.translation + 4.f * after[0].translation - after[1].translation) / (2.f * h);
  const glm::vec3 velocity_before = (a_at(0.f).translation - a_at(-dt).translation) / dt;
  EXPECT_LT(glm::length(velocity_after - velocity_before), 1e-2f * glm::length(velocity_before)) << "translation velocity";
  const auto angle = [](const glm::quat& q) { return 2.f * std::atan2(glm::length(glm::vec3(q.x, q.y, q.z)), std::abs(q.w)); };
  const float speed_after = (4.f * angle(after[0].rotation * glm::inverse(at_switch.rotation)) -
                             angle(after[1].rotation * glm::inverse(at_switch.rotation))) / (2.f * h);
  // The offset's velocity is one frame's difference in rotation-vector space: a frame's worth of
  // the log map's curvature away from the instantaneous speed (1.5 rad/s here).
  EXPECT_NEAR(speed_after, 1.5f, 0.05f * 1.5f) << "angular speed";
}

TEST(Inertialization, AG4_FromTheEndOnTheNewPosePlaysAlone) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  constexpr std::size_t kJoints = 21;
  std::vector<TrsBlock> previous(pose_block_count(kJoints)), current(previous.size()), next(previous.size()), out(previous.size());
  for (std::size_t j = 0; j < kJoints; ++j) {
    const auto random_trs = [&] {
      return Trs{glm::vec3(u(rng), u(rng), u(rng)), glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))), glm::vec3(1.f + 0.1f * u(rng))};
    };
    set_pose_joint(previous, j, random_trs());
    set_pose_joint(current, j, random_trs());
    set_pose_joint(next, j, random_trs());
  }
  InertializationState state(kJoints);
  ASSERT_TRUE((InertializationSetupJob{.previous = previous, .current = current, .next = next, .dt = 1.f / 30.f, .duration = 0.25f,
                                       .state = &state}
                   .run()));
  EXPECT_EQ(state.end(), 0.25f);
  ASSERT_TRUE((InertializationJob{.state = &state, .pose = next, .elapsed = state.end(), .output = out}.run()));
  for (std::size_t j = 0; j < kJoints; ++j) {
    const Trs a = pose_joint(out, j), b = pose_joint(next, j);
    EXPECT_EQ(a.translation, b.translation) << j;
    EXPECT_EQ(a.rotation, b.rotation) << j;
    EXPECT_EQ(a.scale, b.scale) << j;
  }
  // At the switch, the old pose.
  ASSERT_TRUE((InertializationJob{.state = &state, .pose = next, .elapsed = 0.f, .output = out}.run()));
  for (std::size_t j = 0; j < kJoints; ++j) {
    EXPECT_LT(glm::length(pose_joint(out, j).translation - pose_joint(current, j).translation), 1e-5f) << j;
    EXPECT_GT(std::abs(glm::dot(pose_joint(out, j).rotation, pose_joint(current, j).rotation)), 1.f - 1e-5f) << j;
  }
}

// The frame adds x0 * P(u) + v0 * t (1 - u)^4, the header's quintic expanded: the same values as
// each joint's Quintic::at.
TEST(Inertialization, AG4_TheFramesOffsetsAreEachJointsQuintic) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  constexpr std::size_t kJoints = 19;
  std::vector<TrsBlock> previous(pose_block_count(kJoints)), current(previous.size()), next(previous.size()), out(previous.size());
  for (std::size_t j = 0; j < kJoints; ++j) {
    const Trs b{glm::vec3(u(rng), u(rng), u(rng))};
    set_pose_joint(next, j, b);
    set_pose_joint(current, j, Trs{b.translation + 0.3f * glm::vec3(u(rng), u(rng), u(rng))});
    set_pose_joint(previous, j, Trs{pose_joint(current, j).translation + 0.02f * glm::vec3(u(rng), u(rng), u(rng))});
  }
  InertializationState state(kJoints);
  ASSERT_TRUE((InertializationSetupJob{.previous = previous, .current = current, .next = next, .dt = 1.f / 60.f, .duration = 0.3f,
                                       .state = &state}
                   .run()));
  for (const float t : {0.f, 0.01f, 0.1f, 0.2f, 0.29f, 0.2999f}) {
    ASSERT_TRUE((InertializationJob{.state = &state, .pose = next, .elapsed = t, .output = out}.run()));
    for (std::size_t j = 0; j < kJoints; ++j) {
      const glm::vec3 offset = pose_joint(out, j).translation - pose_joint(next, j).translation;
      for (int c = 0; c < 3; ++c) {
        const float expected = state.joints()[j].translation[c].at(t);
        EXPECT_NEAR(offset[c], expected, 2e-6f + 1e-4f * std::abs(expected)) << "t " << t << " joint " << j << " axis " << c;
      }
    }
  }
}

TEST(Inertialization, AG4_InvalidInputIsNamedAndNothingIsWritten) {
  std::vector<TrsBlock> pose(1), out(1);
  InertializationState state(1);
  const auto setup = [&](float dt, float duration) {
    return InertializationSetupJob{.previous = pose, .current = pose, .next = pose, .dt = dt, .duration = duration, .state = &state};
  };
  const auto apply = [&](const InertializationState* s, float elapsed) {
    return InertializationJob{.state = s, .pose = pose, .elapsed = elapsed, .output = out};
  };
  EXPECT_STREQ(setup(0.f, 1.f).validate().field, "dt");
  EXPECT_STREQ(setup(0.1f, -1.f).validate().field, "duration");
  EXPECT_STREQ(apply(nullptr, 0.f).validate().field, "state");
  EXPECT_STREQ(apply(&state, -1.f).validate().field, "elapsed");
  InertializationState big(9);
  EXPECT_FALSE(apply(&big, 0.f).run());
  pose[0].t[0][0] = std::nanf("");
  EXPECT_FALSE(setup(0.1f, 1.f).run());
}

}  // namespace
}  // namespace marrow
