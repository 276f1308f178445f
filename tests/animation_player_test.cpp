// AnimationPlayer, rules P1-P11 of DESIGN.md (seed 000, "AnimationPlayer, precisely").
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/runtime/animation_player.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;
using test::throws_with;

Ticks seconds(double s) { return ticks_from_seconds(s); }
using test::translate;

// The seed's two-bone rig: bone 1 is a child of bone 0 offset by (0, 1, 0); bone 0's only track
// moves it from the origin to (2, 0, 0) over one second.
SkinningData two_bone_rig() {
  SkinningData data;
  data.bone_count = 2;
  data.skeleton_hierarchy = {-1, 0};
  data.bind_pose = {glm::mat4(1.f), translate(0, 1, 0)};
  data.inverse_bind_pose = {glm::mat4(1.f), glm::mat4(1.f)};
  AnimationClip clip;
  clip.name = "Move";
  clip.duration = seconds(1.0);
  BoneTrack track;
  track.bone_index = 0;
  track.keys.push_back(Keyframe{seconds(0.0), glm::vec3(0, 0, 0)});
  track.keys.push_back(Keyframe{seconds(1.0), glm::vec3(2, 0, 0)});
  clip.tracks.push_back(track);
  data.animation_clips["Move"] = clip;
  return data;
}

glm::vec3 world_position(const AnimationPlayer& p, std::size_t bone) { return glm::vec3(p.world_transforms()[bone][3]); }

TEST(AnimationPlayer, P10_SeedTwoBoneExampleHalfSecond) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(0.5), true);
  EXPECT_TRUE(near(world_position(player, 0), {1, 0, 0}));
  EXPECT_TRUE(near(world_position(player, 1), {1, 1, 0}));
}

TEST(AnimationPlayer, P10_StartMiddleEnd) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  EXPECT_TRUE(near(world_position(player, 1), {0, 1, 0}));
  player.update(seconds(0.25), false);
  EXPECT_TRUE(near(world_position(player, 0), {0.5f, 0, 0}));
  player.update(seconds(1.0), false, false);
  EXPECT_TRUE(near(world_position(player, 0), {2, 0, 0}));
  EXPECT_TRUE(near(world_position(player, 1), {2, 1, 0}));
}

TEST(AnimationPlayer, P1_ConstructorComputesBindPoseAtOnce) {
  SkinningData data = two_bone_rig();
  data.inverse_bind_pose = {glm::mat4(1.f), translate(0, -1, 0)};
  const AnimationPlayer player(data);
  ASSERT_EQ(player.bone_transforms().size(), 2u);
  ASSERT_EQ(player.world_transforms().size(), 2u);
  ASSERT_EQ(player.skin_transforms().size(), 2u);
  EXPECT_TRUE(near(player.bone_transforms()[1], translate(0, 1, 0)));
  EXPECT_TRUE(near(world_position(player, 1), {0, 1, 0}));
  // A drawable palette straight away: world * inverse bind = identity in the bind pose.
  EXPECT_TRUE(near(player.skin_transforms()[1], glm::mat4(1.f)));
  EXPECT_EQ(player.current_clip(), nullptr);
  EXPECT_EQ(player.current_time(), Ticks{0});
}

TEST(AnimationPlayer, P1_BindPoseIsCopiedNotReferenced) {
  SkinningData data = two_bone_rig();
  const AnimationPlayer player(data);
  data.bind_pose[1] = translate(0, 5, 0);
  EXPECT_TRUE(near(player.bone_transforms()[1], translate(0, 1, 0)));
}

TEST(AnimationPlayer, P2_StartClipKeepsReferenceAndRewinds) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  const AnimationClip& clip = data.animation_clips.at("Move");
  player.start_clip(clip);
  player.update(seconds(0.75), true);
  EXPECT_EQ(player.current_time(), seconds(0.75));
  player.start_clip(clip);
  EXPECT_EQ(player.current_clip(), &clip);
  EXPECT_EQ(player.current_time(), Ticks{0});
  EXPECT_TRUE(near(world_position(player, 0), {0, 0, 0}));
}

