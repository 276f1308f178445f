// The asset API's loading, shared tables, linked groups and bounds (T1-T3, T9, T10, T14).
#include <gtest/gtest.h>

#include <filesystem>

#include <glm/gtc/matrix_transform.hpp>

#include "gltf_fixture.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "marrow/asset/asset_loader.hpp"
#include "marrow/asset/mesh_builder.hpp"
#include "marrow/asset/model_instance.hpp"
#include "test_util.hpp"

namespace marrow::asset {
namespace {

namespace fs = std::filesystem;
using test::Fixture;
using test::MeshData;
using test::near;

// A character in two skinned pieces (body, hat) on one three-node skeleton (an "Armature"
// non-joint root, joints Hips and Head), a prop without skin, and a "Nod" animation.
Model character() {
  Fixture f;
  const auto armature = f.node("Armature", {0, 0, 0}, glm::quat(1, 0, 0, 0), glm::vec3(2.f));
  const auto hips = f.node("Hips", {0, 1, 0});
  const auto head = f.node("Head", {0, 1, 0});
  const auto body = f.node("Body"), hat = f.node("Hat"), prop = f.node("Prop", {5, 0, 0});
  f.child(armature, hips);
  f.child(hips, head);
  f.scene({armature, body, hat, prop});
  const glm::mat4 w_hips = test::node_world(f.doc(), hips), w_head = test::node_world(f.doc(), head);
  const auto skin = f.skin({hips, head}, {glm::inverse(w_hips), glm::inverse(w_head)});
  MeshData body_mesh;
  body_mesh.positions = {{-1, 2, 0}, {1, 2, 0}, {0, 4, 0}};
  body_mesh.indices = {0, 1, 2};
  body_mesh.joints.assign(3, glm::u16vec4(0, 0, 0, 0));
  body_mesh.weights.assign(3, glm::vec4(1, 0, 0, 0));
  MeshData hat_mesh;
  hat_mesh.positions = {{-0.5f, 4, 0}, {0.5f, 4, 0}, {0, 5, 0}};
  hat_mesh.indices = {0, 1, 2};
  hat_mesh.joints.assign(3, glm::u16vec4(1, 0, 0, 0));
  hat_mesh.weights.assign(3, glm::vec4(1, 0, 0, 0));
  MeshData prop_mesh;
  prop_mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  f.doc().nodes[body].mesh = f.mesh(body_mesh);
  f.doc().nodes[hat].mesh = f.mesh(hat_mesh);
  f.doc().nodes[prop].mesh = f.mesh(prop_mesh);
  f.doc().nodes[body].skin = f.doc().nodes[hat].skin = skin;
  const auto nod = f.animation("Nod");
  const glm::quat q = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  f.channel(nod, head, "rotation", gltf::SamplerInterpolation::Linear, {0.f, 1.f, 2.f},
            {0, 0, 0, 1, q.x, q.y, q.z, q.w, 0, 0, 0, 1});
  return f.import();
}


TEST(AssetLoader, T1_LoadMeshMergesSubMeshesStaticUnlessOneIsSelected) {
  std::vector<std::string> warnings;
  AssetLoader loader([&](const std::string& w) { warnings.push_back(w); });
  const Model model = character();
  const auto merged = loader.mesh_from_model(model);
  EXPECT_FALSE(merged->is_skeletal());
  EXPECT_EQ(merged->vertices().size(), 9u);
  EXPECT_EQ(merged->skeleton().node_count(), 0u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("static"), std::string::npos) << warnings[0];
  // Static vertices are placed in model space: the prop's node moves it by 5, the body is
  // posed by its (armature-scaled) bind pose.
  EXPECT_TRUE(near(merged->vertices()[6].location, {5, 0, 0}));
  ReadConfig hat_only;
  hat_only.sub_mesh_index = 1;
  const auto hat = loader.mesh_from_model(model, hat_only);
  EXPECT_TRUE(hat->is_skeletal());
  EXPECT_EQ(hat->vertices().size(), 3u);
  hat_only.sub_mesh_index = 7;
  EXPECT_THROW(loader.mesh_from_model(model, hat_only), std::out_of_range);
}

TEST(AssetLoader, T2_SkeletalDataCanBeLeftOut) {
  AssetLoader loader([](const std::string&) {});
  ReadConfig config;
  config.sub_mesh_index = 0;
  config.load_skeletal_animation_data_if_present = false;
  const auto body = loader.mesh_from_model(character(), config);
  EXPECT_FALSE(body->is_skeletal());
  EXPECT_TRUE(body->animations().empty());
  config.load_skeletal_animation_data_if_present = true;
  EXPECT_TRUE(loader.mesh_from_model(character(), config)->is_skeletal()) << "the default";
}

TEST(AssetLoader, T4_SkeletonIncludesNonJointAncestorsFromTheRoot) {
  AssetLoader loader([](const std::string&) {});
  ReadConfig config;
  config.sub_mesh_index = 0;
  const auto body = loader.mesh_from_model(character(), config);
  const Skeleton sk = body->skeleton();
  ASSERT_EQ(sk.node_count(), 3u);
  EXPECT_EQ(sk[0].name, "Armature");
  EXPECT_EQ(sk[0].bone, -1) << "a non-joint ancestor";
  EXPECT_EQ(sk["Head"].bone, 1);
  glm::mat4 head;
  sk.get_bind_pose_node_transforms(sk["Head"], head);
  EXPECT_TRUE(near(glm::vec3(head[3]), {0, 4, 0}, 1e-6f)) << "scaled by the armature";
}

TEST(AssetLoader, T9_OneSharedTableForEverySkinnedMesh) {
  AssetLoader loader([](const std::string&) {});
  const ModelBundle bundle = loader.bundle_from_model(character());
  ASSERT_EQ(bundle.meshes.size(), 3u);
  ASSERT_TRUE(bundle.table);
  EXPECT_TRUE(bundle.table->contains(*bundle.meshes[0]));
  EXPECT_TRUE(bundle.table->contains(*bundle.meshes[1]));
  EXPECT_FALSE(bundle.table->contains(*bundle.meshes[2])) << "the prop is static";
  EXPECT_EQ(bundle.skeleton().node_count(), 3u);
  EXPECT_EQ(bundle.animations()["Nod"].default_duration_seconds, 2.f);
  // Each mesh has its own skeleton; the meshes and the table view the file's one Model.
  EXPECT_NE(bundle.meshes[0]->skeleton().nodes(), bundle.table->skeleton().nodes());
  EXPECT_EQ(&bundle.meshes[0]->model(), &bundle.table->shared().model) << "views, not copies";
  EXPECT_EQ(&bundle.meshes[2]->model(), &bundle.table->shared().model);
  EXPECT_EQ(bundle.meshes[1]->animations()["Nod"].index, 0);
}

TEST(ModelInstanceGroup, T10_OneEvaluationPosesEveryLinkedInstance) {
  AssetLoader loader([](const std::string&) {});
  const ModelBundle bundle = loader.bundle_from_model(character());
  ModelInstanceGroup group = create_model_instances(bundle);
  ASSERT_EQ(group.instances().size(), 3u);
  EXPECT_EQ(group.skeleton().node_count(), 3u);
  // An extra instance of a mesh outside the table joins the group.
  MeshBuilder builder;
  MeshVertexSkeletal v;
  auto outsider_mesh = builder.create_from_vertices(std::span(&v, 1), {}, {});
  group.instances().emplace_back(outsider_mesh);
  const std::vector<glm::mat4> outsider_before(group.instances()[3].bone_transforms().begin(),
                                               group.instances()[3].bone_transforms().end());
  group.animation_player(group.animations()["Nod"]).set_time_point(1.f);
  // The hat (on Head) turned 90 degrees about z around the head at (0, 4, 0).
  std::vector<glm::vec3> hat(3);
  group.instances()[1].pose_vertices(hat);
  EXPECT_TRUE(near(hat[2], {-1, 4, 0}, 1e-5f));
  // The body (on Hips) did not move; the outsider was not touched.
  std::vector<glm::vec3> body(3);
  group.instances()[0].pose_vertices(body);
  EXPECT_TRUE(near(body[2], {0, 4, 0}, 1e-5f));
  EXPECT_TRUE(std::equal(outsider_before.begin(), outsider_before.end(), group.instances()[3].bone_transforms().begin()));
  // The same pose as each mesh's own animation, evaluated separately.
  ModelInstance alone(bundle.meshes[1]);
  alone.animation_player(bundle.meshes[1]->animations()["Nod"]).set_time_point(1.f);
  for (std::size_t b = 0; b < alone.bone_transforms().size(); ++b) {
    EXPECT_TRUE(near(alone.bone_transforms()[b], group.instances()[1].bone_transforms()[b], 1e-6f));
  }
  // Each member's nodes in the group's pose, read through the table's skeleton or by name
  // through its mesh's own; the same as the instance posed alone.
  const glm::mat4 head = bundle.skeleton().posed_node_transform(group.instances()[1], "Head");
  EXPECT_TRUE(near(glm::vec3(head[3]), {0, 4, 0}, 1e-5f));                    // the head's place
  EXPECT_TRUE(near(glm::vec3(head * glm::vec4(1, 0, 0, 0)), {0, 2, 0}, 1e-5f));  // turned 90 degrees about z (Armature scales 2)
  EXPECT_EQ(group.instances()[1].posed_model(), &bundle.table->shared().model);
  EXPECT_TRUE(near(bundle.meshes[1]->skeleton().posed_node_transform(group.instances()[1], "Head"), head));
  EXPECT_TRUE(near(bundle.meshes[1]->skeleton().posed_node_transform(alone, "Head"), head, 1e-6f));
  EXPECT_EQ(group.instances()[3].posed_model(), nullptr) << "the outsider was not posed";
  // A copy of a member keeps the pose it was copied in while the group plays on.
  const ModelInstance copy = group.instances()[1];
  group.animation_player(group.animations()["Nod"]).set_time_point(0.25f);
  alone.animation_player(bundle.meshes[1]->animations()["Nod"]).set_time_point(0.25f);
  EXPECT_TRUE(near(bundle.skeleton().posed_node_transform(copy, "Head"), head));
  EXPECT_TRUE(near(bundle.skeleton().posed_node_transform(group.instances()[1], "Head"),
                   bundle.meshes[1]->skeleton().posed_node_transform(alone, "Head"), 1e-6f));
  EXPECT_FALSE(near(bundle.skeleton().posed_node_transform(group.instances()[1], "Head"), head, 1e-3f));
  group.animation_player(group.animations()["Nod"]).set_time_point(1.f);
  // T6 on a table's skeleton: every member back to bind, others untouched.
  bundle.skeleton().apply_bind_pose(group);
  group.instances()[1].pose_vertices(hat);
  EXPECT_TRUE(near(hat[2], {0, 5, 0}, 1e-5f));
  ModelInstanceGroup unlinked;
  EXPECT_THROW(unlinked.animation_player(bundle.animations()[0]), std::logic_error);
}

TEST(MeshBounds, T14_BuiltMeshesCoverTheBindPosePlusMargin) {
  MeshBuilder builder;
  MeshVertexSkeletal v[2];
  v[0].location = {-1, 0, 0};
  v[1].location = {2, 3, 1};
  MeshCreationConfig config;
  config.bounding_box_additional_margin = 0.5f;
  const auto mesh = builder.create_from_vertices(v, {}, {}, config);
  EXPECT_EQ(mesh->bounding_box().min, glm::vec3(-1.5f, -0.5f, -0.5f));
  EXPECT_EQ(mesh->bounding_box().max, glm::vec3(2.5f, 3.5f, 1.5f));
}

// File-loaded meshes: the bind pose widened by every animation at its key times; a check over
// every shared asset and the character that posed vertices at every key time are in the box.
void expect_animation_inside_bounds(const ModelBundle& bundle, const std::string& what) {
  for (const auto& mesh : bundle.meshes) {
    const BoundingBox& box = mesh->bounding_box();
    ASSERT_FALSE(box.empty) << what;
    const float tolerance = 1e-5f * glm::length(box.size()) + 1e-6f;
    ModelInstance instance(mesh);
    std::vector<glm::vec3> p(mesh->vertices().size());
    instance.pose_vertices(p);
    for (const glm::vec3& x : p) ASSERT_TRUE(box.contains(x, tolerance)) << what << " bind pose";
    if (!mesh->is_skeletal()) continue;
    for (std::size_t a = 0; a < mesh->animations().size(); ++a) {
      const MeshAnimation animation = mesh->animations()[a];
      for (Ticks t : animation_key_times(mesh->model(), a)) {
        instance.animation_player(animation).set_time_point(static_cast<float>(seconds_from_ticks(t)));
        instance.pose_vertices(p);
        for (const glm::vec3& x : p) {
          ASSERT_TRUE(box.contains(x, tolerance)) << what << " " << animation.name << " at " << seconds_from_ticks(t);
        }
      }
    }
  }
}

TEST(MeshBounds, T14_FileMeshesCoverEveryAnimationAtItsKeyTimes) {
  AssetLoader loader([](const std::string&) {});
  const ModelBundle character_bundle = loader.bundle_from_model(character());
  expect_animation_inside_bounds(character_bundle, "character");
  // The nod moves the hat beyond the bind-pose box.
  EXPECT_LT(character_bundle.meshes[1]->bounding_box().min.x, -0.9f);
  const fs::path assets = MARROW_SHARED_ASSETS;
  if (!fs::exists(assets / "gltf")) GTEST_SKIP() << "shared assets not found at " << assets;
  for (const char* file : {"gltf/CesiumMan/cesium_man.gltf", "gltf/Fox/Fox.gltf", "gltf/RiggedSimple/rigged_simple.gltf",
                           "gltf/SimpleSkin/SimpleSkin.gltf", "gltf/BoxAnimated/box_animated.gltf"}) {
    expect_animation_inside_bounds(loader.load_bundled_asset(assets / file), file);
  }
}

TEST(AssetLoader, T3_MoreThan255BonesLoadsStaticWithAWarning) {
  Fixture f;
  std::vector<std::uint32_t> joints;
  for (int i = 0; i < 256; ++i) {
    joints.push_back(f.node("J" + std::to_string(i)));
    if (i > 0) f.child(joints[static_cast<std::size_t>(i - 1)], joints.back());
  }
  const auto body = f.node("Body");
  f.scene({joints[0], body});
  MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.joints.assign(3, glm::u16vec4(255, 0, 0, 0));
  m.weights.assign(3, glm::vec4(1, 0, 0, 0));
  f.doc().nodes[body].mesh = f.mesh(m);
  f.doc().nodes[body].skin = f.skin(joints, {});
  ImportOptions wide;
  wide.max_palette = 300;
  std::vector<std::string> warnings;
  AssetLoader loader([&](const std::string& w) { warnings.push_back(w); });
  const auto mesh = loader.mesh_from_model(f.import(wide));
  EXPECT_FALSE(mesh->is_skeletal());
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].find("256 bones"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace marrow::asset
