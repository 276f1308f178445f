// Retargeting (RT2-RT7; RT1's bone maps: humanoid_map_test.cpp): the map, the job and the bake,
// on synthetic humanoids whose rest frames differ bone by bone (humanoid_rig.hpp), and on the
// shared motion capture.
#include <gtest/gtest.h>

#include <cmath>

#include "demo/humanoid_rig.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/animation_marker.hpp"
#include "marrow/model/live_retarget.hpp"
#include "marrow/model/retarget_clips.hpp"
#include "marrow/model/retarget_map.hpp"
#include "shared_assets.hpp"

namespace marrow {
namespace {

using demo::HumanoidRigSpec;

std::vector<glm::mat4> retarget_worlds(const Model& model, const std::string& clip, double seconds) {
  Animator animator(model);
  if (!clip.empty()) {
    animator.play(clip);
    animator.update(ticks_from_seconds(seconds), false, false);
  }
  return {animator.absolute_bone_transforms().begin(), animator.absolute_bone_transforms().end()};
}

glm::quat world_rotation(const glm::mat4& m) { return decompose_trs(m).rotation; }
glm::vec3 world_position(const glm::mat4& m) { return glm::vec3(m[3]); }

// Angles by atan2, not acos: acos of a float dot within rounding of 1 reads 3e-4 rad.
float rotation_angle(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::inverse(glm::normalize(a)) * glm::normalize(b);
  return 2.f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::abs(d.w));
}

float direction_angle(const glm::vec3& a, const glm::vec3& b) { return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)); }

// Source: Y-up metres, three spine bones. Targets differ in proportions, up axis, unit, local
// frames, and (chain) spine count.
HumanoidRigSpec source_spec() { return {.spine_bones = 3, .height = 1.f, .seed = 11, .extra_leaf = false}; }
HumanoidRigSpec target_spec(int spines) {
  return {.spine_bones = spines,
          .height = 0.6f,
          .arm_length = 1.3f,
          .placement = glm::angleAxis(-1.5707964f, glm::vec3(1.f, 0.f, 0.f)),  // Z-up
          .unit = 100.f,
          .seed = 29};
}

Model source_rig() {
  Model model = demo::humanoid_rig(source_spec());
  demo::add_random_clip(model, "walk", 5);
  return model;
}

const std::vector<double> kKeyTimes = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

TEST(Retarget, RT1_AModelOntoItselfReproducesEveryPose) {
  const Model model = source_rig();
  const RetargetMap map(model, model);
  EXPECT_NEAR(map.root_scale(), 1.f, 1e-6f);
  const Model out = retarget_clips(model, model, map, {.prefix = "re_"});
  for (double t = 0.0; t <= 1.0; t += 0.05) {
    const auto a = retarget_worlds(model, "walk", t), b = retarget_worlds(out, "re_walk", t);
    for (std::size_t n = 0; n < a.size(); ++n)
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r) ASSERT_NEAR(a[n][c][r], b[n][c][r], 1e-5f) << model.nodes[n].name << " at " << t;
  }
}

TEST(Retarget, RT2_TheSourceRestMapsToTheTargetRest) {
  const Model source = source_rig();
  for (const int spines : {3, 2}) {
    const Model target = demo::humanoid_rig(target_spec(spines));
    const RetargetMap map(source, target);
    EXPECT_EQ(map.rig().chains.size(), spines == 3 ? 0u : 1u);
    std::vector<TrsBlock> in(pose_block_count(map.source_nodes().size())), out(pose_block_count(map.target_nodes().size()));
    map.gather_source(map.source_rest(), in);
    RetargetContext context(map.rig());
    ASSERT_TRUE((RetargetJob{.rig = &map.rig(), .context = &context, .source_pose = in, .target_pose = out}.run()));
    for (std::size_t i = 0; i < map.target_nodes().size(); ++i) {
      const Trs got = pose_joint(out, i), rest = map.rig().target_rest[i];
      EXPECT_LT(rotation_angle(got.rotation, rest.rotation), 1e-5f)
          << target.nodes[static_cast<std::size_t>(map.target_nodes()[i])].name << " with " << spines << " spine bones";
      EXPECT_LT(glm::length(got.translation - rest.translation), 1e-5f * 0.6f) << i;
    }
  }
}

