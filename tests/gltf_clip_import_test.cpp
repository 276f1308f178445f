// glTF import: clips, rigid clips, diagnostics, morph weights, unit scale (G9-G11, G16-G18).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "gltf_fixture.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/unit_scale.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using gltf::SamplerInterpolation;
using test::Fixture;
using test::MeshData;
using test::near;

// One animated node "Mover" (rigid, no skin), with a child so the scene has some depth.
struct RigidFixture {
  Fixture f;
  std::uint32_t mover, anim;
  RigidFixture() {
    mover = f.node("Mover", {0, 0, 5}, glm::quat(1, 0, 0, 0), {1, 2, 1});
    const auto child = f.node("Child", {1, 0, 0});
    f.child(mover, child);
    f.scene({mover});
    anim = f.animation("Go");
  }
  // The Mover's local translation (or rotation) after playing the clip at t.
  glm::mat4 local_at(const Model& model, double t) {
    Animator a(model);
    a.play(0);
    a.update(ticks_from_seconds(t), false, false);
    return a.bone_transforms()[static_cast<std::size_t>(model.source.node_to_bone[mover])];
  }
};

TEST(GltfClips, G9_ThreeKeyStepPlays0_10_20) {
  RigidFixture r;
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Step, {0.f, 1.f, 2.f}, {0, 0, 0, 10, 0, 0, 20, 0, 0});
  for (bool union_only : {true, false}) {
    ImportOptions options;
    options.union_only = union_only;
    const Model model = r.f.import(options);
    SCOPED_TRACE(union_only ? "union_only" : "accurate");
    // At exactly the next key time the next value is already in force (half-open intervals).
    EXPECT_FLOAT_EQ(r.local_at(model, 0.0)[3].x, 0.f);
    EXPECT_FLOAT_EQ(r.local_at(model, 1.0)[3].x, 10.f);
    EXPECT_FLOAT_EQ(r.local_at(model, 2.0)[3].x, 20.f);
    EXPECT_FLOAT_EQ(r.local_at(model, 3.0)[3].x, 20.f);
    // Missing channels hold the bind pose: the node's scale of 2 in y stays.
    EXPECT_FLOAT_EQ(glm::length(glm::vec3(r.local_at(model, 1.5)[1])), 2.f);
  }
  // Between keys: the seed's union keys are lerped by the player; accurate mode holds the step.
  ImportOptions seed;
  seed.union_only = true;
  EXPECT_FLOAT_EQ(r.local_at(r.f.import(seed), 0.5)[3].x, 5.f);
  EXPECT_FLOAT_EQ(r.local_at(r.f.import(), 0.5)[3].x, 0.f);
  EXPECT_FLOAT_EQ(r.local_at(r.f.import(), 0.9999)[3].x, 0.f);
}

TEST(GltfClips, G9_UnionOfKeyTimesEachChannelByItsOwnInterpolation) {
  RigidFixture r;
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 2.f}, {0, 0, 0, 4, 0, 0});
  const glm::quat q = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 1, 0));
  r.f.channel(r.anim, r.mover, "rotation", SamplerInterpolation::Step, {0.f, 0.5f}, {0, 0, 0, 1, q.x, q.y, q.z, q.w});
  ImportOptions options;
  options.union_only = true;
  const Model model = r.f.import(options);
  ASSERT_EQ(model.animations.size(), 1u);
  const AnimationClip& clip = model.animations[0].scene_clip;
  EXPECT_EQ(clip.target_space, ClipTargetSpace::SceneNode);
  ASSERT_EQ(clip.tracks.size(), 1u);
  const auto& keys = clip.tracks[0].keys;
  ASSERT_EQ(keys.size(), 3u);  // union of {0, 2} and {0, 0.5}
  EXPECT_EQ(keys[1].time, ticks_from_seconds(0.5));
  EXPECT_TRUE(near(keys[1].translation, {1, 0, 0}));  // linear translation evaluated at 0.5
  EXPECT_TRUE(test::same_rotation(keys[1].rotation, q));  // step rotation already at its new value
  EXPECT_TRUE(test::same_rotation(keys[2].rotation, q));
  EXPECT_EQ(model.animations[0].duration, ticks_from_seconds(2.0)) << "the largest input time";
}

