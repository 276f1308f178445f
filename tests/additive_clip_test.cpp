// Additive clips and poses (B3): the delta from a reference pose, compiled and blended back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/runtime/additive_pose.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/track_sampler.hpp"
#include "pose_blend_util.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;
using test::random_rotation;
using test::throws_with;
using test::blend_poses;
using test::kNaN;
using test::near_quat;
using test::random_trs;
using test::same_trs_bits;
using test::to_joints;
using test::to_pose;
using test::turn;

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
      q = glm::normalize(turn(std::uniform_real_distribution<float>(-120.f, 120.f)(rng), glm::vec3(0, 1, 0)) * q);
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
    const std::vector<TrsBlock> out = blend_poses(n, {{base, 1.f}}, base, {{delta, 1.f}});
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
  const glm::mat4 rest0 = compose_trs(glm::vec3(7, 8, 9), turn(30, glm::vec3(0, 1, 0)), glm::vec3(2));
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
  EXPECT_TRUE(test::same_rotation(ref[0].rotation, turn(30, glm::vec3(0, 1, 0))));
  EXPECT_TRUE(near(ref[1].translation, {1, 0, 0}, 0.f));
  EXPECT_TRUE(near(ref[2].translation, {2, 0, 0}, 1e-6f));
  EXPECT_TRUE(near(ref[2].scale, {2, 2, 2}, 1e-6f));
  EXPECT_TRUE(near(ref[3].translation, {6, 0, 0}, 0.f));
}

TEST(AdditiveClip, B3_KeysBecomeDeltasFromTheReference) {
  const glm::quat r_ref = turn(40, glm::vec3(0, 0, 1)), r_key = turn(100, glm::vec3(0, 0, 1));
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
  EXPECT_TRUE(near_quat(k.rotation, turn(60, glm::vec3(0, 0, 1)), 1e-6f));  // inverse(40) * 100
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
  EXPECT_TRUE(same_trs_bits(pose_joint(pose, 0), Trs{}));
  EXPECT_TRUE(same_trs_bits(pose_joint(pose, 2), Trs{}));
  EXPECT_TRUE(near(pose_joint(pose, 1).translation, {1, 2, 3}, 0.f));
}

TEST(AdditivePose, B3_MakeAdditivePoseIsTheDeltaFromItsReference) {
  const glm::quat r_ref = turn(40, glm::vec3(1, 0, 0)), r = turn(-50, glm::vec3(1, 0, 0));
  std::vector<TrsBlock> pose = to_pose({Trs{}, Trs{{3, 4, 5}, r, {2, 6, 1}}});
  const std::vector<TrsBlock> reference = to_pose({Trs{}, Trs{{1, 1, 1}, r_ref, {2, 3, 4}}});
  std::vector<TrsBlock> out(1);
  ASSERT_TRUE(make_additive_pose(pose, reference, 2, out));
  EXPECT_TRUE(same_trs_bits(pose_joint(out, 0), Trs{}));
  const Trs d = pose_joint(out, 1);
  EXPECT_TRUE(near(d.translation, {2, 3, 4}, 0.f));
  EXPECT_TRUE(near(d.scale, {1, 2, 0.25f}, 0.f));
  EXPECT_TRUE(near_quat(d.rotation, turn(-90, glm::vec3(1, 0, 0)), 1e-6f));
  // In place, and the same deltas as an additive clip's keys.
  ASSERT_TRUE(make_additive_pose(pose, reference, 2, pose));
  EXPECT_TRUE(same_trs_bits(pose_joint(pose, 1), d));
  AnimationClip clip;
  clip.tracks.push_back(BoneTrack{1, {Keyframe{Ticks{0}, {3, 4, 5}, r, {2, 6, 1}}}});
  const Keyframe k = make_additive_clip(clip, to_joints(reference, 2)).tracks[0].keys[0];
  EXPECT_TRUE(same_trs_bits(Trs{k.translation, k.rotation, k.scale}, d));
  // Each input or the output short: false, nothing written.
  const std::vector<TrsBlock> nine(2);
  std::vector<TrsBlock> out9(2);
  EXPECT_TRUE(make_additive_pose(nine, nine, 9, out9));
  EXPECT_FALSE(make_additive_pose(pose, nine, 9, out9));
  EXPECT_FALSE(make_additive_pose(nine, reference, 9, out9));
  EXPECT_FALSE(make_additive_pose(nine, nine, 9, out));
  EXPECT_FALSE(make_additive_pose(nine, nine, std::numeric_limits<std::size_t>::max(), out9));
  EXPECT_TRUE(same_trs_bits(pose_joint(out, 1), d));
}

}  // namespace
}  // namespace marrow
