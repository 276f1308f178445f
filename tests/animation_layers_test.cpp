// The Animator's layered playback: blending (B2, B3), cross-fades (B4), rate and loop modes
// (B5), sync groups (B6), events (B7), root motion (R1) and IK chains (K1, K2), on a small rig
// whose poses are computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "demo/demo_character.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using namespace std::chrono_literals;

using test::near;
using test::throws_with;

// Scene nodes: 0 the synthetic root, 1 Hips (0, 1, 0), 2 Spine (0, 1, 0) and 3 Leg (0, -1, 0)
// under Hips, 4 Head (0, 1, 0) under Spine, 5 Prop (5, 0, 0) under the root (rigid).
// Palette (breadth-first from Hips): Hips 0, Spine 1, Leg 2, Head 3.
constexpr int kHips = 1, kSpine = 2, kLeg = 3, kHead = 4, kProp = 5;

Keyframe key(double seconds, glm::vec3 t, glm::quat r = glm::quat(1, 0, 0, 0)) {
  return Keyframe{ticks_from_seconds(seconds), t, r, glm::vec3(1.f)};
}

glm::quat about(glm::vec3 axis, float degrees) { return glm::angleAxis(glm::radians(degrees), axis); }

struct ClipSpec {
  std::string name;
  double duration;
  std::vector<BoneTrack> joint_tracks;  // palette indices
  std::vector<BoneTrack> node_tracks;   // scene nodes (rigid)
};

Model make_rig() {
  Model model;
  const glm::vec3 offsets[] = {{0, 0, 0}, {0, 1, 0}, {0, 1, 0}, {0, -1, 0}, {0, 1, 0}, {5, 0, 0}};
  const int parents[] = {-1, 0, 1, 1, 2, 0};
  const char* names[] = {"root", "Hips", "Spine", "Leg", "Head", "Prop"};
  for (int b = 0; b < 6; ++b) {
    model.nodes.push_back(ModelNode{names[b], parents[b], glm::translate(glm::mat4(1.f), offsets[b]), b - 1});
  }
  Skin skin = sized_skin(4, 6);
  skin.name = "Body";
  skin.palette_to_scene = {kHips, kSpine, kLeg, kHead};
  skin.data.skeleton_hierarchy = {-1, 0, 0, 1};
  std::vector<glm::mat4> worlds(4);
  for (int p = 0; p < 4; ++p) {
    const int node = skin.palette_to_scene[static_cast<std::size_t>(p)];
    skin.scene_to_palette[static_cast<std::size_t>(node)] = p;
    skin.data.bind_pose[static_cast<std::size_t>(p)] = model.nodes[static_cast<std::size_t>(node)].transform;
    const int parent = skin.data.skeleton_hierarchy[static_cast<std::size_t>(p)];
    worlds[static_cast<std::size_t>(p)] =
        (parent >= 0 ? worlds[static_cast<std::size_t>(parent)] : glm::mat4(1.f)) * skin.data.bind_pose[static_cast<std::size_t>(p)];
    skin.data.inverse_bind_pose[static_cast<std::size_t>(p)] = glm::inverse(worlds[static_cast<std::size_t>(p)]);
  }
  skin.data.skeleton_root_prefix.clear();
  const ClipSpec clips[] = {
      // Walk: the hips travel +2 in x per second, the leg swings forward in z.
      {"Walk", 1.0, {{0, {key(0, {0, 1, 0}), key(1, {2, 1, 0})}}, {2, {key(0, {0, -1, 0}), key(1, {0, -1, 1})}}},
       {{kProp, {key(0, {5, 0, 0}), key(1, {5, 2, 0})}}}},
      // Run: +4 in x per half second, the leg swings back.
      {"Run", 0.5, {{0, {key(0, {0, 1, 0}), key(0.5, {4, 1, 0})}}, {2, {key(0, {0, -1, 0}), key(0.5, {0, -1, -1})}}}, {}},
      // Wave: the spine turns a quarter about z; the leg kicks (a mask must keep it out).
      {"Wave", 1.0,
       {{1, {key(0, {0, 1, 0}), key(1, {0, 1, 0}, about({0, 0, 1}, 90))}}, {2, {key(0, {0, -1, 0}), key(1, {0, -1, -1})}}},
       {}},
      // Lean: the spine bends 30 degrees about x and rises 0.5.
      {"Lean", 1.0, {{1, {key(0, {0, 1, 0}), key(1, {0, 1.5f, 0}, about({1, 0, 0}, 30))}}}, {}},
      // Turn: the hips walk +1 in z per second while turning a half turn about y.
      {"Turn", 1.0, {{0, {key(0, {0, 1, 0}), key(0.5, {0, 1, 0.5f}, about({0, 1, 0}, 90)), key(1, {0, 1, 1}, about({0, 1, 0}, 180))}}}, {}},
  };
  for (const ClipSpec& c : clips) {
    AnimationClip clip;
    clip.name = c.name;
    clip.duration = ticks_from_seconds(c.duration);
    clip.tracks = c.joint_tracks;
    skin.data.animation_clips[c.name] = clip;
    ModelAnimation animation;
    animation.name = c.name;
    animation.duration = clip.duration;
    animation.scene_clip.name = c.name;
    animation.scene_clip.duration = clip.duration;
    animation.scene_clip.target_space = ClipTargetSpace::SceneNode;
    animation.scene_clip.tracks = c.node_tracks;
    model.animations.push_back(animation);
  }
  skin.data.bone_count = 4;
  model.skins.push_back(skin);
  return model;
}