TEST(GltfClips, G9_CubicSplineIsHermiteWithIntervalScaledTangents) {
  RigidFixture r;
  // Keys at 0 and 2 s: value 0 -> 1 on x, out-tangent 1 at key 0, in-tangent 3 at key 1.
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::CubicSpline, {0.f, 2.f},
              {0, 0, 0, /*v0*/ 0, 0, 5, /*out0*/ 1, 0, 0,
               /*in1*/ 3, 0, 0, /*v1*/ 1, 0, 5, 0, 0, 0});
  const auto hermite = [](double t) {
    const double s = t / 2.0, dt = 2.0, s2 = s * s, s3 = s2 * s;
    return (s3 - 2 * s2 + s) * dt * 1.0 + (-2 * s3 + 3 * s2) * 1.0 + (s3 - s2) * dt * 3.0;
  };
  ImportOptions seed;
  seed.union_only = true;
  const Model exact_at_keys = r.f.import(seed);
  EXPECT_NEAR(r.local_at(exact_at_keys, 2.0)[3].x, 1.f, 1e-6f);
  EXPECT_NEAR(r.local_at(exact_at_keys, 1.0)[3].x, 0.5f, 1e-6f) << "seed: linear between union keys";
  // Accurate mode: within curve_tolerance (1e-6) relative to the channel's magnitude (5, from
  // z), plus float rounding.
  const Model accurate = r.f.import();
  for (double t : {0.1, 0.37, 0.5, 1.0, 1.3, 1.77, 1.99}) {
    EXPECT_NEAR(r.local_at(accurate, t)[3].x, hermite(t), 5e-6 + 1e-6) << "t = " << t;
  }
}

TEST(GltfClips, G9_ResamplingACubicSplineChargesTheKeyBudgetWithItsOneWording) {
  RigidFixture r;
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::CubicSpline, {0.f, 2.f},
              {0, 0, 0, 0, 0, 5, 1, 0, 0, 3, 0, 0, 1, 0, 5, 0, 0, 0});
  // Two declared keys pass the document's check; the bisection points past the limit do not.
  ImportOptions tight;
  tight.limits.max_animation_keys = 4;
  EXPECT_TRUE(test::throws_with<ImportError>(
      [&] { r.f.import(tight); },
      {"resampled animation keys: ", " more animation keys after ", "exceed ImportLimits::max_animation_keys (4)"}));
  ImportOptions seed = tight;  // the seed's union of key times adds none
  seed.union_only = true;
  EXPECT_NO_THROW(r.f.import(seed));
}

TEST(GltfClips, G9_CubicRotationsAreRenormalised) {
  RigidFixture r;
  const glm::quat a(1, 0, 0, 0), b = glm::angleAxis(glm::radians(120.f), glm::vec3(0, 0, 1));
  r.f.channel(r.anim, r.mover, "rotation", SamplerInterpolation::CubicSpline, {0.f, 1.f},
              {0, 0, 0, 0, a.x, a.y, a.z, a.w, 0, 0, 0, 0,
               0, 0, 0, 0, b.x, b.y, b.z, b.w, 0, 0, 0, 0});
  const Model model = r.f.import();
  for (const Keyframe& key : model.animations[0].scene_clip.tracks[0].keys) {
    ASSERT_NEAR(glm::length(key.rotation), 1.f, 1e-6f);
  }
  // Component-wise Hermite with zero tangents, then normalised: the exact curve at t = 0.3.
  const double s = 0.3, h01 = -2 * s * s * s + 3 * s * s;
  glm::dquat exact((1 - h01) * a.w + h01 * b.w, 0, 0, (1 - h01) * a.z + h01 * b.z);
  exact = glm::normalize(exact);
  const Trs got = decompose_trs(r.local_at(model, 0.3));
  EXPECT_TRUE(test::same_rotation(got.rotation, glm::quat(float(exact.w), 0, 0, float(exact.z)), 2e-6f));
}