TEST(AnimationPlayer, P3_RelativeAccumulatesAbsoluteSeeks) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(0.25), true);
  player.update(seconds(0.25), true);
  EXPECT_EQ(player.current_time(), seconds(0.5));
  player.update(seconds(0.1), false);
  EXPECT_EQ(player.current_time(), seconds(0.1));
}

TEST(AnimationPlayer, P3_LoopingIsFloorModuloOnTicks) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(2.25), false);
  EXPECT_EQ(player.current_time(), seconds(0.25));
  player.update(Ticks{10'000'000LL * 1'000'000 + 3}, false);  // a long session costs the same
  EXPECT_EQ(player.current_time(), Ticks{3});
}

TEST(AnimationPlayer, P3_NotLoopingClampsToDuration) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(5.0), false, false);
  EXPECT_EQ(player.current_time(), seconds(1.0));
  player.update(seconds(-5.0), false, false);
  EXPECT_EQ(player.current_time(), Ticks{0});
}

TEST(AnimationPlayer, P3_NoClipHoldsZero) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.update(seconds(3.0), true);
  EXPECT_EQ(player.current_time(), Ticks{0});
  EXPECT_TRUE(near(world_position(player, 1), {0, 1, 0}));
}

TEST(AnimationPlayer, P11_ZeroDurationHoldsZero) {
  SkinningData data = two_bone_rig();
  data.animation_clips["Move"].duration = Ticks{0};
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(0.5), true);
  EXPECT_EQ(player.current_time(), Ticks{0});
  EXPECT_TRUE(near(world_position(player, 0), {0, 0, 0}));
}

TEST(AnimationPlayer, P11_NegativeTimeWraps) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(-0.25), true);
  EXPECT_EQ(player.current_time(), seconds(0.75));
  EXPECT_TRUE(near(world_position(player, 0), {1.5f, 0, 0}));
  player.update(seconds(-2.25), false);
  EXPECT_EQ(player.current_time(), seconds(0.75));
}

TEST(AnimationPlayer, P11_EndEqualsStartWhenLooping) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(1.0), false, true);
  EXPECT_EQ(player.current_time(), Ticks{0});
  EXPECT_TRUE(near(world_position(player, 0), {0, 0, 0}));
}

TEST(AnimationPlayer, P4_ArraySizesMustEqualBoneCount) {
  SkinningData data = two_bone_rig();
  data.inverse_bind_pose.pop_back();
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { AnimationPlayer p(data); }, {"inverse_bind_pose", "1", "2"}));
  data = two_bone_rig();
  data.skeleton_hierarchy.push_back(0);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { AnimationPlayer p(data); }, {"skeleton_hierarchy", "3"}));
  data = two_bone_rig();
  data.bind_pose.clear();
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { AnimationPlayer p(data); }, {"bind_pose", "0"}));
}

TEST(AnimationPlayer, P4_NegativeBoneCountRefusedBeforeAllocation) {
  SkinningData data;
  data.bone_count = -1;  // cast to size_t this would ask for ~2^64 matrices
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { AnimationPlayer p(data); }, {"bone_count", "-1"}));
}

TEST(AnimationPlayer, P4_DataEditedAfterConstructionIsRefusedAtUpdate) {
  SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  data.bind_pose.push_back(glm::mat4(1.f));
  EXPECT_THROW(player.update(Ticks{1}, true), std::invalid_argument);
}

TEST(AnimationPlayer, P5_TracksWithNoKeysOrOutOfRangeBoneAreIgnored) {
  SkinningData data = two_bone_rig();
  AnimationClip& clip = data.animation_clips["Move"];
  clip.tracks.push_back(BoneTrack{1, {}});  // no keys
  BoneTrack stray;
  stray.bone_index = 7;                     // out of range
  stray.keys.push_back(Keyframe{Ticks{0}, glm::vec3(9, 9, 9)});
  clip.tracks.push_back(stray);
  stray.bone_index = -1;
  clip.tracks.push_back(stray);
  AnimationPlayer player(data);
  player.start_clip(clip);
  player.update(seconds(0.5), false);
  EXPECT_TRUE(near(world_position(player, 0), {1, 0, 0}));
  EXPECT_TRUE(near(player.bone_transforms()[1], translate(0, 1, 0)));  // untracked: bind pose
}