TEST(Retarget, RT3_TheFastPathEqualsTheRule) {
  const Model source = source_rig();
  const Model target = demo::humanoid_rig(target_spec(3));
  const RetargetMap map(source, target);
  ASSERT_TRUE(map.rig().fast);
  RetargetRig general = map.rig();
  general.fast = false;
  ASSERT_TRUE(general.validate());
  Animator animator(source);
  animator.play("walk");
  for (const double t : kKeyTimes) {
    animator.update(ticks_from_seconds(t), false, false);
    std::vector<TrsBlock> in(pose_block_count(map.source_nodes().size()));
    std::vector<TrsBlock> fast(pose_block_count(map.target_nodes().size())), slow(fast.size());
    map.gather_source(animator.bone_transforms(), in);
    RetargetContext c1(map.rig()), c2(general);
    ASSERT_TRUE((RetargetJob{.rig = &map.rig(), .context = &c1, .source_pose = in, .target_pose = fast}.run()));
    ASSERT_TRUE((RetargetJob{.rig = &general, .context = &c2, .source_pose = in, .target_pose = slow}.run()));
    for (std::size_t i = 0; i < map.target_nodes().size(); ++i) {
      const Trs a = pose_joint(fast, i), b = pose_joint(slow, i);
      EXPECT_LT(rotation_angle(a.rotation, b.rotation), 2e-6f) << i << " at " << t;
      EXPECT_LT(glm::length(a.translation - b.translation), 1e-5f * 60.f) << i << " at " << t;
    }
  }
}

// The delta from rest of a node's model rotation.
glm::quat rotation_delta(const std::vector<glm::mat4>& now, const std::vector<glm::mat4>& rest, int node) {
  const auto n = static_cast<std::size_t>(node);
  return world_rotation(now[n]) * glm::inverse(world_rotation(rest[n]));
}

TEST(Retarget, RT3_EveryPairTurnsByTheSourcesModelSpaceDelta) {
  const Model source = source_rig();
  const Model target = demo::humanoid_rig(target_spec(3));
  const RetargetMap map(source, target);
  const Model out = retarget_clips(source, target, map);
  const glm::quat a = map.alignment();
  const auto source_rest = retarget_worlds(source, "", 0), target_rest = retarget_worlds(target, "", 0);
  ASSERT_EQ(map.pairs().size(), 22u);  // every profile bone but the fingers and eyes
  for (const double t : kKeyTimes) {
    const auto s = retarget_worlds(source, "walk", t), g = retarget_worlds(out, "walk", t);
    for (const RetargetPair& p : map.pairs()) {
      const glm::quat expected = a * rotation_delta(s, source_rest, p.source_node) * glm::inverse(a);
      EXPECT_LT(rotation_angle(rotation_delta(g, target_rest, p.target_node), expected), 1e-4f)
          << target.nodes[static_cast<std::size_t>(p.target_node)].name << " at " << t;
    }
  }
}

TEST(Retarget, RT4_BoneLengthsStayAndTheHipsMoveByTheHeightRatio) {
  const Model source = source_rig();
  const Model target = demo::humanoid_rig(target_spec(3));
  const RetargetMap map(source, target);
  EXPECT_NEAR(map.root_scale(), 60.f, 1e-3f);  // 0.6 of the height, in centimetres
  const Model out = retarget_clips(source, target, map);
  const auto source_rest = retarget_worlds(source, "", 0), target_rest = retarget_worlds(target, "", 0);
  const int source_hips = map.source_humanoid().node(HumanoidBone::Hips);
  const int target_hips = map.target_humanoid().node(HumanoidBone::Hips);
  for (const double t : kKeyTimes) {
    const auto s = retarget_worlds(source, "walk", t), g = retarget_worlds(out, "walk", t);
    for (std::size_t n = 2; n < target.nodes.size(); ++n) {
      if (static_cast<int>(n) == target_hips) continue;
      const auto p = static_cast<std::size_t>(target.nodes[n].parent);
      const float rest_length = glm::length(world_position(target_rest[n]) - world_position(target_rest[p]));
      EXPECT_NEAR(glm::length(world_position(g[n]) - world_position(g[p])), rest_length, 1e-4f * rest_length + 1e-5f)
          << target.nodes[n].name;
    }
    const auto sh = static_cast<std::size_t>(source_hips), th = static_cast<std::size_t>(target_hips);
    const glm::vec3 expected = map.root_scale() * (map.alignment() * (world_position(s[sh]) - world_position(source_rest[sh])));
    const glm::vec3 got = world_position(g[th]) - world_position(target_rest[th]);
    EXPECT_LT(glm::length(got - expected), 1e-4f * 60.f) << t;
  }
}