TEST(GltfClips, G10_RigidChannelsBecomeSceneNodeClipsAlsoOnSkinnedModels) {
  Fixture f;
  const auto joint = f.node("Joint"), body = f.node("Body"), lamp = f.node("Lamp", {0, 3, 0});
  f.scene({joint, body, lamp});
  MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.joints.assign(3, glm::u16vec4(0));
  m.weights.assign(3, glm::vec4(1, 0, 0, 0));
  f.doc().nodes[body].mesh = f.mesh(m);
  f.doc().nodes[body].skin = f.skin({joint}, {});
  const auto anim = f.animation("Both");
  f.channel(anim, joint, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0});
  f.channel(anim, lamp, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 3, 0, 0, 6, 0});
  const Model model = f.import();
  ASSERT_EQ(model.skins[0].data.animation_clips.count("Both"), 1u);
  const AnimationClip& skeletal = model.skins[0].data.animation_clips.at("Both");
  EXPECT_EQ(skeletal.target_space, ClipTargetSpace::JointPalette);
  ASSERT_EQ(skeletal.tracks.size(), 1u);
  EXPECT_EQ(skeletal.tracks[0].bone_index, 0) << "palette index";
  const AnimationClip& rigid = model.animations[0].scene_clip;
  ASSERT_EQ(rigid.tracks.size(), 1u) << "the rigid channel is kept although the model is skinned";
  EXPECT_EQ(rigid.tracks[0].bone_index, model.source.node_to_bone[lamp]) << "scene-node index";
  Animator a(model);
  a.play("Both");
  a.update(ticks_from_seconds(0.5), false);
  EXPECT_NEAR(a.absolute_bone_transforms()[static_cast<std::size_t>(model.source.node_to_bone[lamp])][3].y, 4.5f, 1e-6f);
  EXPECT_NEAR(a.player(0).world_transforms()[0][3].x, 0.5f, 1e-6f);
}

// glTF and Assimp name clips by one rule (src/io/unique_clip_name.hpp): a repeated name gets
// "_<index>", then "_2", "_3", ... until it is free, so every clip can be asked for by name.
TEST(GltfClips, G9_EveryClipGetsAUniqueNameWhateverTheFileRepeats) {
  Fixture f;
  const auto node = f.node("N");
  f.scene({node});
  for (const char* name : {"Run_2", "Run", "Run", ""}) {
    const auto anim = f.animation(name);
    f.channel(anim, node, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0});
  }
  const Model model = f.import();
  ASSERT_EQ(model.animations.size(), 4u);
  EXPECT_EQ(model.animations[0].name, "Run_2");
  EXPECT_EQ(model.animations[1].name, "Run");
  EXPECT_EQ(model.animations[2].name, "Run_2_2") << "Run_2 is taken by the first clip";
  EXPECT_EQ(model.animations[3].name, "animation_3");
}

TEST(GltfClips, G11_EveryChannelNotImportedIsCounted) {
  RigidFixture r;
  const auto outside = r.f.node("Elsewhere");
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0});
  r.f.channel(r.anim, outside, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0});
  r.f.channel(r.anim, outside, "scale", SamplerInterpolation::Linear, {0.f, 1.f}, {1, 1, 1, 2, 2, 2});
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 2, 0, 0});
  r.f.doc().animations[r.anim].channels.push_back(gltf::AnimationChannel{0, r.mover, "pointer"});
  r.f.doc().animations[r.anim].channels.push_back(gltf::AnimationChannel{0, r.mover, "weights"});
  const Model model = r.f.import();
  const Diagnostic* outside_scene = find_diagnostic(model.diagnostics, "channel-target-outside-scene");
  ASSERT_NE(outside_scene, nullptr);
  EXPECT_EQ(outside_scene->count, 2);
  EXPECT_NE(outside_scene->message.find("node 2"), std::string::npos) << outside_scene->message;
  ASSERT_NE(find_diagnostic(model.diagnostics, "unsupported-channel-path"), nullptr);
  ASSERT_NE(find_diagnostic(model.diagnostics, "duplicate-channel"), nullptr);
  ASSERT_NE(find_diagnostic(model.diagnostics, "weights-channel-without-morph-targets"), nullptr);
  EXPECT_EQ(model.animations[0].scene_clip.tracks.size(), 1u);
}

