// The asset API's mesh builder, instances and groups (T6, T7, T8, T10-T13, T15, T16).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/asset/mesh_builder.hpp"
#include "marrow/asset/model_instance.hpp"
#include "test_util.hpp"

namespace marrow::asset {
namespace {

using test::near;
using test::throws_with;

using test::translate;

MeshVertexSkeletal strip_vertex(float x, float y, std::uint8_t a, std::uint8_t b, float weight_b) {
  MeshVertexSkeletal v;
  v.location = {x, y, 0.f};
  v.texture_coords = {(0.1f - x) / 0.2f, y / 2.f};
  v.tangent = {1, 0, 0};
  v.bitangent = {0, 1, 0};
  v.normal = {0, 0, 1};
  v.bone_indices = {a, b, 0, 0};
  v.bone_weights = {1.f - weight_b, weight_b, 0.f, 0.f};
  return v;
}

// The seed's bending strip: 2 m tall, 0.2 m wide, a "Base" bone at the bottom and a "Tip" bone
// halfway up; the one-second "Bend" tilts the top half 45 degrees (about +Z here).
struct BendingStrip {
  MeshBuilder builder;
  std::shared_ptr<Mesh> mesh;
  MeshAnimation bend;
  BendingStrip() {
    const MeshVertexSkeletal vertices[] = {
        strip_vertex(0.1f, 0.f, 0, 0, 0.f),  strip_vertex(-0.1f, 0.f, 0, 0, 0.f), strip_vertex(0.1f, 1.f, 0, 1, 0.5f),
        strip_vertex(-0.1f, 1.f, 0, 1, 0.5f), strip_vertex(0.1f, 2.f, 0, 1, 1.f), strip_vertex(-0.1f, 2.f, 0, 1, 1.f),
    };
    const VertexTriangle triangles[] = {{0, 1, 3}, {0, 3, 2}, {2, 3, 5}, {2, 5, 4}};
    const SkeletalAnimationNode nodes[] = {
        {glm::mat4(1.f), glm::mat4(1.f), std::nullopt, 0},
        {translate(0, 1, 0), translate(0, -1, 0), 0, 1},
    };
    MeshCreationConfig config;
    config.name = "Bending Strip";
    BoundingBox box;
    box.extend({-1.f, -0.1f, -0.1f});
    box.extend({1.f, 2.1f, 0.1f});
    config.bounding_box_override = box;
    mesh = builder.create_from_vertices(vertices, triangles, nodes, config);
    builder.set_skeleton_node_name(*mesh, 0, "Base");
    builder.set_skeleton_node_name(*mesh, 1, "Tip");
    const SkeletalAnimationRotationKeyframe rotation[] = {
        {0.f, glm::quat(1, 0, 0, 0)}, {1.f, glm::angleAxis(glm::radians(45.f), glm::vec3(0, 0, 1))}};
    const SkeletalAnimationTranslationKeyframe translation[] = {{0.f, glm::vec3(0, 1, 0)}};
    const SkeletalAnimationNodeMutationDescriptor mutations[] = {{1, 0, 0, 0, 2, 0, 1}};
    bend = builder.attach_animation(*mesh, {}, rotation, translation, mutations, 1.f, "Bend");
  }
};

std::vector<glm::vec3> posed(const ModelInstance& instance) {
  std::vector<glm::vec3> p(instance.mesh().vertices().size());
  instance.pose_vertices(p);
  return p;
}

TEST(MeshBuilder, T15_BendingStripTipRowAtOneSecond) {
  BendingStrip s;
  EXPECT_EQ(s.mesh->name(), "Bending Strip");
  EXPECT_EQ(s.mesh->skeleton().node(1).name, "Tip");
  ModelInstance instance(s.mesh);
  instance.animation_player(s.bend).set_time_point(1.f);
  const auto p = posed(instance);
  // The tip row is bone 1's alone: (+-0.1, 1) in its space, turned 45 degrees, 1 m up.
  const float c = std::cos(glm::radians(45.f)), sn = std::sin(glm::radians(45.f));
  EXPECT_TRUE(near(p[4], {0.1f * c - sn, 1.f + 0.1f * sn + c, 0}, 1e-5f));
  EXPECT_TRUE(near(p[5], {-0.1f * c - sn, 1.f - 0.1f * sn + c, 0}, 1e-5f));
  EXPECT_TRUE(near(p[4], {-0.636396f, 1.777817f, 0}, 1e-5f));
  // The middle row is split evenly between the bones; the bottom row does not move.
  EXPECT_TRUE(near(p[2], {(0.1f + 0.1f * c) / 2.f, (1.f + 1.f + 0.1f * sn) / 2.f, 0}, 1e-5f));
  EXPECT_TRUE(near(p[0], {0.1f, 0, 0}));
  // Halfway through, half the angle (slerp), and the bind pose at t = 0.
  instance.animation_player(s.bend).set_time_point(0.5f);
  const auto half = posed(instance);
  const float c2 = std::cos(glm::radians(22.5f)), s2 = std::sin(glm::radians(22.5f));
  EXPECT_TRUE(near(half[4], {0.1f * c2 - s2, 1.f + 0.1f * s2 + c2, 0}, 1e-5f));
  instance.animation_player(s.bend).set_time_point(0.f);
  EXPECT_TRUE(near(posed(instance)[4], {0.1f, 2.f, 0}, 1e-6f));
  // The box is the override (the animation leaves the bind-pose box).
  EXPECT_EQ(s.mesh->bounding_box().min, glm::vec3(-1.f, -0.1f, -0.1f));
}

// An instance plays by delta like an Animator (B5 through the asset layer's PlayerClock): each
// update poses exactly as set_time_point at the clock's time, which loops by default, follows the
// rate (negative plays backward), clamps and finishes under Once, and bounces under PingPong.
TEST(InstancePlayer, B5_UpdateByDeltaPosesAtTheClocksTimeUnderItsRateAndLoopMode) {
  BendingStrip s;
  ModelInstance played(s.mesh), reference(s.mesh);
  InstanceAnimationPlayer player = played.animation_player(s.bend);
  const auto same_pose_as_at = [&](float seconds) {
    reference.animation_player(s.bend).set_time_point(seconds);
    const auto a = posed(played), b = posed(reference);
    for (std::size_t v = 0; v < a.size(); ++v) {
      if (!near(a[v], b[v], 1e-6f)) return false;
    }
    return true;
  };
  player.update(0.25f);
  EXPECT_NEAR(player.time(), 0.25f, 1e-6f);
  EXPECT_TRUE(same_pose_as_at(0.25f));
  player.update(1.f);  // Loop: 1.25 s re-enters at 0.25 s of the one-second clip
  EXPECT_NEAR(player.time(), 0.25f, 1e-6f);
  EXPECT_TRUE(same_pose_as_at(0.25f));
  player.set_rate(2.f);
  player.update(0.25f);  // twice as fast: half a second of clip time
  EXPECT_NEAR(player.time(), 0.75f, 1e-6f);
  EXPECT_TRUE(same_pose_as_at(0.75f));
  player.set_rate(-1.f);
  player.update(0.5f);  // backward
  EXPECT_NEAR(player.time(), 0.25f, 1e-6f);
  EXPECT_TRUE(same_pose_as_at(0.25f));

  player.set_rate(1.f);
  player.set_loop_mode(LoopMode::Once);
  player.update(5.f);  // clamps at the end and finishes
  EXPECT_NEAR(player.time(), 1.f, 1e-6f);
  EXPECT_TRUE(player.finished());
  EXPECT_TRUE(same_pose_as_at(1.f));

  player.set_time_point(0.5f);  // an absolute time moves the clock too
  player.set_loop_mode(LoopMode::PingPong);
  player.update(0.75f);  // 0.5 -> 1 -> back to 0.75
  EXPECT_NEAR(player.time(), 0.75f, 1e-6f);
  EXPECT_TRUE(same_pose_as_at(0.75f));

  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { player.update(NAN); }, {"not finite"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { player.set_rate(INFINITY); }, {"rate", "not finite"}));
}

// A vertex on a four-bone chain (bone d at depth d, 1 m apart, weights 0.1 d + 0.1), posed
// after the depth-2 bone is lifted 2 m; with reversed, the nodes are listed tip first (node n at
// depth 3 - n). Returns the posed vertex and the tip's bind position.
std::pair<glm::vec3, glm::vec3> lifted_chain(bool reversed) {
  MeshBuilder builder;
  MeshVertexSkeletal v;
  v.location = {1, 0, 0};
  std::vector<SkeletalAnimationNode> nodes;
  for (int node = 0; node < 4; ++node) {
    const int depth = reversed ? 3 - node : node;
    const int parent = reversed ? node + 1 : node - 1;
    v.bone_indices[static_cast<std::size_t>(node)] = static_cast<std::uint8_t>(node);
    v.bone_weights[static_cast<std::size_t>(node)] = 0.1f * static_cast<float>(depth + 1);
    nodes.push_back({translate(0, depth == 0 ? 0.f : 1.f, 0), translate(0, -float(depth), 0),
                     depth == 0 ? std::nullopt : std::optional(parent), node});
  }
  const auto mesh = builder.create_from_vertices(std::span(&v, 1), {}, nodes);
  ModelInstance instance(mesh);
  const SkeletalAnimationTranslationKeyframe t[] = {{0.f, {0, 1, 0}}, {1.f, {0, 3, 0}}};
  const SkeletalAnimationNodeMutationDescriptor m[] = {{reversed ? 1 : 2, 0, 0, 0, 0, 0, 2}};  // depth 2: 2 m up
  instance.animation_player(builder.attach_animation(*mesh, {}, {}, t, m, 1.f, "Up")).set_time_point(1.f);
  glm::mat4 tip;
  mesh->skeleton().get_bind_pose_node_transforms(mesh->skeleton().node(reversed ? 0 : 3), tip);
  return {posed(instance)[0], glm::vec3(tip[3])};
}

TEST(MeshBuilder, T16_FourBoneIndicesAndWeightsPerVertex) {
  // Bones 2 and 3 move up 2 m; weights 0.3 + 0.4 of it: 1.4 m.
  const auto [vertex, tip] = lifted_chain(false);
  EXPECT_TRUE(near(vertex, {1, 1.4f, 0}, 1e-5f));
  EXPECT_TRUE(near(tip, {0, 3, 0}));
}

TEST(MeshBuilder, T11_NodesListedChildrenFirstPoseLikeParentsFirst) {
  // The rig composes in its breadth-first order (X2's one job), so the order the nodes are
  // listed in changes nothing.
  const auto [vertex, tip] = lifted_chain(true);
  EXPECT_TRUE(near(vertex, {1, 1.4f, 0}, 1e-5f));
  EXPECT_TRUE(near(tip, {0, 3, 0}));
}

TEST(MeshBuilder, T11_NodesDefaultsBonesAndRefusals) {
  MeshBuilder builder;
  MeshVertexSkeletal v;
  // No bones at all: one identity root bone, behaves as static.
  const auto plain = builder.create_from_vertices(std::span(&v, 1), {}, {});
  EXPECT_EQ(plain->bone_count(), 1u);
  EXPECT_TRUE(near(plain->bind_palette()[0], glm::mat4(1.f)));
  // More than 255 bones throws.
  std::vector<SkeletalAnimationNode> many(256);
  for (int i = 0; i < 256; ++i) {
    many[static_cast<std::size_t>(i)].parent_node_index = i == 0 ? std::nullopt : std::optional(0);
    many[static_cast<std::size_t>(i)].corresponding_bone_index = i;
  }
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { builder.create_from_vertices(std::span(&v, 1), {}, many); },
                                                 {"256 bones", "255"}));
  many.resize(255);
  EXPECT_NO_THROW(builder.create_from_vertices(std::span(&v, 1), {}, many));
  // Per-instance vertex mutation is refused for skeletal meshes.
  MeshCreationConfig mutable_config;
  mutable_config.allows_per_instance_vertex_mutation = true;
  EXPECT_THROW(builder.create_from_vertices(std::span(&v, 1), {}, {}, mutable_config), std::invalid_argument);
  // Parents, roots, bones and vertex references are checked.
  const SkeletalAnimationNode orphan[] = {{glm::mat4(1.f), glm::mat4(1.f), std::nullopt, 0}, {glm::mat4(1.f), glm::mat4(1.f), 7, 1}};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { builder.create_from_vertices(std::span(&v, 1), {}, orphan); }, {"node 1", "parent 7"}));
  const SkeletalAnimationNode twice[] = {{glm::mat4(1.f), glm::mat4(1.f), std::nullopt, 0}, {glm::mat4(1.f), glm::mat4(1.f), 0, 0}};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { builder.create_from_vertices(std::span(&v, 1), {}, twice); }, {"bone 0"}));
  MeshVertexSkeletal bad = v;
  bad.bone_indices = {3, 0, 0, 0};
  const SkeletalAnimationNode one[] = {{glm::mat4(1.f), glm::mat4(1.f), std::nullopt, 0}};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { builder.create_from_vertices(std::span(&bad, 1), {}, one); },
                                                 {"vertex 0", "bone 3"}));
  const VertexTriangle tri[] = {{0, 0, 5}};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { builder.create_from_vertices(std::span(&v, 1), tri, one); },
                                                 {"triangle 0", "vertex 5"}));
}