Ticks secs(double s) { return ticks_from_seconds(s); }

glm::vec3 world_position(const Animator& a, int node) { return glm::vec3(a.absolute_bone_transforms()[static_cast<std::size_t>(node)][3]); }
glm::vec3 local_position(const Animator& a, int node) { return glm::vec3(a.bone_transforms()[static_cast<std::size_t>(node)][3]); }

TEST(AnimationLayers, B2_TwoLayersAtEqualWeightsBlendHalfAndHalf) {
  const Model model = make_rig();
  Animator a(model);
  a.play("Walk", {.start = 500ms});           // hips x = 1, leg z = 0.5
  a.play("Run", {.start = 250ms, .layer = 1});  // hips x = 2, leg z = -0.5
  EXPECT_TRUE(near(local_position(a, kHips), {1.5f, 1, 0}));
  EXPECT_TRUE(near(local_position(a, kLeg), {0, -1, 0}));
  // Weights are relative: 0.25 and 0.75 of the two.
  a.set_layer_weight(0, 0.5f);
  a.set_layer_weight(1, 1.5f);
  a.update(Ticks{0});
  EXPECT_TRUE(near(local_position(a, kHips), {0.25f * 1 + 0.75f * 2, 1, 0}));
  // The skin's palette follows the blend (the joint matrix of the hips: world * inverse bind).
  EXPECT_TRUE(near(glm::vec3(a.player(0).skin_transforms()[0][3]), {1.75f, 0, 0}));
}

TEST(AnimationLayers, B2_AMaskedLayerLeavesTheLegsAlone) {
  const Model model = make_rig();
  Animator a(model);
  a.play("Walk", {.start = 500ms});
  a.set_layer(1, {.mask = "Spine"});
  a.play("Wave", {.loop = LoopMode::Once, .start = 1s, .layer = 1});  // the spine a quarter turn, the leg kicked
  EXPECT_TRUE(near(local_position(a, kLeg), {0, -1, 0.5f})) << "the leg is Walk's alone";
  EXPECT_TRUE(near(local_position(a, kHips), {1, 1, 0})) << "the hips are Walk's alone";
  // The spine: half of Walk's identity and half of Wave's quarter turn = an eighth of a turn.
  const glm::quat spine = glm::quat_cast(glm::mat3(a.bone_transforms()[kSpine]));
  EXPECT_TRUE(test::same_rotation(spine, about({0, 0, 1}, 45)));
  // Head (below the spine) is in the mask too, but neither clip drives it: its rest.
  EXPECT_TRUE(near(local_position(a, kHead), {0, 1, 0}));
}