TEST(GltfClips, G9_BadSamplersAreRefusedNamingThem) {
  {
    RigidFixture r;
    r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f, 1.f}, {0, 0, 0, 1, 0, 0, 2, 0, 0});
    try {
      r.f.import();
      ADD_FAILURE() << "accepted non-increasing key times";
    } catch (const ImportError& e) {
      EXPECT_EQ(e.code(), ImportErrorCode::InvalidAnimation);
      EXPECT_NE(std::string(e.what()).find("animation 0 sampler 0"), std::string::npos) << e.what();
    }
  }
  {
    RigidFixture r;  // a NaN key time, patched into the buffer (the builder refuses to write one)
    r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0});
    const gltf::Document& d = r.f.doc();
    const gltf::Accessor& input = d.accessors[d.animations[r.anim].samplers[0].input];
    const float nan = std::nanf("");
    std::memcpy(r.f.builder().bin().data() + d.buffer_views[input.buffer_view].byte_offset + 4, &nan, 4);
    try {
      r.f.import();
      ADD_FAILURE() << "accepted a NaN key time";
    } catch (const ImportError& e) {
      EXPECT_EQ(e.code(), ImportErrorCode::InvalidAnimation);
      EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
    }
  }
  {
    RigidFixture r;  // 2 keys, 1 value
    r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0});
    EXPECT_THROW(r.f.import(), ImportError);
  }
}

