// model/: palettes (M1-M3), absolute transforms (M4), rigid clips (G10), validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/absolute_bone_transforms.hpp"
#include "marrow/model/apply_clip_to_bones.hpp"
#include "marrow/model/bind_pose_palette.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/draw_item.hpp"
#include "marrow/model/skeleton_bones.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;
using test::throws_with;

using test::translate;

// Two one-joint skins, each driving its own one-triangle mesh; joints at x = 1 and x = 2.
Model two_skin_model() {
  using A = VertexAttribute;
  Model model;
  model.nodes = {ModelNode{"root", -1, glm::mat4(1.f)}, ModelNode{"a", 0, translate(1, 0, 0)},
                 ModelNode{"b", 0, translate(2, 0, 0)}, ModelNode{"meshA", 0, glm::mat4(1.f)},
                 ModelNode{"meshB", 0, glm::mat4(1.f)}};
  const VertexLayout layout = VertexLayout::interleaved({A::Position, A::Joints0, A::Weights0});
  for (int s = 0; s < 2; ++s) {
    ModelMesh mesh;
    mesh.node = 3 + s;
    mesh.skin = s;
    ModelMeshPart part;
    part.layout = layout;
    part.vertex_bytes.resize(3 * layout.stride);
    for (std::size_t v = 0; v < 3; ++v) {
      write_attribute(part.vertex_bytes, layout, v, A::Position, glm::vec3(float(v), 1, 0));
      write_attribute(part.vertex_bytes, layout, v, A::Joints0, glm::u16vec4(0));
      write_attribute(part.vertex_bytes, layout, v, A::Weights0, glm::vec4(1, 0, 0, 0));
    }
    part.skinned_material = std::make_shared<SkinnedMaterial>();
    mesh.parts.push_back(part);
    model.meshes.push_back(mesh);
    Skin skin;
    skin.data.bone_count = 1;
    skin.data.skeleton_hierarchy = {-1};
    skin.data.bind_pose = {model.nodes[static_cast<std::size_t>(1 + s)].transform};
    skin.data.inverse_bind_pose = {glm::mat4(1.f)};  // not the inverse: the bind palette is a visible translation
    skin.meshes = {s};
    model.skins.push_back(skin);
  }
  return model;
}

TEST(SkinnedMaterialTest, M2_PaletteStartsAsMaxBonesIdentities) {
  const SkinnedMaterial m;
  ASSERT_EQ(m.max_bones(), 72);
  for (const glm::mat4& p : m.bone_transforms()) EXPECT_EQ(p, glm::mat4(1.f));
  const SkinnedMaterial small(4);
  EXPECT_EQ(small.bone_transforms().size(), 4u);
  EXPECT_THROW(SkinnedMaterial(0), std::invalid_argument);
}

TEST(SkinnedMaterialTest, M2_SetBoneTransformsRefusesMoreThanMaxBones) {
  SkinnedMaterial m(2);
  const std::vector<glm::mat4> three(3, translate(1, 0, 0));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { m.set_bone_transforms(three); }, {"3 matrices", "palette of 2"}));
  const std::vector<glm::mat4> one(1, translate(1, 0, 0));
  m.set_bone_transforms(one);
  EXPECT_EQ(m.bone_transforms()[0], translate(1, 0, 0));
  EXPECT_EQ(m.bone_transforms()[1], glm::mat4(1.f));
}

TEST(BindPosePalette, M2_InstalledOnExactlyThatSkinsMaterials) {
  Model model = two_skin_model();
  ASSERT_NO_THROW(validate(model));
  EXPECT_EQ(apply_bind_pose_bone_transforms(model, 0), 1);
  EXPECT_EQ(model.meshes[0].parts[0].skinned_material->bone_transforms()[0], translate(1, 0, 0));
  EXPECT_EQ(model.meshes[1].parts[0].skinned_material->bone_transforms()[0], glm::mat4(1.f)) << "other skin untouched";
  EXPECT_EQ(apply_bind_pose_bone_transforms(model, 1), 1);
  EXPECT_EQ(model.meshes[1].parts[0].skinned_material->bone_transforms()[0], translate(2, 0, 0));
  EXPECT_THROW(apply_bind_pose_bone_transforms(model, 2), std::out_of_range);
}