TEST(MeshBuilder, T12_MutationsReplaceTheDefaultLocalTransform) {
  BendingStrip s;
  // Without the translation key, node 1 collapses onto its parent during the animation.
  const SkeletalAnimationRotationKeyframe rotation[] = {{0.f, glm::quat(1, 0, 0, 0)}};
  const SkeletalAnimationNodeMutationDescriptor only_rotation[] = {{1, 0, 0, 0, 1, 0, 0}};
  const MeshAnimation collapse = s.builder.attach_animation(*s.mesh, {}, rotation, {}, only_rotation, 1.f, "Collapse");
  ModelInstance instance(s.mesh);
  instance.animation_player(collapse).set_time_point(0.5f);
  EXPECT_TRUE(near(posed(instance)[4], {0.1f, 1.f, 0}, 1e-6f)) << "translation identity: the tip row drops 1 m";
  // Untargeted nodes keep their default; before/after the keys the first/last key holds.
  instance.animation_player(s.bend).set_time_point(-3.f);
  EXPECT_TRUE(near(posed(instance)[4], {0.1f, 2.f, 0}, 1e-6f));
  instance.animation_player(s.bend).set_time_point(7.f);
  EXPECT_TRUE(near(posed(instance)[4], {-0.636396f, 1.777817f, 0}, 1e-5f));
}