TEST(AnimationLayers, B2_AMaskedLayerLeavesTheRigidNodesOutsideItAlone) {
  const Model model = make_rig();
  Animator a(model);
  a.play("Walk", {.start = 500ms});  // hips x = 1, the prop at y = 1
  a.set_layer(1, {.mask = "Hips"});  // the skin's subtree: the prop (under the root) is outside
  a.play("Walk", {.loop = LoopMode::Once, .start = 1s, .layer = 1});  // hips x = 2, the prop at y = 2
  EXPECT_TRUE(near(local_position(a, kHips), {1.5f, 1, 0})) << "inside the mask: half and half";
  EXPECT_TRUE(near(local_position(a, kProp), {5, 1, 0})) << "outside it: the first layer's alone (1.5 unmasked)";
}

TEST(AnimationLayers, B2_RigidNodesAndTheFillBelowTheThreshold) {
  const Model model = make_rig();
  Animator a(model);
  a.play("Walk", {.start = 500ms});               // the prop at y = 1
  a.play("Run", {.layer = 1});                  // no prop track: the prop at rest there
  EXPECT_TRUE(near(local_position(a, kProp), {5, 0.5f, 0}));
  // One layer at weight 0.04 (below the 0.1 threshold): the rest joins with 0.06.
  a.stop(1);
  a.set_layer_weight(0, 0.04f);
  a.update(Ticks{0});
  EXPECT_TRUE(near(local_position(a, kHips), {0.4f * 1, 1, 0}));
  EXPECT_TRUE(near(local_position(a, kProp), {5, 0.4f, 0}));
}