TEST(Retarget, RT5_AToBToAReturnsTheOriginal) {
  const Model a = source_rig();
  HumanoidRigSpec b_spec = target_spec(3);
  b_spec.extra_leaf = false;
  const Model b = demo::humanoid_rig(b_spec);
  const Model b_with_clip = retarget_clips(a, b, RetargetMap(a, b));
  const Model back = retarget_clips(b_with_clip, a, RetargetMap(b_with_clip, a), {.clips = {"walk"}, .prefix = "back_"});
  for (const double t : kKeyTimes) {
    const auto original = retarget_worlds(a, "walk", t), round_trip = retarget_worlds(back, "back_walk", t);
    for (std::size_t n = 0; n < original.size(); ++n)
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r) ASSERT_NEAR(original[n][c][r], round_trip[n][c][r], 1e-4f) << a.nodes[n].name << " at " << t;
  }
}

TEST(Retarget, RT6_UnmappedBonesHoldRestAndAShorterChainsEndKeepsTheSourceDirection) {
  const Model source = source_rig();
  const Model target = demo::humanoid_rig(target_spec(2));
  const RetargetMap map(source, target);
  ASSERT_EQ(map.rig().chains.size(), 1u);
  EXPECT_EQ(map.rig().chains[0].between.size(), 2u);
  const Model out = retarget_clips(source, target, map);
  int leaf = -1;
  for (std::size_t n = 0; n < target.nodes.size(); ++n)
    if (target.nodes[n].name == "HeadTop_End") leaf = static_cast<int>(n);
  ASSERT_GE(leaf, 0);
  const auto hips_s = static_cast<std::size_t>(map.source_humanoid().node(HumanoidBone::Hips));
  const auto neck_s = static_cast<std::size_t>(map.source_humanoid().node(HumanoidBone::Neck));
  const auto hips_t = static_cast<std::size_t>(map.target_humanoid().node(HumanoidBone::Hips));
  const auto neck_t = static_cast<std::size_t>(map.target_humanoid().node(HumanoidBone::Neck));
  for (const double t : kKeyTimes) {
    Animator animator(out);
    animator.play("walk");
    animator.update(ticks_from_seconds(t), false, false);
    const glm::mat4 local = animator.bone_transforms()[static_cast<std::size_t>(leaf)];
    EXPECT_EQ(local, target.nodes[static_cast<std::size_t>(leaf)].transform) << "an unmapped bone moved at " << t;
    const auto s = retarget_worlds(source, "walk", t);
    const auto g = std::vector<glm::mat4>(animator.absolute_bone_transforms().begin(), animator.absolute_bone_transforms().end());
    const glm::vec3 expected = glm::normalize(map.alignment() * (world_position(s[neck_s]) - world_position(s[hips_s])));
    const glm::vec3 got = glm::normalize(world_position(g[neck_t]) - world_position(g[hips_t]));
    EXPECT_LT(direction_angle(expected, got), 1e-4f) << t;
  }
}

TEST(Retarget, RT7_PinnedFeetReachTheirScaledTargets) {
  const Model source = source_rig();
  const Model target = demo::humanoid_rig(target_spec(3));
  const RetargetMap map(source, target);
  const Model out = retarget_clips(source, target, map, {.feet_ik = true});
  const auto source_rest = retarget_worlds(source, "", 0), target_rest = retarget_worlds(target, "", 0);
  int reached = 0;
  for (const double t : kKeyTimes) {
    const auto s = retarget_worlds(source, "walk", t), g = retarget_worlds(out, "walk", t);
    for (const auto& [upper, foot] : {std::pair{HumanoidBone::LeftUpperLeg, HumanoidBone::LeftFoot},
                                      std::pair{HumanoidBone::RightUpperLeg, HumanoidBone::RightFoot}}) {
      const auto fs = static_cast<std::size_t>(map.source_humanoid().node(foot));
      const auto ft = static_cast<std::size_t>(map.target_humanoid().node(foot));
      const auto ut = static_cast<std::size_t>(map.target_humanoid().node(upper));
      const glm::vec3 goal = world_position(target_rest[ft]) +
                             map.root_scale() * (map.alignment() * (world_position(s[fs]) - world_position(source_rest[fs])));
      const float leg = glm::length(world_position(target_rest[ft]) - world_position(target_rest[ut]));
      if (glm::length(goal - world_position(g[ut])) > 0.98f * leg) continue;  // out of reach
      EXPECT_LT(glm::length(world_position(g[ft]) - goal), 1e-4f * leg) << t;
      ++reached;
    }
  }
  EXPECT_GE(reached, 6);  // of 22: the random clip stretches the legs out of reach often
}