TEST(MeshBuilder, T12_AttachAnimationRefusals) {
  BendingStrip s;
  const SkeletalAnimationTranslationKeyframe unsorted[] = {{1.f, {0, 1, 0}}, {0.5f, {0, 2, 0}}};
  const SkeletalAnimationNodeMutationDescriptor m[] = {{1, 0, 0, 0, 0, 0, 2}};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { s.builder.attach_animation(*s.mesh, {}, {}, unsorted, m, 1.f, "Bad"); },
                                                 {"mutation 0", "translation keyframe 1"}));
  const SkeletalAnimationTranslationKeyframe fine[] = {{0.f, {0, 1, 0}}, {1.f, {0, 2, 0}}};
  EXPECT_THROW(s.builder.attach_animation(*s.mesh, {}, {}, fine, m, 1.f, "Bend"), std::logic_error) << "duplicate name";
  EXPECT_THROW(s.builder.attach_animation(*s.mesh, {}, {}, fine, m, 1.f, ""), std::logic_error) << "empty name";
  const SkeletalAnimationNodeMutationDescriptor beyond[] = {{1, 0, 0, 0, 0, 1, 2}};
  EXPECT_THROW(s.builder.attach_animation(*s.mesh, {}, {}, fine, beyond, 1.f, "Beyond"), std::invalid_argument);
  const SkeletalAnimationNodeMutationDescriptor no_node[] = {{5, 0, 0, 0, 0, 0, 2}};
  EXPECT_THROW(s.builder.attach_animation(*s.mesh, {}, {}, fine, no_node, 1.f, "NoNode"), std::out_of_range);
  // Empty spans are allowed; a mesh without skeletal data is refused.
  EXPECT_NO_THROW(s.builder.attach_animation(*s.mesh, {}, {}, {}, {}, 0.f, "Nothing"));
  Mesh plain;
  EXPECT_THROW(s.builder.attach_animation(plain, {}, {}, fine, m, 1.f, "X"), std::logic_error);
}