TEST(AnimationLayers, B2_B3_MorphWeightsBlendWithTheLayersWeights) {
  const Model model = make_demo_character();  // Wave and Curl animate the tentacle's two targets
  const auto weights_of = [&](const char* clip, double t) {
    return evaluate_morph_weights(model.animations[static_cast<std::size_t>(model.find_animation(clip))].morph_channels[0].track, t);
  };
  Animator a(model);
  a.play("Wave", {.start = 500ms});
  a.set_layer(1, {.weight = 3.f, .mask = "", .additive = false});
  a.play("Curl", {.start = 1s, .layer = 1});
  const std::vector<float> wave = weights_of("Wave", 0.5), curl = weights_of("Curl", 1.0);
  ASSERT_EQ(a.morph_weights(0).size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_NEAR(a.morph_weights(0)[i], 0.25f * wave[i] + 0.75f * curl[i], 1e-6f);
  // Additive: Curl's weights at 1 s minus its first frame's, on top of Wave's.
  a.set_layer(1, {.weight = 1.f, .mask = "", .additive = true});
  a.update(Ticks{0});
  const std::vector<float> curl0 = weights_of("Curl", 0.0);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_NEAR(a.morph_weights(0)[i], wave[i] + curl[i] - curl0[i], 1e-6f);
}

TEST(AnimationLayers, B3_AnAdditiveLayerAtWeightOneOverItsReferenceReproducesTheClip) {
  const Model model = make_rig();
  Animator alone(model), layered(model);
  for (double t : {0.0, 0.3, 0.7, 1.0}) {
    alone.play("Lean", {.loop = LoopMode::Once, .start = ticks_from_seconds(t)});
    layered.play("Lean", {.rate = 0.f});  // the base holds Lean's first frame: its reference
    layered.set_layer(1, {.additive = true});
    layered.play("Lean", {.loop = LoopMode::Once, .start = ticks_from_seconds(t), .layer = 1});
    EXPECT_TRUE(near(layered.bone_transforms()[kSpine], alone.bone_transforms()[kSpine], 1e-5f)) << t;
  }
  // At weight 0.5: half the rise (0.25) and the rotation nlerp(identity, 30 deg, 0.5) = 15 deg.
  layered.set_layer_weight(1, 0.5f);
  layered.update(Ticks{0});
  EXPECT_TRUE(near(local_position(layered, kSpine), {0, 1.25f, 0}));
  const glm::quat spine = glm::quat_cast(glm::mat3(layered.bone_transforms()[kSpine]));
  EXPECT_TRUE(test::same_rotation(spine, about({1, 0, 0}, 15), 1e-6f));
  // At weight 0: nothing.
  layered.set_layer_weight(1, 0.f);
  layered.update(Ticks{0});
  EXPECT_TRUE(near(layered.bone_transforms()[kSpine], model.nodes[kSpine].transform));
}

TEST(AnimationLayers, B4_ACrossFadeWeighsBothClipsByItsProgressWhileBothAdvance) {
  const Model model = make_rig();
  Animator a(model);
  a.play("Walk");
  a.update(secs(0.2));
  a.play("Run", {.fade = 400ms});
  EXPECT_TRUE(near(local_position(a, kHips), {0.4f, 1, 0})) << "u = 0: all Walk";
  a.update(secs(0.2));  // u = 0.5: Walk at 0.4 (x 0.8), Run at 0.2 (x 1.6)
  EXPECT_TRUE(near(local_position(a, kHips), {1.2f, 1, 0}));
  EXPECT_EQ(a.current_animation(), model.find_animation("Run"));
  a.update(secs(0.2));  // u = 1: Walk is dropped; Run at 0.4 (x 3.2)
  EXPECT_TRUE(near(local_position(a, kHips), {3.2f, 1, 0}));
  // A smooth curve: at u = 0.25 the new clip weighs 3u^2 - 2u^3 = 0.15625.
  a.play("Walk", {.fade = 400ms, .curve = FadeCurve::Smooth});
  a.update(secs(0.1));  // Run at 0.5 (0.4 + 0.1 wraps to 0: x 0), Walk at 0.1 (x 0.2)
  EXPECT_TRUE(near(local_position(a, kHips), {0.15625f * 0.2f, 1, 0}));
  // Fading a layer out to nothing: the rest pose.
  a.stop(0, 200ms);
  a.update(secs(0.3));
  EXPECT_EQ(a.current_animation(), -1);
  EXPECT_TRUE(near(local_position(a, kHips), {0, 1, 0}));
}

TEST(AnimationLayers, B5_SignedRateAndTheThreeLoopModes) {
  const Model model = make_rig();
  Animator a(model);
  a.play("Walk", {.rate = -1.f});
  a.update(secs(0.25));  // backward from 0 wraps to 0.75
  EXPECT_EQ(a.current_time(), secs(0.75));
  EXPECT_TRUE(near(local_position(a, kHips), {1.5f, 1, 0}));
  a.set_rate(0, 2.f);
  a.update(secs(0.25));  // forward twice as fast: 1.25 -> 0.25
  EXPECT_EQ(a.current_time(), secs(0.25));
  a.play("Walk", {.rate = 2.f, .loop = LoopMode::Once});
  a.update(secs(0.4));
  EXPECT_FALSE(a.finished());
  a.update(secs(0.4));
  EXPECT_TRUE(a.finished());
  EXPECT_EQ(a.current_time(), secs(1.0));
  EXPECT_TRUE(near(local_position(a, kHips), {2, 1, 0})) << "Once holds the last frame";
  a.play("Walk", {.loop = LoopMode::PingPong});
  a.update(secs(1.3));
  EXPECT_EQ(a.current_time(), secs(0.7));
  EXPECT_FALSE(a.finished());
}

TEST(AnimationLayers, B6_ASyncGroupKeepsEveryClipAtTheSameNormalizedTime) {
  const Model model = make_rig();
  Animator a(model);
  a.play("Walk", {.sync_group = 0});                // Walk: a 1 s cycle
  a.update(secs(0.3));                               // alone: normalized time 0.3
  a.play("Run", {.layer = 1, .sync_group = 0});     // Run (0.5 s) joins at 0.3, not at its start
  EXPECT_EQ(a.current_time(1), secs(0.15));
  // Equal weights: the group's cycle is (1 + 0.5) / 2 = 0.75 s, so 0.3 s moves it by 0.4.
  a.update(secs(0.3));
  EXPECT_EQ(a.current_time(0), secs(0.7));
  EXPECT_EQ(a.current_time(1), secs(0.35));
  EXPECT_TRUE(near(local_position(a, kHips), {(1.4f + 2.8f) / 2, 1, 0}));
  // Run weighs 3 now: it leads, and the cycle is (1 * 1 + 3 * 0.5) / 4 = 0.625 s.
  a.set_layer_weight(1, 3.f);
  a.update(secs(0.25));  // 0.4 more: 1.1, i.e. 0.1 into the next cycle
  EXPECT_EQ(a.current_time(0), secs(0.1));
  EXPECT_EQ(a.current_time(1), secs(0.05));
  // Minutes of frames keep the two in step to the tick; a hostile step keeps them in their clips.
  for (int frame = 0; frame < 30'000; ++frame) a.update(secs(1.0 / 60));
  EXPECT_LE(std::llabs(a.current_time(0).count() - 2 * a.current_time(1).count()), 1);
  a.update(Ticks{std::numeric_limits<std::int64_t>::max()});
  EXPECT_GE(a.current_time(0), Ticks{0});
  EXPECT_LT(a.current_time(0), secs(1.0));
  EXPECT_LT(a.current_time(1), secs(0.5));
  EXPECT_LE(std::llabs(a.current_time(0).count() - 2 * a.current_time(1).count()), 1);
}

TEST(AnimationLayers, B7_EventsInOrderAcrossAWrapAndInReverse) {
  Model model = make_rig();
  add_marker(model, "Walk", "left", 250ms);
  add_marker(model, "Walk", "right", 750ms);
  add_marker(model, "Walk", "start", 0s);
  Animator a(model);
  const auto names = [&] {
    std::vector<std::string> out;
    for (const AnimationEvent& e : a.events()) out.emplace_back(e.name);
    return out;
  };
  a.play("Walk");
  a.update(secs(0.5));
  EXPECT_EQ(names(), (std::vector<std::string>{"start", "left"}));
  a.update(secs(0.6));   // (0.5, 1] then [0, 0.1]: across the wrap
  EXPECT_EQ(names(), (std::vector<std::string>{"right", "start"}));
  a.set_rate(0, -1.f);
  a.update(secs(0.5));   // back from 0.1 to 0 (start), wrap, 1 down to 0.6 (right)
  EXPECT_EQ(names(), (std::vector<std::string>{"start", "right"}));
  a.update(secs(2.0));   // two whole backward cycles: each crossing once, in order
  EXPECT_EQ(names(), (std::vector<std::string>{"left", "start", "right", "left", "start", "right"}));
  ASSERT_FALSE(a.events().empty());
  EXPECT_EQ(a.events()[0].animation, model.find_animation("Walk"));
  EXPECT_EQ(a.events()[0].time, secs(0.25));
}

TEST(AnimationLayers, R1_RootMotionIsTakenOutOfThePoseAndSumsToTheClipsDisplacement) {
  const Model model = make_rig();
  Animator a(model);
  a.enable_root_motion({.joint = "Hips"});
  a.play("Walk");
  glm::vec3 sum(0.f);
  for (int frame = 0; frame < 60; ++frame) {
    a.update(secs(1.0 / 60));
    sum += a.root_motion().translation;
    // The hips stay above their start; the leg still swings (it is not the root).
    ASSERT_TRUE(near(world_position(a, kHips), {0, 1, 0}, 1e-5f)) << frame;
  }
  EXPECT_TRUE(near(sum, {2, 0, 0}, 1e-4f)) << "one full cycle: the clip's end-minus-start motion";
  EXPECT_TRUE(near(a.accumulated_root_motion().translation, {2, 0, 0}, 1e-4f));
  // Across a wrap: (end - previous) + (current - start).
  a.play("Walk", {.start = 900ms});
  a.update(secs(0.2));
  EXPECT_TRUE(near(a.root_motion().translation, {2 * 0.1f + 2 * 0.1f, 0, 0}, 1e-5f));
  // Yaw: Turn walks +1 in z while turning half a turn; with yaw taken out the hips keep facing.
  Animator t(model);
  t.enable_root_motion({.joint = "Hips", .yaw = true});
  t.play("Turn");
  t.update(secs(0.5));
  EXPECT_NEAR(t.root_motion().yaw, glm::radians(90.f), 1e-5f);
  EXPECT_TRUE(near(t.root_motion().translation, {0, 0, 0.5f}, 1e-5f));
  EXPECT_TRUE(test::same_rotation(glm::quat_cast(glm::mat3(t.absolute_bone_transforms()[kHips])), glm::quat(1, 0, 0, 0)));
}

// The same rig turned Z-up (its root node a quarter turn about +X) and read with up = +Z moves
// as the Y-up rig does, turned: the same delta turned, the same yaw, the pose turned.
TEST(AnimationLayers, R1_AZUpSceneReadWithItsUpAxisMovesAsTheYUpScene) {
  const Model y_up = make_rig();
  Model z_up = make_rig();
  const glm::mat4 turn = glm::rotate(glm::mat4(1.f), glm::radians(90.f), glm::vec3(1.f, 0.f, 0.f));  // +Y to +Z
  z_up.nodes[0].transform = turn;
  for (const char* clip : {"Walk", "Turn"}) {
    Animator a(y_up), b(z_up);
    a.enable_root_motion({.joint = "Hips", .yaw = true});
    b.enable_root_motion({.joint = "Hips", .yaw = true, .up = {0.f, 0.f, 1.f}});
    a.play(clip);
    b.play(clip);
    for (int frame = 0; frame < 40; ++frame) {
      a.update(secs(1.0 / 60));
      b.update(secs(1.0 / 60));
      ASSERT_TRUE(near(b.root_motion().translation, glm::mat3(turn) * a.root_motion().translation, 1e-5f)) << clip << " " << frame;
      ASSERT_NEAR(b.root_motion().yaw, a.root_motion().yaw, 1e-5f) << clip << " " << frame;
      for (const int node : {kHips, kHead}) {
        ASSERT_TRUE(near(world_position(b, node), glm::vec3(turn * glm::vec4(world_position(a, node), 1.f)), 1e-5f)) << clip << " " << frame;
      }
    }
    EXPECT_GT(glm::length(a.accumulated_root_motion().translation), 0.3f) << clip << ": it moved";
  }
  Animator c(z_up);
  EXPECT_THROW(c.enable_root_motion({.up = {0.f, 0.f, 0.f}}), std::invalid_argument);
  EXPECT_THROW(c.enable_root_motion({.up = {0.f, std::nanf(""), 1.f}}), std::invalid_argument);
}

TEST(AnimationLayers, K1_TwoBoneIkPlacesTheHeadOnAReachableTarget) {
  const Model model = make_rig();
  Animator a(model);
  const std::size_t chain = a.add_two_bone_ik("Hips", "Spine", "Head");
  a.set_two_bone_ik(chain, {1, 2, 0}, 1.f, glm::vec3(5, 2, 0));
  a.update(Ticks{0});
  EXPECT_TRUE(a.two_bone_ik(chain).reached);
  EXPECT_TRUE(near(world_position(a, kHead), {1, 2, 0}, 1e-5f));
  EXPECT_NEAR(glm::distance(world_position(a, kSpine), world_position(a, kHips)), 1.f, 1e-5f);
  EXPECT_TRUE(near(world_position(a, kProp), {5, 0, 0})) << "outside the chain's subtree: unmoved";
  a.set_two_bone_ik(chain, {1, 2, 0}, 0.f);
  a.update(Ticks{0});
  EXPECT_TRUE(near(world_position(a, kHead), {0, 3, 0}));
}

// After IK only the chain's subtree is composed again (the Animator stops where that subtree
// ends): every node's world is still its parent's world times its local, the other nodes are
// exactly where they are without IK, and the foot's children follow the foot.
TEST(AnimationLayers, K1_IkComposesTheChainsSubtreeAndLeavesTheRest) {
  const auto file = std::filesystem::path(MARROW_SHARED_ASSETS) / "gltf" / "Fox" / "Fox.gltf";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const Model model = load_model_file(file);
  const auto node = [&](const char* name) {
    for (std::size_t i = 0; i < model.nodes.size(); ++i) {
      if (model.nodes[i].name == name) return static_cast<int>(i);
    }
    ADD_FAILURE() << name;
    return 0;
  };
  const int thigh = node("b_LeftLeg01_015"), shin = node("b_LeftLeg02_016"), foot = node("b_LeftFoot01_017");
  const int toe = node("b_LeftFoot02_018");
  Animator plain(model), ik(model);
  plain.play("Walk");
  ik.play("Walk");
  const std::size_t chain = ik.add_two_bone_ik("b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017");
  plain.update(ticks_from_seconds(0.3));
  const glm::vec3 lifted = glm::mix(world_position(plain, foot), world_position(plain, thigh), 0.2f);
  ik.set_two_bone_ik(chain, lifted);
  ik.update(ticks_from_seconds(0.3));
  EXPECT_TRUE(ik.two_bone_ik(chain).reached);
  const float scale = glm::distance(world_position(plain, thigh), world_position(plain, foot));
  EXPECT_LT(glm::distance(world_position(ik, foot), lifted), 1e-4f * scale);
  const auto worlds = ik.absolute_bone_transforms();
  const auto locals = ik.bone_transforms();
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const int parent = model.nodes[i].parent;
    if (parent < 0) continue;
    const glm::mat4 expected = worlds[static_cast<std::size_t>(parent)] * locals[i];
    for (int c = 0; c < 4; ++c) {
      EXPECT_TRUE(near(glm::vec3(worlds[i][c]), glm::vec3(expected[c]), 1e-4f * scale)) << "node " << i << " column " << c;
    }
    const bool moved = static_cast<int>(i) == thigh || static_cast<int>(i) == shin || static_cast<int>(i) == foot ||
                       static_cast<int>(i) == toe;
    if (!moved) {
      EXPECT_EQ(worlds[i], plain.absolute_bone_transforms()[i]) << "node " << i << " is outside the chain";
    }
  }
  EXPECT_GT(glm::distance(world_position(ik, toe), world_position(plain, toe)), 1e-3f * scale) << "the toe follows the foot";
}

// Chains run in the order added, each seeing the corrections of the ones before; the Animator
// solves two chains together when neither moves the other's joints (both legs). Here: the left
// leg, the right leg (solved with it), then the left shin -> foot -> toe, which lies in the left
// leg's subtree and must wait for its correction. Each side ends as an Animator with only that
// side's chains leaves it, bit for bit, and every end is on its target.
TEST(AnimationLayers, K1_ChainsRunInOrderAndBothLegsAreSolvedTogether) {
  const auto file = std::filesystem::path(MARROW_SHARED_ASSETS) / "gltf" / "Fox" / "Fox.gltf";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const Model model = load_model_file(file);
  Animator plain(model), all(model), left(model), right(model);
  for (Animator* a : {&plain, &all, &left, &right}) a->play("Walk");
  plain.update(ticks_from_seconds(0.3));
  const auto at = [&](const char* name) {
    for (std::size_t i = 0; i < model.nodes.size(); ++i)
      if (model.nodes[i].name == name) return world_position(plain, static_cast<int>(i));
    ADD_FAILURE() << name;
    return glm::vec3(0.f);
  };
  const glm::vec3 left_foot = glm::mix(at("b_LeftFoot01_017"), at("b_LeftLeg01_015"), 0.2f);
  const glm::vec3 right_foot = glm::mix(at("b_RightFoot01_021"), at("b_RightLeg01_019"), 0.25f);
  const glm::vec3 toe = left_foot + 0.9f * (at("b_LeftFoot02_018") - at("b_LeftFoot01_017"));
  const auto add_left = [&](Animator& a) {
    a.set_two_bone_ik(a.add_two_bone_ik("b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017"), left_foot);
  };
  const auto add_right = [&](Animator& a) {
    a.set_two_bone_ik(a.add_two_bone_ik("b_RightLeg01_019", "b_RightLeg02_020", "b_RightFoot01_021"), right_foot);
  };
  const auto add_toe = [&](Animator& a) {
    a.set_two_bone_ik(a.add_two_bone_ik("b_LeftLeg02_016", "b_LeftFoot01_017", "b_LeftFoot02_018"), toe);
  };
  add_left(all), add_right(all), add_toe(all);
  add_left(left), add_toe(left);
  add_right(right);
  for (Animator* a : {&all, &left, &right}) a->update(ticks_from_seconds(0.3));
  EXPECT_TRUE(all.two_bone_ik(1).reached && all.two_bone_ik(2).reached);
  const float scale = glm::distance(at("b_LeftLeg01_015"), at("b_LeftFoot01_017"));
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const std::string& name = model.nodes[i].name;
    const Animator& side = name.find("Left") != std::string::npos ? left : right;
    EXPECT_EQ(all.absolute_bone_transforms()[i], side.absolute_bone_transforms()[i]) << name;
    if (name == "b_LeftFoot02_018") {
      EXPECT_LT(glm::distance(world_position(all, static_cast<int>(i)), toe), 1e-4f * scale);
    }
    if (name == "b_RightFoot01_021") {
      EXPECT_LT(glm::distance(world_position(all, static_cast<int>(i)), right_foot), 1e-4f * scale);
    }
  }
}