TEST(BindPosePalette, M2_CountsDistinctMaterialsAndOlderRoutePosesAll) {
  Model model = two_skin_model();
  model.meshes[0].parts.push_back(model.meshes[0].parts[0]);  // a second part sharing the material
  EXPECT_EQ(apply_bind_pose_bone_transforms(model, 0), 1);
  EXPECT_EQ(apply_bind_pose_bone_transforms(model, model.skins[1].data), 2);
  EXPECT_EQ(model.meshes[0].parts[0].skinned_material->bone_transforms()[0], translate(2, 0, 0));
}

TEST(BindPosePalette, M3_TwoSkinsNeverShareAMaterial) {
  Model model = two_skin_model();
  model.meshes[1].parts[0].skinned_material = model.meshes[0].parts[0].skinned_material;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(model); }, {"mesh 1", "shares a skinned material"}));
}

TEST(DrawModel, M1_DrawingNeverInstallsPalettes) {
  Model model = make_demo_character();
  const SkinnedMaterial& palette = *model.meshes[0].parts[0].skinned_material;
  const auto installs = palette.install_count();
  const std::vector<glm::mat4> before(palette.bone_transforms().begin(), palette.bone_transforms().end());
  std::vector<glm::mat4> absolute(model.nodes.size());
  copy_absolute_bone_transforms(model, absolute);
  int parts = 0;
  draw_model(model, absolute, [&](const DrawItem& item) {
    ++parts;
    EXPECT_EQ(item.vertex_bytes.data(), item.data->vertex_bytes.data());
  });
  EXPECT_EQ(parts, 2);
  EXPECT_EQ(palette.install_count(), installs);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), palette.bone_transforms().begin()));
}

TEST(AbsoluteBoneTransforms, M4_IndexedBySceneNodeWithoutInverseBind) {
  const Model model = make_demo_character();
  std::vector<glm::mat4> absolute(model.nodes.size());
  copy_absolute_bone_transforms(model, absolute);
  // Seg2 is scene node 4: Armature (raised 0.25, scaled 1.5) * Seg0 * Seg1 * Seg2 = y 0.25 + 1.5 * 1.0.
  EXPECT_TRUE(near(glm::vec3(absolute[4][3]), {0, 1.75f, 0}));
  // Palette index 2 is the same joint, but the palette holds world * inverse_bind (identity at bind).
  const auto palette = model.meshes[0].parts[0].skinned_material->bone_transforms();
  EXPECT_FALSE(near(palette[2], absolute[4]));
  EXPECT_TRUE(near(glm::vec3(absolute[11][3]), {0, 0, 2}));  // the mesh node
  std::vector<glm::mat4> wrong(3);
  EXPECT_THROW(copy_absolute_bone_transforms(model, wrong), std::invalid_argument);
}

AnimationClip rigid_clip() {
  AnimationClip clip;
  clip.name = "Slide";
  clip.duration = ticks_from_seconds(2.0);
  clip.target_space = ClipTargetSpace::SceneNode;
  BoneTrack track;
  track.bone_index = 1;
  track.keys = {Keyframe{Ticks{0}, glm::vec3(0)}, Keyframe{ticks_from_seconds(2.0), glm::vec3(4, 0, 0)}};
  clip.tracks.push_back(track);
  clip.tracks.push_back(BoneTrack{2, {}});  // no keys: ignored
  track.bone_index = 99;                    // outside the model: ignored
  clip.tracks.push_back(track);
  return clip;
}

TEST(ApplyClipToBones, G10_WritesTrackedBonesAndLeavesOthers) {
  Model model = two_skin_model();
  apply_clip_to_bones(model, rigid_clip(), ticks_from_seconds(1.0));
  EXPECT_TRUE(near(model.nodes[1].transform, translate(2, 0, 0)));
  EXPECT_TRUE(near(model.nodes[2].transform, translate(2, 0, 0))) << "untracked bone keeps its transform";
}