TEST(MeshBuilder, T13_NodeNamesAreMadeUnique) {
  BendingStrip s;
  s.builder.set_skeleton_node_name(*s.mesh, 0, "Tip");
  EXPECT_EQ(s.mesh->skeleton().node(0).name, "Tip2");
  s.builder.set_skeleton_node_name(*s.mesh, 0, "Tip");
  EXPECT_EQ(s.mesh->skeleton().node(0).name, "Tip2") << "its own name does not count";
  EXPECT_THROW(s.builder.set_skeleton_node_name(*s.mesh, 2, "X"), std::out_of_range);
  Mesh plain;
  EXPECT_NO_THROW(s.builder.set_skeleton_node_name(plain, 0, "X")) << "no skeletal data: no effect";
}

TEST(Animations, T8_ByIndexAndNameWithDuration) {
  BendingStrip s;
  const Animations a = s.mesh->animations();
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].name, "Bend");
  EXPECT_EQ(a["Bend"].type, MeshAnimationType::Skeletal);
  EXPECT_FLOAT_EQ(a["Bend"].default_duration_seconds, 1.f);
  EXPECT_FALSE(a.try_get_animation_by_name("Run").has_value());
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { (void)a["Run"]; }, {"Run"}));
  EXPECT_THROW((void)a[3], std::out_of_range);
  EXPECT_EQ(a.skeletal().size(), 1u);
}

