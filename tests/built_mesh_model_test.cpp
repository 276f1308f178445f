// A mesh built in code is a Model (DESIGN.md, asset layer): what draws, writes, converts or poses
// a Model takes it as it takes any import, and the asset API's poses are that Model's poses.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/asset/mesh_builder.hpp"
#include "marrow/asset/model_instance.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/model/animator.hpp"
#include "native_test_util.hpp"
#include "render_test_util.hpp"
#include "test_util.hpp"

namespace marrow::asset {
namespace {

using test::near;
using test::translate;

MeshVertexSkeletal arm_vertex(float x, float y, std::uint8_t bone) {
  MeshVertexSkeletal v;
  v.location = {x, y, 0.f};
  v.bone_indices = {bone, 0, 0, 0};
  v.bone_weights = {1.f, 0.f, 0.f, 0.f};
  return v;
}

// An arm whose bones are numbered tip first (bone 0 is the child of bone 1) with a non-bone
// elbow node between them, and a "Fold" that turns the elbow 90 degrees about z over a second.
struct FoldingArm {
  MeshBuilder builder;
  std::shared_ptr<Mesh> mesh;
  MeshAnimation fold;
  FoldingArm() {
    const MeshVertexSkeletal vertices[] = {arm_vertex(0.1f, 0.f, 1), arm_vertex(-0.1f, 0.f, 1),
                                           arm_vertex(0.1f, 1.5f, 0), arm_vertex(-0.1f, 1.5f, 0)};
    const VertexTriangle triangles[] = {{0, 2, 3}, {0, 3, 1}};  // counter-clockwise from the front
    const SkeletalAnimationNode nodes[] = {
        {glm::mat4(1.f), glm::mat4(1.f), std::nullopt, 1},     // node 0: shoulder, bone 1
        {translate(0, 0.5f, 0), glm::mat4(1.f), 0, std::nullopt},  // node 1: elbow, no bone
        {translate(0, 0.5f, 0), translate(0, -1, 0), 1, 0},    // node 2: hand at (0, 1, 0), bone 0
    };
    MeshCreationConfig config;
    config.name = "Arm";
    mesh = builder.create_from_vertices(vertices, triangles, nodes, config);
    builder.set_skeleton_node_name(*mesh, 1, "Elbow");
    builder.set_skeleton_node_name(*mesh, 2, "Hand");
    const SkeletalAnimationRotationKeyframe rotation[] = {
        {0.f, glm::quat(1, 0, 0, 0)}, {1.f, glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1))}};
    const SkeletalAnimationTranslationKeyframe translation[] = {{0.f, glm::vec3(0, 0.5f, 0)}};
    const SkeletalAnimationNodeMutationDescriptor mutations[] = {{1, 0, 0, 0, 2, 0, 1}};
    fold = builder.attach_animation(*mesh, {}, rotation, translation, mutations, 1.f, "Fold");
  }
};

TEST(MeshBuilder, T11_ABuiltMeshIsAModelItsInstancesPose) {
  FoldingArm arm;
  const Model& model = arm.mesh->model();
  EXPECT_NO_THROW(validate(model));
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].name, "Arm");
  ASSERT_EQ(model.animations.size(), 1u);
  EXPECT_EQ(model.animations[0].name, "Fold");
  // The names set through the builder are the Model's node names.
  bool hand = false;
  for (const ModelNode& bone : model.nodes) hand = hand || bone.name == "Hand";
  EXPECT_TRUE(hand);

  // The instance player and an Animator on the Model agree, vertex for vertex: the elbow, not a
  // bone, turns the hand's row about (0, 0.5, 0).
  ModelInstance instance(arm.mesh);
  instance.animation_player(arm.fold).set_time_point(1.f);
  std::vector<glm::vec3> posed(arm.mesh->vertex_count());
  instance.pose_vertices(posed);
  EXPECT_TRUE(near(posed[2], {-1.f, 0.6f, 0.f}, 1e-5f)) << posed[2].x << " " << posed[2].y;
  EXPECT_TRUE(near(posed[0], {0.1f, 0.f, 0.f}, 1e-6f)) << "the shoulder's row stays";
  Animator animator(model);
  animator.play("Fold");
  animator.update(ticks_from_seconds(1.0), false, false);
  std::vector<glm::vec3> through_model(model.meshes[0].parts[0].vertex_count());
  animator.pose_part(0, 0, through_model);
  ASSERT_EQ(through_model.size(), posed.size());
  for (std::size_t v = 0; v < posed.size(); ++v) EXPECT_TRUE(near(through_model[v], posed[v], 1e-5f)) << v;
  const Skeleton skeleton = arm.mesh->skeleton();
  EXPECT_EQ(skeleton["Hand"].bone, 0);
  EXPECT_EQ(skeleton["Elbow"].bone, -1);
  EXPECT_TRUE(near(skeleton.posed_node_transform(instance, "Hand"),
                   animator.absolute_bone_transforms()[static_cast<std::size_t>(arm.mesh->bone_model_nodes()[0])], 1e-6f));
}

TEST(MeshBuilder, T11_ABuiltMeshWritesAsGltfAndDraws) {
  FoldingArm arm;
  const Model& model = arm.mesh->model();
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("marrow_built_arm_" + std::to_string(::getpid()) + ".glb");
  write_gltf(model, path);
  const Model back = import_gltf(path);
  std::filesystem::remove(path);
  // The file plays as the built mesh does (nodes, skin and the clip through the writer).
  test::expect_same_poses(model, back, 1e-5f);

  const BoundingBox box = arm.mesh->bounding_box();
  const render::Camera camera = render::frame_camera(box, render::CameraFraming{});
  render::RenderSettings settings;
  settings.width = settings.height = 64;
  const render::Image picture = test::render_pose(model, 0, 0.5, camera, settings);
  EXPECT_GT(test::touched_pixels(picture, picture(0, 0)).touched, 50u) << "the arm is drawn";
}

TEST(AnimationTable, T10_ABuiltMeshsTableSharesItsModel) {
  FoldingArm arm;
  const std::shared_ptr<AnimationTable> table = AnimationTable::of(*arm.mesh);
  EXPECT_EQ(&table->shared().model, &arm.mesh->model()) << "a view, not a copy";
  ModelInstanceGroup group = create_model_instances(std::span(&arm.mesh, 1), table);
  group.animation_player(table->animations()["Fold"]).set_time_point(1.f);
  ModelInstance alone(arm.mesh);
  alone.animation_player(arm.fold).set_time_point(1.f);
  for (std::size_t b = 0; b < alone.bone_transforms().size(); ++b) {
    EXPECT_TRUE(near(group.instances()[0].bone_transforms()[b], alone.bone_transforms()[b], 1e-6f)) << b;
  }
}

}  // namespace
}  // namespace marrow::asset
