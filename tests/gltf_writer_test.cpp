// The glTF writer: Model -> .glb/.gltf -> import gives the same model and the same poses.
#include <gtest/gtest.h>

#include <filesystem>

#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/model/animator.hpp"
#include "demo/demo_character.hpp"
#include "native_test_util.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::expect_same_poses;
using test::near;

TEST(GltfWriter, DemoCharacterRoundTripsThroughGlb) {
  const Model original = make_demo_character();
  const gltf::GltfAsset asset = model_to_gltf(original);
  const Model imported = import_gltf(asset);
  EXPECT_EQ(imported.nodes.size(), original.nodes.size());
  ASSERT_EQ(imported.skins.size(), 1u);
  EXPECT_EQ(imported.skins[0].data.bone_count, 9);
  EXPECT_EQ(imported.skins[0].data.skeleton_hierarchy, original.skins[0].data.skeleton_hierarchy);
  for (int p = 0; p < 9; ++p) {
    EXPECT_TRUE(near(imported.skins[0].data.skeleton_root_prefix[static_cast<std::size_t>(p)],
                     original.skins[0].data.skeleton_root_prefix[static_cast<std::size_t>(p)], 1e-5f));
  }
  EXPECT_EQ(imported.animations[0].name, "Wave");
  EXPECT_EQ(imported.animations[1].morph_channels.size(), 1u);
  EXPECT_EQ(imported.animations[0].morph_channels[0].track.interpolation, Interpolation::CubicSpline);
  expect_same_poses(original, imported, 2e-5f);
}

// glTF has no clip duration: a clip longer than its keys (an FBX take, a BVH clip whose last
// frames hold) keeps its length through the file, its tracks holding their last keys to the end.
TEST(GltfWriter, AClipLongerThanItsKeysKeepsItsDuration) {
  Model original = make_demo_character();
  ModelAnimation& clip = original.animations[0];
  const Ticks longer = clip.duration + ticks_from_seconds(0.75);
  clip.duration = longer;
  clip.scene_clip.duration = longer;
  for (Skin& skin : original.skins) {
    if (auto it = skin.data.animation_clips.find(clip.name); it != skin.data.animation_clips.end()) it->second.duration = longer;
  }
  const Model imported = import_gltf(model_to_gltf(original));
  ASSERT_EQ(imported.animations[0].name, clip.name);
  EXPECT_NEAR(seconds_from_ticks(imported.animations[0].duration), seconds_from_ticks(longer), 1e-6);
  EXPECT_EQ(imported.animations[1].duration, original.animations[1].duration);  // a clip as long as its keys is unchanged
  expect_same_poses(original, imported, 2e-5f);
}

TEST(GltfWriter, WritesGlbAndEmbeddedGltfFiles) {
  const Model original = make_demo_character();
  const auto dir = std::filesystem::temp_directory_path() / "marrow_writer_test";
  std::filesystem::create_directories(dir);
  for (const char* name : {"tentacle.glb", "tentacle.gltf"}) {
    const auto path = dir / name;
    write_gltf(original, path);
    const Model back = import_gltf(path);
    expect_same_poses(original, back, 2e-5f);
  }
  EXPECT_THROW(write_gltf(original, dir / "tentacle.obj"), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

TEST(GltfWriter, ImportedFilesRoundTripToo) {
  const std::filesystem::path assets = MARROW_SHARED_ASSETS;
  const auto file = assets / "gltf/CesiumMan/cesium_man.gltf";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << assets;
  const Model original = import_gltf(file);
  const Model back = import_gltf(model_to_gltf(original));
  expect_same_poses(original, back, 2e-5f);
}

// skin.skeleton is a common root of every joint (glTF 2.0, 5.28), also when the skin has several
// root joints (the hand's wrist and its metacarpals side by side); vertex and index bufferViews
// carry their targets; no TEXCOORD is written (nothing in the file could use it).
TEST(GltfWriter, SkinSkeletonIsACommonRootAndViewsHaveTargets) {
  const auto file = std::filesystem::path(MARROW_SHARED_ASSETS) / "gltf/WebXRGenericHand/left.glb";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const gltf::GltfAsset asset = model_to_gltf(import_gltf(file));
  const gltf::Document& doc = asset.document;
  std::vector<std::uint32_t> parent(doc.nodes.size(), gltf::kNone);
  for (std::uint32_t n = 0; n < doc.nodes.size(); ++n) {
    for (std::uint32_t c : doc.nodes[n].children) parent[c] = n;
  }
  ASSERT_EQ(doc.skins.size(), 1u);
  const gltf::Skin& skin = doc.skins[0];
  ASSERT_NE(skin.skeleton, gltf::kNone);
  for (std::uint32_t joint : skin.joints) {
    std::uint32_t n = joint;
    while (n != gltf::kNone && n != skin.skeleton) n = parent[n];
    EXPECT_EQ(n, skin.skeleton) << "joint node " << joint << " is not below skin.skeleton " << skin.skeleton;
  }
  for (const gltf::Mesh& mesh : doc.meshes) {
    for (const gltf::Primitive& prim : mesh.primitives) {
      for (const gltf::Attribute& a : prim.attributes) {
        EXPECT_EQ(a.semantic.rfind("TEXCOORD", 0), std::string::npos);
        EXPECT_EQ(doc.buffer_views[doc.accessors[a.accessor].buffer_view].target, 34962u) << a.semantic;
      }
      if (prim.indices != gltf::kNone) {
        EXPECT_EQ(doc.buffer_views[doc.accessors[prim.indices].buffer_view].target, 34963u);
      }
    }
  }
}

}  // namespace
}  // namespace marrow