TEST(Skeleton, T4_NodesByIndexAndName) {
  BendingStrip s;
  const Skeleton sk = s.mesh->skeleton();
  ASSERT_EQ(sk.node_count(), 2u);
  EXPECT_EQ(sk["Tip"].index, 1);
  EXPECT_EQ(sk[1].bone, 1);
  EXPECT_FALSE(sk.try_get_node_by_name("Hand").has_value());
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { (void)sk["Hand"]; }, {"Hand"}));
  EXPECT_THROW((void)sk[2], std::out_of_range);
  // Unnamed nodes are node_<index>.
  MeshBuilder builder;
  MeshVertexSkeletal v;
  const SkeletalAnimationNode nodes[] = {{glm::mat4(1.f), glm::mat4(1.f), std::nullopt, 0}, {glm::mat4(1.f), glm::mat4(1.f), 0, std::nullopt}};
  EXPECT_EQ(builder.create_from_vertices(std::span(&v, 1), {}, nodes)->skeleton()[1].name, "node_1");
}

TEST(Skeleton, T5_BindPoseNodeTransformsInModelSpace) {
  BendingStrip s;
  const Skeleton sk = s.mesh->skeleton();
  glm::mat4 tip;
  sk.get_bind_pose_node_transforms(sk["Tip"], tip);
  EXPECT_TRUE(near(tip, translate(0, 1, 0)));
  const MeshNode both[] = {sk[0], sk[1]};
  glm::mat4 out[2];
  sk.get_bind_pose_node_transforms(both, out);
  EXPECT_TRUE(near(out[1], translate(0, 1, 0)));
  const int indices[] = {1, 0};
  sk.get_bind_pose_node_transforms(indices, out);
  EXPECT_TRUE(near(out[0], translate(0, 1, 0)));
  EXPECT_TRUE(near(out[1], glm::mat4(1.f)));
  const int bad[] = {4};
  EXPECT_THROW(sk.get_bind_pose_node_transforms(bad, out), std::out_of_range);
  glm::mat4 small[1];
  EXPECT_THROW(sk.get_bind_pose_node_transforms(both, small), std::invalid_argument);
}