TEST(AnimationPlayer, P6_HoldsFirstAndLastKeysOutside) {
  SkinningData data = two_bone_rig();
  AnimationClip& clip = data.animation_clips["Move"];
  clip.duration = seconds(2.0);
  clip.tracks[0].keys = {Keyframe{seconds(0.5), glm::vec3(1, 0, 0)}, Keyframe{seconds(1.5), glm::vec3(3, 0, 0)}};
  AnimationPlayer player(data);
  player.start_clip(clip);
  player.update(seconds(0.25), false);
  EXPECT_TRUE(near(world_position(player, 0), {1, 0, 0}));
  player.update(seconds(1.75), false);
  EXPECT_TRUE(near(world_position(player, 0), {3, 0, 0}));
  player.update(seconds(1.0), false);
  EXPECT_TRUE(near(world_position(player, 0), {2, 0, 0}));
}

TEST(AnimationPlayer, P6_LerpsScaleAndSlerpsRotation) {
  SkinningData data = two_bone_rig();
  AnimationClip& clip = data.animation_clips["Move"];
  Keyframe a{seconds(0.0)}, b{seconds(1.0)};
  a.scale = glm::vec3(1.f);
  b.scale = glm::vec3(3.f);
  b.rotation = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  clip.tracks[0].keys = {a, b};
  AnimationPlayer player(data);
  player.start_clip(clip);
  player.update(seconds(0.5), false);
  const Trs trs = decompose_trs(player.bone_transforms()[0]);
  EXPECT_TRUE(near(trs.scale, glm::vec3(2.f)));
  EXPECT_TRUE(test::same_rotation(trs.rotation, glm::angleAxis(glm::radians(45.f), glm::vec3(0, 0, 1))));
}

TEST(AnimationPlayer, P6_SlerpTakesTheShorterArc) {
  SkinningData data = two_bone_rig();
  AnimationClip& clip = data.animation_clips["Move"];
  Keyframe a{seconds(0.0)}, b{seconds(1.0)};
  a.rotation = glm::angleAxis(glm::radians(10.f), glm::vec3(0, 0, 1));
  // -q of a 350 degree rotation: the same as -10 degrees; the short way passes through 0.
  b.rotation = -glm::angleAxis(glm::radians(-10.f), glm::vec3(0, 0, 1));
  clip.tracks[0].keys = {a, b};
  AnimationPlayer player(data);
  player.start_clip(clip);
  player.update(seconds(0.5), false);
  EXPECT_TRUE(test::same_rotation(decompose_trs(player.bone_transforms()[0]).rotation, glm::quat(1, 0, 0, 0)));
}

TEST(AnimationPlayer, P7_ParentAtOrAfterOwnIndexThrows) {
  SkinningData data = two_bone_rig();
  data.skeleton_hierarchy = {-1, 1};  // self-parent
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { AnimationPlayer p(data); }, {"skeleton_hierarchy[1]", "1"}));
  data.skeleton_hierarchy = {1, -1};  // parent after child (also how a cycle shows up)
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { AnimationPlayer p(data); }, {"skeleton_hierarchy[0]"}));
}

TEST(AnimationPlayer, P7_AnyNegativeParentIsARoot) {
  SkinningData data = two_bone_rig();
  data.skeleton_hierarchy = {-1, -7};
  const AnimationPlayer player(data);
  EXPECT_TRUE(near(world_position(player, 1), {0, 1, 0}));
  EXPECT_TRUE(near(world_position(player, 0), {0, 0, 0}));
}

TEST(AnimationPlayer, P7_ComposesInIndexOrderThroughThreeLevels) {
  SkinningData data;
  data.bone_count = 3;
  data.skeleton_hierarchy = {-1, 0, 1};
  data.bind_pose = {translate(1, 0, 0), glm::mat4(glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1))),
                    translate(1, 0, 0)};
  data.inverse_bind_pose.assign(3, glm::mat4(1.f));
  const AnimationPlayer player(data);
  // bone 2 = T(1,0,0) * Rz(90) * T(1,0,0): at (1, 1, 0).
  EXPECT_TRUE(near(world_position(player, 2), {1, 1, 0}));
}