TEST(Retarget, RT2_RefusesWhatItCannotMap) {
  const Model source = source_rig();
  Model legless = demo::humanoid_rig(target_spec(3));
  for (ModelNode& node : legless.nodes)
    if (node.name == "LeftUpLeg") node.name = "Bonce";
  try {
    RetargetMap map(source, legless);
    FAIL() << "a rig without a left upper leg was mapped";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("leftUpperLeg"), std::string::npos) << e.what();
  }
  const Model target = demo::humanoid_rig(target_spec(3));
  EXPECT_THROW(RetargetMap(source, target, {.bone_map = {{"Nope", "Hips"}}}), std::invalid_argument);
  EXPECT_THROW(RetargetMap(source, target, {.bone_map = {{"Hips", "Nope"}}}), std::invalid_argument);
  EXPECT_THROW(RetargetMap(source, target, {.bone_map = {{"Hips", "Hips"}, {"Hips", "Spine"}}}), std::invalid_argument);
  EXPECT_THROW(RetargetMap(source, target, {.source_rest = RestPose{RestPose::Kind::Clip, "T-Pose", 0.0}}), std::invalid_argument);
  const RetargetMap map(source, target);
  EXPECT_THROW(retarget_clips(source, target, map, {.clips = {"run"}}), std::invalid_argument);
  const Model once = retarget_clips(source, target, map);
  EXPECT_THROW(retarget_clips(source, once, RetargetMap(source, once)), std::invalid_argument);  // "walk" twice
  EXPECT_THROW(parse_rest_pose("TPose"), std::invalid_argument);
  EXPECT_THROW(parse_rest_pose("TPose@-1"), std::invalid_argument);
  EXPECT_EQ(parse_rest_pose("a@b@0.5").clip, "a@b");
}

TEST(Retarget, RT3_AnExplicitMapPairsWhatItNames) {
  const Model source = source_rig();
  const Model target = demo::humanoid_rig(target_spec(3));
  const RetargetMap map(source, target, {.bone_map = {{"Hips", "hips"}, {"LeftArm", "LeftArm"}, {"Head", "Head"}}});
  ASSERT_EQ(map.pairs().size(), 3u);
  const Model out = retarget_clips(source, target, map);
  EXPECT_GE(out.find_animation("walk"), 0);
}

}  // namespace
}  // namespace marrow

namespace marrow {
namespace {

// Horizontal travel of the target's feet over the frames where the source's foot is planted
// (near its lowest and barely moving), summed over both feet: what a viewer sees as sliding.
struct Sliding {
  double plain = 0.0, pinned = 0.0;
  int planted_frames = 0;
};

Sliding foot_sliding(const Model& source, const Model& target, const std::string& clip) {
  const RetargetMap map(source, target);
  const Model plain = retarget_clips(source, target, map, {.clips = {clip}});
  const Model pinned = retarget_clips(source, target, map, {.clips = {clip}, .feet_ik = true});
  const double duration = seconds_from_ticks(source.animations[static_cast<std::size_t>(source.find_animation(clip))].duration);
  const int frames = static_cast<int>(duration * 30.0);
  // One node's world position at each frame (30 Hz) of the clip.
  const auto track = [&](const Model& model, std::size_t node) {
    Animator animator(model);
    animator.play(clip);
    std::vector<glm::vec3> out(static_cast<std::size_t>(frames));
    for (int f = 0; f < frames; ++f) {
      animator.update(ticks_from_seconds(f / 30.0), false, false);
      out[static_cast<std::size_t>(f)] = world_position(animator.absolute_bone_transforms()[node]);
    }
    return out;
  };
  Sliding out;
  for (const HumanoidBone foot : {HumanoidBone::LeftFoot, HumanoidBone::RightFoot}) {
    std::vector<glm::vec3> s = track(source, static_cast<std::size_t>(map.source_humanoid().node(foot)));
    for (glm::vec3& p : s) p = map.alignment() * p * map.root_scale();
    const auto ft = static_cast<std::size_t>(map.target_humanoid().node(foot));
    const std::vector<glm::vec3> a = track(plain, ft), b = track(pinned, ft);
    float lowest = 1e30f;
    for (const glm::vec3& p : s) lowest = std::min(lowest, p.y);
    for (std::size_t f = 1; f < s.size(); ++f) {
      const glm::vec2 step(s[f].x - s[f - 1].x, s[f].z - s[f - 1].z);
      const bool planted = s[f].y < lowest + 0.02f && glm::length(step) < 0.004f;  // target units: the rig is in metres
      if (!planted) continue;
      ++out.planted_frames;
      out.plain += glm::length(glm::vec2(a[f].x - a[f - 1].x, a[f].z - a[f - 1].z));
      out.pinned += glm::length(glm::vec2(b[f].x - b[f - 1].x, b[f].z - b[f - 1].z));
    }
  }
  return out;
}

TEST(Retarget, RT7_PinnedFeetSlideNoMoreThanWithout) {
  const std::filesystem::path walk = test::kAssets / "bvh/bandai-locomotion/dataset-2_walk_normal_001.bvh";
  const std::filesystem::path rig = test::kAssets / "gltf/KayKitRigMedium/manny_med_mod.gltf";
  if (!std::filesystem::exists(walk) || !std::filesystem::exists(rig)) GTEST_SKIP() << "shared assets absent: " << test::kAssets;
  const Model source = load_model_file(walk);
  const Sliding s = foot_sliding(source, load_model_file(rig), source.animations[0].name);
  ASSERT_GT(s.planted_frames, 30);
  EXPECT_LE(s.pinned, s.plain) << "planted frames " << s.planted_frames;
  // Measured: 0.52 m without, 0.05 m with (KayKit's legs are proportioned unlike the actor's).
  EXPECT_LT(s.pinned, 0.2 * s.plain);
  std::printf("foot sliding over %d planted frames: %.4f m without contacts, %.4f m with\n", s.planted_frames, s.plain, s.pinned);
}

}  // namespace
}  // namespace marrow