TEST(Skeleton, T5_PosedNodeTransformsFollowTheInstancesCurrentPose) {
  BendingStrip s;
  const Skeleton sk = s.mesh->skeleton();
  ModelInstance instance(s.mesh);
  // Before any player: the bind pose, and no pose to read.
  EXPECT_TRUE(near(sk.posed_node_transform(instance, "Tip"), translate(0, 1, 0)));
  EXPECT_EQ(instance.posed_model(), nullptr);
  EXPECT_TRUE(instance.node_transforms().empty());
  // At one second the tip has turned 45 degrees about z around (0, 1, 0).
  InstanceAnimationPlayer player = instance.animation_player(s.bend);
  player.set_time_point(1.f);
  const glm::mat4 tip = translate(0, 1, 0) * glm::mat4_cast(glm::angleAxis(glm::radians(45.f), glm::vec3(0, 0, 1)));
  EXPECT_TRUE(near(sk.posed_node_transform(instance, "Tip"), tip, 1e-6f));
  EXPECT_TRUE(near(sk.posed_node_transform(instance, sk["Base"]), glm::mat4(1.f)));
  EXPECT_EQ(instance.posed_model(), &s.mesh->model());
  ASSERT_EQ(instance.node_transforms().size(), s.mesh->model().nodes.size()) << "one per Model node";
  // The palette is the posed node times its bind-pose inversion.
  EXPECT_TRUE(near(instance.bone_transforms()[1], tip * translate(0, -1, 0), 1e-6f));
  const MeshNode both[] = {sk["Tip"], sk["Base"]};
  glm::mat4 out[2];
  sk.get_posed_node_transforms(instance, both, out);
  EXPECT_TRUE(near(out[0], tip, 1e-6f));
  // Halfway: 22.5 degrees; update by delta moves the pose too.
  player.set_time_point(0.f);
  player.update(0.5f);
  EXPECT_TRUE(near(sk.posed_node_transform(instance, "Tip"),
                   translate(0, 1, 0) * glm::mat4_cast(glm::angleAxis(glm::radians(22.5f), glm::vec3(0, 0, 1))), 1e-6f));
  // Another mesh's skeleton reads this instance by node name; an unknown name is refused.
  BendingStrip other;
  EXPECT_TRUE(near(other.mesh->skeleton().posed_node_transform(instance, "Tip"),
                   sk.posed_node_transform(instance, "Tip")));
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { (void)sk.posed_node_transform(instance, "Hand"); }, {"Hand"}));
  glm::mat4 small[1];
  EXPECT_THROW(sk.get_posed_node_transforms(instance, both, small), std::invalid_argument);
  // Back to the bind pose.
  sk.apply_bind_pose(instance);
  EXPECT_TRUE(near(sk.posed_node_transform(instance, "Tip"), translate(0, 1, 0)));
}

TEST(Skeleton, T6_ApplyBindPoseOnInstanceAndGroup) {
  BendingStrip strip, other;
  ModelInstance a(strip.mesh), b(other.mesh);
  a.animation_player(strip.bend).set_time_point(1.f);
  b.animation_player(other.bend).set_time_point(1.f);
  ModelInstanceGroup group = group_model_instances({a, b}, nullptr);
  strip.mesh->skeleton().apply_bind_pose(group);
  EXPECT_TRUE(near(posed(group.instances()[0])[4], {0.1f, 2.f, 0}, 1e-6f)) << "uses this mesh: reset";
  EXPECT_TRUE(near(posed(group.instances()[1])[4], {-0.636396f, 1.777817f, 0}, 1e-5f)) << "another mesh: untouched";
  strip.mesh->skeleton().apply_bind_pose(b);
  EXPECT_TRUE(near(posed(b)[4], {-0.636396f, 1.777817f, 0}, 1e-5f));
  other.mesh->skeleton().apply_bind_pose(b);
  EXPECT_TRUE(near(posed(b)[4], {0.1f, 2.f, 0}, 1e-6f));
}

TEST(Skeleton, T7_MeshWithoutSkeletonHasNoNodesAndIdentityTransforms) {
  const auto mesh = std::make_shared<Mesh>();
  const Skeleton sk = mesh->skeleton();
  EXPECT_EQ(sk.node_count(), 0u);
  EXPECT_FALSE(mesh->is_skeletal());
  glm::mat4 out[2] = {glm::mat4(0.f), glm::mat4(0.f)};
  const int indices[] = {0, 5};
  sk.get_bind_pose_node_transforms(indices, out);
  EXPECT_EQ(out[1], glm::mat4(1.f));
  ModelInstance instance(mesh);
  EXPECT_NO_THROW(sk.apply_bind_pose(instance));
  EXPECT_TRUE(mesh->animations().empty());
}

}  // namespace
}  // namespace marrow::asset