TEST(AnimationPlayer, P8_RootPrefixAppliesOnlyWithExactlyBoneCountEntries) {
  SkinningData data = two_bone_rig();
  data.skeleton_root_prefix = {translate(0, 0, 10), glm::mat4(1.f)};
  {
    AnimationPlayer player(data);
    player.start_clip(data.animation_clips.at("Move"));
    player.update(seconds(0.5), false);
    // world_root = prefix * local: the animated root keeps the ancestry above it.
    EXPECT_TRUE(near(world_position(player, 0), {1, 0, 10}));
    EXPECT_TRUE(near(world_position(player, 1), {1, 1, 10}));
  }
  data.skeleton_root_prefix = {translate(0, 0, 10)};  // mismatched: identity
  const AnimationPlayer player(data);
  EXPECT_TRUE(near(world_position(player, 0), {0, 0, 0}));
}

TEST(AnimationPlayer, P8_PrefixMultipliesOnTheLeftOfTheRootLocal) {
  SkinningData data = two_bone_rig();
  data.bind_pose[0] = translate(1, 0, 0);
  data.animation_clips.clear();
  const glm::mat4 prefix = glm::scale(glm::mat4(glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1))), glm::vec3(2.f));
  data.skeleton_root_prefix = {prefix, glm::mat4(1.f)};
  const AnimationPlayer player(data);
  EXPECT_TRUE(near(player.world_transforms()[0], prefix * translate(1, 0, 0)));
  EXPECT_TRUE(near(world_position(player, 0), {0, 2, 0}));
}

TEST(AnimationPlayer, P9_OutputsLocalWorldAndSkin) {
  SkinningData data = two_bone_rig();
  data.inverse_bind_pose = {glm::mat4(1.f), translate(0, -1, 0)};
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(seconds(0.5), false);
  EXPECT_TRUE(near(player.bone_transforms()[0], translate(1, 0, 0)));  // local
  EXPECT_TRUE(near(player.world_transforms()[1], translate(1, 1, 0)));  // model space
  // skin = world * inverse bind: the delta from bind pose, which moved everything by (1, 0, 0).
  EXPECT_TRUE(near(player.skin_transforms()[1], translate(1, 0, 0)));
  EXPECT_TRUE(near(player.skin_transforms()[0], translate(1, 0, 0)));
}

TEST(AnimationPlayer, P2_StartClipRefusesUnsortedOrNonFiniteKeys) {
  SkinningData data = two_bone_rig();
  AnimationClip& clip = data.animation_clips["Move"];
  std::swap(clip.tracks[0].keys[0], clip.tracks[0].keys[1]);
  AnimationPlayer player(data);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { player.start_clip(clip); }, {"Move", "track 0", "key 1"}));
  std::swap(clip.tracks[0].keys[0], clip.tracks[0].keys[1]);
  clip.tracks[0].keys[1].translation.y = std::nanf("");
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { player.start_clip(clip); }, {"key 1", "translation"}));
}

TEST(AnimationPlayer, P2_StartClipRefusesSceneNodeClip) {
  SkinningData data = two_bone_rig();
  AnimationClip clip = data.animation_clips["Move"];
  clip.target_space = ClipTargetSpace::SceneNode;
  AnimationPlayer player(data);
  EXPECT_THROW(player.start_clip(clip), std::invalid_argument);
}

TEST(AnimationPlayer, P4_NonFiniteMatrixRefusedNamingIndex) {
  SkinningData data = two_bone_rig();
  data.inverse_bind_pose[1][3][0] = INFINITY;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { AnimationPlayer p(data); }, {"inverse_bind_pose[1]"}));
}

TEST(AnimationPlayer, P3_HugeRelativeStepsSaturateInsteadOfOverflowing) {
  const SkinningData data = two_bone_rig();
  AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("Move"));
  player.update(Ticks{INT64_MAX}, true, false);
  player.update(Ticks{INT64_MAX}, true, false);
  EXPECT_EQ(player.current_time(), seconds(1.0));
}

}  // namespace
}  // namespace marrow