TEST(ApplyClipToBones, G10_ClampsTimeToTheClip) {
  Model model = two_skin_model();
  apply_clip_to_bones(model, rigid_clip(), ticks_from_seconds(7.0));
  EXPECT_TRUE(near(model.nodes[1].transform, translate(4, 0, 0)));
  apply_clip_to_bones(model, rigid_clip(), ticks_from_seconds(-3.0));
  EXPECT_TRUE(near(model.nodes[1].transform, glm::mat4(1.f)));
}

TEST(ApplyClipToBones, G10_PaletteClipIsRefused) {
  Model model = two_skin_model();
  AnimationClip clip = rigid_clip();
  clip.target_space = ClipTargetSpace::JointPalette;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { apply_clip_to_bones(model, clip, Ticks{0}); },
                                                 {"Slide", "palette"}));
  std::vector<glm::mat4> locals(5);
  EXPECT_THROW(apply_clip_to_bones(locals, clip, Ticks{0}), std::invalid_argument);
}

TEST(ModelValidation, RefusesBadReferencesNamingThem) {
  {
    Model model = two_skin_model();
    model.nodes[2].parent = 3;
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(model); }, {"bone 2 has parent 3"}));
  }
  {
    Model model = two_skin_model();
    model.meshes[0].node = 9;
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(model); }, {"mesh 0 node 9"}));
  }
  {
    Model model = two_skin_model();
    write_attribute(model.meshes[1].parts[0].vertex_bytes, model.meshes[1].parts[0].layout, 2, VertexAttribute::Joints0,
                    glm::u16vec4(0, 1, 0, 0));
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(model); }, {"mesh 1 part 0", "vertex 2 joint 1"}));
  }
  {
    Model model = two_skin_model();
    model.meshes[0].parts[0].indices = {0, 1, 3};
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(model); }, {"index 2 = 3"}));
  }
  {
    Model model = two_skin_model();
    model.skins[0].meshes = {5};
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(model); }, {"skin 0 names mesh 5"}));
  }
  {
    Model model = two_skin_model();
    model.skins[1].data.bind_pose.clear();
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(model); }, {"skin 1", "bind_pose has 0"}));
  }
  EXPECT_NO_THROW(validate(make_demo_character()));
}

// A skeleton-only file: a container holding a camera, its target and a three-joint skeleton,
// all animated. The skeleton is the tree with the most animated nodes, whole (its unanimated
// end site too); the camera and target are left out. With skins: the joints; with meshes and
// no skins: every scene node.
TEST(SkeletonBones, SkinJointsElseTheMainAnimatedTreeWithoutCameras) {
  Model model;
  const char* names[] = {"root", "Scene", "Camera", "Camera.Target", "Hips", "Spine", "Leg", "LegNub"};
  const int parents[] = {-1, 0, 1, 1, 1, 4, 4, 6};
  for (int b = 0; b < 8; ++b) model.nodes.push_back(ModelNode{names[b], parents[b], glm::mat4(1.f)});
  ModelAnimation clip;
  clip.name = "Take";
  clip.duration = ticks_from_seconds(1.0);
  for (int b : {2, 3, 4, 5, 6}) clip.scene_clip.tracks.push_back(BoneTrack{b, {Keyframe{}}});
  model.animations.push_back(clip);
  EXPECT_EQ(skeleton_bones(model), (std::vector<std::uint8_t>{0, 0, 0, 0, 1, 1, 1, 1}));
  // Nothing animated: the largest tree.
  model.animations.clear();
  EXPECT_EQ(skeleton_bones(model), (std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1, 1, 1}));
  const Model skinned = make_demo_character();  // nine joints; the buoy and the mesh node are no joints
  const std::vector<std::uint8_t> joints = skeleton_bones(skinned);
  ASSERT_EQ(joints.size(), skinned.nodes.size());
  EXPECT_EQ(std::count(joints.begin(), joints.end(), std::uint8_t{1}), 9);
  for (int b : skinned.skins[0].palette_to_scene) EXPECT_EQ(joints[static_cast<std::size_t>(b)], 1) << b;
  Model rigid = two_skin_model();
  rigid.skins.clear();
  for (ModelMesh& m : rigid.meshes) m.skin = -1;
  EXPECT_EQ(skeleton_bones(rigid), (std::vector<std::uint8_t>{0, 1, 1, 1, 1}));
}

}  // namespace
}  // namespace marrow