namespace marrow {
namespace {

// Live retargeting (live_retarget.hpp): the Animator plays the source clip through the map each
// frame; at the source's key times that is exactly the baked clip's pose.
void expect_live_equals_baked(bool feet_ik, int spines) {
  auto source = std::make_shared<Model>(source_rig());
  add_marker(*source, "walk", "step", ticks_from_seconds(0.45));
  const Model target = demo::humanoid_rig(target_spec(spines));
  const auto map = std::make_shared<const RetargetMap>(*source, target);
  const Model baked = retarget_clips(*source, target, *map, {.feet_ik = feet_ik});
  const Model live = retarget_live(source, target, map, {.feet_ik = feet_ik});
  ASSERT_TRUE(live.animations.back().live);
  EXPECT_NO_THROW(validate(live));
  Animator a(baked), b(live);
  a.play("walk");
  b.play("walk");
  for (const double t : kKeyTimes) {
    a.update(ticks_from_seconds(t), false, false);
    b.update(ticks_from_seconds(t), false, false);
    for (std::size_t n = 0; n < target.nodes.size(); ++n)
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
          ASSERT_NEAR(a.absolute_bone_transforms()[n][c][r], b.absolute_bone_transforms()[n][c][r], 1e-4f * 60.f)
              << target.nodes[n].name << " at " << t << (feet_ik ? " with contacts" : "");
  }
  // The source's markers are the live animation's events.
  Animator events(live);
  events.play("walk");
  events.update(ticks_from_seconds(0.5));
  ASSERT_EQ(events.events().size(), 1u);
  EXPECT_EQ(events.events()[0].name, "step");
}

TEST(Retarget, RT3_ALiveAnimationPlaysTheBakedPoseAtEveryKey) {
  expect_live_equals_baked(false, 3);
  expect_live_equals_baked(false, 2);  // a torso chain: the general path
}

TEST(Retarget, RT7_ALiveAnimationPinsTheFeetAsTheBakedOne) { expect_live_equals_baked(true, 3); }

TEST(Retarget, RT4_ALiveAnimationTakesRootMotionAsTheBakedOne) {
  auto source = std::make_shared<Model>(source_rig());
  const Model target = demo::humanoid_rig(target_spec(3));
  const auto map = std::make_shared<const RetargetMap>(*source, target);
  const Model baked = retarget_clips(*source, target, *map);
  const Model live = retarget_live(source, target, map);
  Animator a(baked), b(live);
  for (Animator* x : {&a, &b}) {
    x->enable_root_motion({.joint = "Hips"});
    x->play("walk");
  }
  for (int frame = 0; frame < 20; ++frame) {
    a.update(ticks_from_seconds(0.05));
    b.update(ticks_from_seconds(0.05));
  }
  const glm::vec3 moved = a.accumulated_root_motion().translation;
  EXPECT_GT(glm::length(moved), 1.f);  // centimetres: the hips walk forward
  EXPECT_LT(glm::length(moved - b.accumulated_root_motion().translation), 1e-3f * glm::length(moved));
}

TEST(Retarget, RT1_WritersRefuseALiveAnimation) {
  auto source = std::make_shared<Model>(source_rig());
  const Model target = demo::humanoid_rig(target_spec(3));
  const Model live = retarget_live(source, target, std::make_shared<const RetargetMap>(*source, target));
  try {
    (void)write_native(live);
    FAIL() << "a live animation was written";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"walk\" plays live"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)model_to_gltf(live), std::invalid_argument);
}

}  // namespace
}  // namespace marrow