TEST(AnimationLayers, K2_AimIkTurnsTheHeadsForwardAxisToTheTarget) {
  const Model model = make_rig();
  Animator a(model);
  const std::size_t aim = a.add_aim_ik("Head", {0, 0, 1});
  a.set_aim_ik(aim, {3, 3, 0});
  a.update(Ticks{0});
  const glm::mat4& head = a.absolute_bone_transforms()[kHead];
  const glm::vec3 forward = glm::normalize(glm::vec3(head[2]));
  EXPECT_TRUE(near(forward, {1, 0, 0}, 1e-5f));
}

TEST(AnimationLayers, BadInputIsRefusedNamingTheValue) {
  const Model model = make_rig();
  Animator a(model);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.set_layer_weight(0, -1.f); }, {"weight", "-1"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.set_layer_weight(1, nan); }, {"weight", "nan"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.play("Walk", {.rate = nan}); }, {"rate", "nan"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.play("Walk", {.fade = -500ms}); }, {"fade", "-0.5"}));
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { a.set_layer(1, {.mask = "Tail"}); }, {"Tail"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.add_two_bone_ik("Hips", "Leg", "Head"); },
                                                 {"Hips", "Leg", "Head", "parent -> child -> grandchild"}));
  const std::size_t chain = a.add_two_bone_ik("Hips", "Spine", "Head");
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.set_two_bone_ik(chain, {nan, 0, 0}); }, {"target", "nan"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.set_two_bone_ik(chain, {0, 0, 0}, 2.f); }, {"weight", "2"}));
  const std::vector<float> short_mask(3, 1.f);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { a.set_layer_mask(0, short_mask); }, {"3 weights", "6 nodes"}));
  // Nothing refused left a NaN behind.
  a.play("Walk");
  a.update(secs(0.5));
  for (const glm::mat4& m : a.absolute_bone_transforms()) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) ASSERT_TRUE(std::isfinite(m[c][r]));
    }
  }
}

}  // namespace
}  // namespace marrow