// A two-target morph: initial weights from the node (over the mesh's), applied at load, with an
// animated CUBICSPLINE weight track whose tangents are kept.
struct MorphFixture {
  Fixture f;
  std::uint32_t node;
  MorphFixture() {
    node = f.node("Morph");
    f.scene({node});
    MeshData m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.normals.assign(3, glm::vec3(0, 0, 1));
    m.position_targets = {{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, {{2, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    m.normal_targets = {{}, {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    m.weights_default = {0.25f, 0.25f};
    f.doc().nodes[node].mesh = f.mesh(m);
    f.doc().nodes[node].weights = {0.5f, 0.f};
    const auto anim = f.animation("Pulse");
    f.channel(anim, node, "weights", SamplerInterpolation::CubicSpline, {0.f, 2.f},
              {/*in*/ 0, 0, /*v*/ 0, 0, /*out*/ 1, 0,
               /*in*/ 3, 0, /*v*/ 1, 1, /*out*/ 0, 0});
  }
};

TEST(GltfMorph, G17_InitialWeightsNodeElseMeshAppliedAtLoad) {
  MorphFixture m;
  const Model model = m.f.import();
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].morph_weights, std::vector<float>({0.5f, 0.f}));
  const auto posed = test::posed_positions(model, 0);
  EXPECT_TRUE(near(posed[0], {0, 0, 0.5f}));  // target 0 at weight 0.5
  // The bounding sphere describes the loaded pose (z = 0.5), not the base.
  EXPECT_NEAR(model.meshes[0].bounding_sphere.center.z, 0.5f, 1e-6f);
  m.f.doc().nodes[m.node].weights.clear();
  EXPECT_EQ(m.f.import().meshes[0].morph_weights, std::vector<float>({0.25f, 0.25f})) << "the mesh's weights";
}

TEST(GltfMorph, G16_WeightTracksKeepCubicTangents) {
  MorphFixture m;
  const Model model = m.f.import();
  ASSERT_EQ(model.animations[0].morph_channels.size(), 1u);
  const MorphWeightTrack& track = model.animations[0].morph_channels[0].track;
  EXPECT_EQ(track.interpolation, Interpolation::CubicSpline);
  EXPECT_EQ(track.out_tangents, std::vector<float>({1, 0, 0, 0}));
  EXPECT_EQ(track.in_tangents, std::vector<float>({0, 0, 3, 0}));
  // s = 0.5, dt = 2: 0.125 * 2 * 1 + 0.5 * 1 - 0.125 * 2 * 3 = 0.
  const auto w = evaluate_morph_weights(track, 1.0);
  EXPECT_NEAR(w[0], 0.f, 1e-6f);
  EXPECT_NEAR(w[1], 0.5f, 1e-6f);
  // The part's default track (the seed's single slot) is the first instancing node's.
  ASSERT_TRUE(model.meshes[0].parts[0].morph->weight_track.has_value());
  // Played through the Animator, the blend follows the curve.
  const auto posed = test::posed_positions(model, 0, 0, 2.0);
  EXPECT_TRUE(near(posed[0], {2, 0, 1}));
}

// KHR_animation_pointer: a pointer to a node's TRS or weights, or a mesh's weights, imports
// exactly like the standard channel; any other pointer is counted (G11).
void to_pointer(gltf::AnimationChannel& c, const std::string& pointer) {
  c.path = "pointer";
  c.node = gltf::kNone;
  c.pointer = pointer;
}

TEST(GltfClips, G9_G11_KhrAnimationPointerToNodeTrsImportsLikeTheStandardChannel) {
  RigidFixture standard, pointed;
  for (RigidFixture* r : {&standard, &pointed}) {
    r->f.channel(r->anim, r->mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 5, 4, 0, 5});
    r->f.channel(r->anim, r->mover, "rotation", SamplerInterpolation::Linear, {0.f, 2.f}, {0, 0, 0, 1, 0, 1, 0, 0});
  }
  auto& channels = pointed.f.doc().animations[pointed.anim].channels;
  to_pointer(channels[0], "/nodes/" + std::to_string(pointed.mover) + "/translation");
  to_pointer(channels[1], "/nodes/" + std::to_string(pointed.mover) + "/rotation");
  pointed.f.doc().extensions_used.push_back("KHR_animation_pointer");
  pointed.f.doc().extensions_required.push_back("KHR_animation_pointer");
  const Model a = standard.f.import(), b = pointed.f.import();
  EXPECT_EQ(find_diagnostic(b.diagnostics, "unsupported-channel-path"), nullptr);
  for (double t : {0.0, 0.3, 1.0, 1.7, 3.0}) EXPECT_EQ(standard.local_at(a, t), pointed.local_at(b, t)) << t;
}

TEST(GltfClips, G9_G11_KhrAnimationPointerToMeshWeightsAnimatesItsDefaultWeights) {
  MorphFixture standard, pointed;
  standard.f.doc().nodes[standard.node].weights.clear();  // both show the mesh's own weights
  pointed.f.doc().nodes[pointed.node].weights.clear();
  to_pointer(pointed.f.doc().animations[0].channels[0], "/meshes/0/weights");
  const Model a = standard.f.import(), b = pointed.f.import();
  ASSERT_EQ(b.animations[0].morph_channels.size(), 1u);
  EXPECT_EQ(b.animations[0].morph_channels[0].track.values, a.animations[0].morph_channels[0].track.values);
  EXPECT_EQ(b.animations[0].morph_channels[0].track.out_tangents, a.animations[0].morph_channels[0].track.out_tangents);
  const auto posed_a = test::posed_positions(a, 0, 0, 1.3), posed_b = test::posed_positions(b, 0, 0, 1.3);
  for (std::size_t v = 0; v < posed_a.size(); ++v) EXPECT_TRUE(near(posed_a[v], posed_b[v], 0.f)) << v;
}

TEST(GltfClips, G11_OtherAnimationPointersAreCountedAndBadIndicesRefused) {
  RigidFixture r;
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0});
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0});
  to_pointer(r.f.doc().animations[r.anim].channels[1], "/materials/0/pbrMetallicRoughness/baseColorFactor");
  const Model model = r.f.import();
  const Diagnostic* d = find_diagnostic(model.diagnostics, "unsupported-channel-path");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("/materials/0/pbrMetallicRoughness/baseColorFactor"), std::string::npos) << d->message;
  to_pointer(r.f.doc().animations[r.anim].channels[1], "/nodes/99/rotation");
  try {
    r.f.import();
    ADD_FAILURE() << "a pointer to node 99 was accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::IndexOutOfRange);
    EXPECT_NE(std::string(e.what()).find("/nodes/99/rotation"), std::string::npos) << e.what();
  }
}

TEST(GltfUnits, G18_UnitScaleScalesTranslationsAndPositionDeltasOnly) {
  RigidFixture r;
  const glm::quat q = glm::angleAxis(0.5f, glm::vec3(0, 1, 0));
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 2, 0, 0});
  r.f.channel(r.anim, r.mover, "rotation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, q.x, q.y, q.z, q.w});
  r.f.channel(r.anim, r.mover, "scale", SamplerInterpolation::Linear, {0.f, 1.f}, {1, 1, 1, 3, 3, 3});
  ImportOptions centimetres;
  centimetres.unit_scale = 100.f;
  const Model model = r.f.import(centimetres);
  const Keyframe& key = model.animations[0].scene_clip.tracks[0].keys.back();
  EXPECT_TRUE(near(key.translation, {200, 0, 0}, 1e-4f));
  EXPECT_TRUE(test::same_rotation(key.rotation, q)) << "rotations are not scaled";
  EXPECT_TRUE(near(key.scale, {3, 3, 3})) << "scale channels are not scaled";
  EXPECT_NEAR(model.nodes[2].transform[3].x, 100.f, 1e-4f) << "the child's rest translation";

  MorphFixture m;
  Model morph = m.f.import();
  const float before_delta = morph.meshes[0].parts[0].morph->position_deltas[1][0].x;
  apply_unit_scale(morph, 0.01f);
  EXPECT_FLOAT_EQ(morph.meshes[0].parts[0].morph->position_deltas[1][0].x, before_delta * 0.01f);
  EXPECT_EQ(morph.meshes[0].parts[0].morph->normal_deltas[1][0], glm::vec3(1, 0, 0)) << "normal deltas unchanged";
  EXPECT_EQ(morph.meshes[0].morph_weights, std::vector<float>({0.5f, 0.f})) << "weights unchanged";
  EXPECT_THROW(apply_unit_scale(morph, -1.f), std::invalid_argument);
}

// A scale that would take a finite length beyond the float range changes nothing and is refused:
// std::invalid_argument from apply_unit_scale, ImportError(InvalidDocument) from an import.
TEST(GltfUnits, G18_UnitScaleThatOverflowsIsRefusedWithoutChangingTheModel) {
  RigidFixture r;
  r.f.channel(r.anim, r.mover, "translation", SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1e37f, 0, 0});
  Model model = r.f.import();
  const glm::mat4 rest = model.nodes[1].transform;
  EXPECT_THROW(apply_unit_scale(model, 100.f), std::invalid_argument);
  EXPECT_EQ(model.nodes[1].transform, rest);
  EXPECT_EQ(model.animations[0].scene_clip.tracks[0].keys.back().translation.x, 1e37f);
  apply_unit_scale(model, 10.f);  // 1e38 still fits
  EXPECT_FLOAT_EQ(model.animations[0].scene_clip.tracks[0].keys.back().translation.x, 1e38f);

  ImportOptions centimetres;
  centimetres.unit_scale = 100.f;
  try {
    (void)r.f.import(centimetres);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::InvalidDocument);
    EXPECT_NE(std::string(e.what()).find("unit_scale"), std::string::npos) << e.what();
  }
  ImportOptions negative;
  negative.unit_scale = -1.f;
  EXPECT_THROW((void)r.f.import(negative), std::invalid_argument) << "a bad option is the caller's error";
}

}  // namespace
}  // namespace marrow
