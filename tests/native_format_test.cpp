// io/native_format: exact round trips (demo character, every shared glTF asset, compressed
// clips), version 1 and 2 files still loading, G18 unit scale and G21 (bone range, the optional
// prefix block). The hostile-file suite is native_hostile_test.cpp.
#include <gtest/gtest.h>

#include "shared_assets.hpp"
#include "native_test_util.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;
using namespace test;

using test::kAssets;

// ---------------------------------------------------------------------------------------------
// Round trips.

TEST(NativeFormat, SmallModelRoundTripsExactly) {
  const Model original = small_model();
  ASSERT_NO_THROW(validate(original));
  const Bytes bytes = write_native(original);
  EXPECT_TRUE(is_native(bytes));
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);
  expect_same_poses(original, loaded);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(write_native(loaded), bytes);
}

TEST(NativeFormat, DemoCharacterRoundTripsExactly) {
  const Model original = make_demo_character();
  const Bytes bytes = write_native(original);
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);
  expect_same_palettes(original, loaded);
  expect_same_poses(original, loaded);
  EXPECT_EQ(write_native(loaded), bytes);
}

TEST(NativeFormat, SharingOfMaterialsAndSkinnedMaterialsIsRestored) {
  const Model loaded = read_native(write_native(small_model()));
  const auto& parts = loaded.meshes[0].parts;
  // Parts of one mesh share one SkinnedMaterial; two skins never share one (M3).
  EXPECT_EQ(parts[0].skinned_material, parts[1].skinned_material);
  EXPECT_NE(parts[0].skinned_material, loaded.meshes[2].parts[0].skinned_material);
  EXPECT_EQ(parts[0].skinned_material->max_bones(), 4);
  EXPECT_EQ(loaded.meshes[2].parts[0].skinned_material->max_bones(), kDefaultMaxBones);
  EXPECT_EQ(parts[0].material, loaded.meshes[1].parts[0].material);
  EXPECT_NE(parts[0].material, parts[1].material);
  EXPECT_EQ(loaded.meshes[2].parts[0].material, nullptr);
  // M2: each skin's bind-pose palette is installed on exactly its meshes' materials.
  for (std::size_t s = 0; s < 2; ++s) {
    const AnimationPlayer player(loaded.skins[s].data);
    const auto palette = player.skin_transforms();
    const auto& material = loaded.meshes[s == 0 ? 0 : 2].parts[0].skinned_material;
    EXPECT_EQ(material->install_count(), 1u);
    EXPECT_EQ(std::memcmp(material->bone_transforms().data(), palette.data(), palette.size_bytes()), 0);
    EXPECT_TRUE(same_bits(material->bone_transforms()[palette.size()], glm::mat4(1.f)));
  }
}

TEST(NativeFormat, EverySharedGltfAssetRoundTripsWithIdenticalPoses) {
  const fs::path folder = kAssets / "gltf";
  if (!fs::is_directory(folder)) GTEST_SKIP() << "shared assets not found at " << folder;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 9u);
  ImportOptions options;
  options.max_palette = 256;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Model original = import_gltf(file, options);
    const Bytes bytes = write_native(original);
    const Model loaded = read_native(bytes);
    expect_same_model(original, loaded);
    expect_same_palettes(original, loaded);
    expect_same_poses(original, loaded);
    EXPECT_EQ(write_native(loaded), bytes);
  }
}

TEST(NativeFormat, BigSkinnedAssetRoundTrips) {
  const fs::path file = kAssets / "perf/big_skinned.glb";
  if (!fs::exists(file)) GTEST_SKIP() << "shared asset not found: " << file;
  ImportOptions options;
  options.max_palette = 256;
  const Model original = import_gltf(file, options);
  const Bytes bytes = write_native(original);
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);
  expect_same_palettes(original, loaded);
  expect_same_poses(original, loaded, 0.f, 2);
}

TEST(NativeFormat, CompressedClipsRoundTripExactlyAndPlayCompressed) {
  for (bool segmented : {false, true}) {
  SCOPED_TRACE(segmented ? "segmented" : "keyed");
  const Model original = compressed_demo(segmented);
  ASSERT_EQ(original.skins[0].compressed_clips.size(), original.skins[0].data.animation_clips.size());
  const Bytes bytes = write_native(original);
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);  // the authored clips rebuilt bitwise, the compressed data too
  expect_same_poses(original, loaded);
  EXPECT_EQ(write_native(loaded), bytes);
  const auto compiled = compile_animations(loaded);
  for (std::size_t a = 0; a < loaded.animations.size(); ++a) {
    const auto& clip = compiled->animations[a].skin_clips[0];
    if (clip) {
      EXPECT_TRUE(clip->compressed()) << loaded.animations[a].name;
    }
  }
  // The reader makes the clips against the skin's rest pose, as the compression did: the blocks
  // that equal it are stored as nothing again.
  for (const auto& [name, clip] : original.skins[0].compressed_clips) {
    EXPECT_EQ(loaded.skins[0].compressed_clips.at(name).size_in_bytes(), clip.size_in_bytes()) << name;
    EXPECT_EQ(clip.caches_keys(), !segmented);
  }
  }
}

TEST(NativeFormat, CompressedClipsMakeSmallerFiles) {
  const fs::path file = kAssets / "gltf/CesiumMan/cesium_man.gltf";
  if (!fs::exists(file)) GTEST_SKIP() << "shared asset not found: " << file;
  Model model = import_gltf(file);
  const std::size_t plain = write_native(model).size();
  std::size_t plain_clips = 0;
  for (const auto& [name, clip] : model.skins[0].data.animation_clips) {
    for (const BoneTrack& t : clip.tracks) plain_clips += t.keys.size() * 48;
  }
  compress_model_clips(model, ClipCompression{});
  const std::size_t compressed = write_native(model).size();
  // The clip bytes shrink to well under a quarter (48-byte keys against a few bits per channel).
  EXPECT_LT(compressed, plain - plain_clips * 3 / 4) << plain << " bytes, " << plain_clips << " of keys";
}

// A file written by the version 1 writer (before compressed clips): the demo character without
// its meshes, committed in tests/data/native (S1_S3_AVersion1FileStillLoads has one with meshes).
TEST(NativeFormat, Version1FilesStillLoad) {
  const fs::path path = fs::path(MARROW_TEST_DATA) / "native" / "demo_character_v1_skeleton.marrow";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Bytes bytes(reinterpret_cast<const std::byte*>(raw.data()), reinterpret_cast<const std::byte*>(raw.data()) + raw.size());
  ASSERT_EQ(get<std::uint32_t>(bytes, 4), 1u);
  Model expected = make_demo_character();
  expected.meshes.clear();
  for (Skin& skin : expected.skins) skin.meshes.clear();
  for (ModelAnimation& a : expected.animations) a.morph_channels.clear();
  const Model loaded = read_native(bytes);
  expect_same_model(expected, loaded);
  expect_same_poses(expected, loaded);
  // Version 1 knows no CCLP section: one marked required is refused, as any unknown section.
  std::vector<Section> sections = split(bytes);
  sections.push_back(split(write_native(compressed_demo()))[5]);
  ASSERT_EQ(sections.back().tag, tag_of("CCLP"));
  EXPECT_TRUE(refuses([&] { read_native(join(bytes, sections)); }, ImportErrorCode::VersionMismatch,
                      {"'CCLP'", "version 1"}));
}

TEST(NativeFormat, CompressedClipKeysCountAgainstTheLimits) {
  const Bytes bytes = write_native(compressed_demo());
  ImportLimits limits;
  limits.max_animation_keys = 10;
  EXPECT_TRUE(refuses([&] { read_native(bytes, limits); }, ImportErrorCode::LimitExceeded,
                      {"section 'CCLP' skin 0 compressed clip 0", "max_animation_keys"}));
}

TEST(NativeFormat, CompressedClipsSurviveUnitScale) {
  for (bool segmented : {false, true}) {
  SCOPED_TRACE(segmented ? "segmented" : "keyed");
  Model model = compressed_demo(segmented);
  apply_unit_scale(model, 100.f);
  ASSERT_NO_THROW(validate(model));
  const Model loaded = read_native(write_native(model));
  expect_same_model(model, loaded);
  // The compressed clip and the authored clip still agree (it plays what the authored clip says).
  for (const auto& [name, clip] : model.skins[0].compressed_clips) {
    const AnimationClip played = decompress_clip(clip);
    const AnimationClip& authored = model.skins[0].data.animation_clips.at(name);
    ASSERT_EQ(played.tracks.size(), authored.tracks.size());
    for (std::size_t t = 0; t < played.tracks.size(); ++t) EXPECT_TRUE(same_keys(played.tracks[t].keys, authored.tracks[t].keys));
  }
  // Made against the scaled rest pose, they still store its blocks as nothing.
  const Model plain = compressed_demo(segmented);
  for (const auto& [name, clip] : plain.skins[0].compressed_clips) {
    EXPECT_EQ(model.skins[0].compressed_clips.at(name).size_in_bytes(), clip.size_in_bytes()) << name;
  }
  // And they are the original's scaled: compare a translation key.
  const auto& a = plain.skins[0].data.animation_clips.begin()->second.tracks[0].keys[0].translation;
  const auto& b = model.skins[0].data.animation_clips.begin()->second.tracks[0].keys[0].translation;
  EXPECT_NEAR(b.x, 100.f * a.x, 1e-3f);
  EXPECT_NEAR(b.y, 100.f * a.y, 1e-3f);
  }
}

TEST(NativeFormat, FilesRoundTripThroughDisk) {
  const fs::path path = fs::temp_directory_path() / ("marrow_native_test_" + std::to_string(::getpid()) + ".mrrw");
  const Model original = make_demo_character();
  write_native_file(original, path);
  const Model loaded = read_native_file(path);
  expect_same_model(original, loaded);
  // Errors from a file name it.
  Bytes bytes = write_native(original);
  put(bytes, 4, std::uint32_t{9});
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  EXPECT_TRUE(refuses([&] { read_native_file(path); }, ImportErrorCode::VersionMismatch, {path.filename().string(), "version 9"}));
  fs::remove(path);
  EXPECT_TRUE(refuses([&] { read_native_file(path); }, ImportErrorCode::IoError, {}));
}

TEST(NativeFormat, G18_UnitScaleBeforeWritingScalesTranslationsOnly) {
  const Model original = make_demo_character();
  Model scaled = original;
  apply_unit_scale(scaled, 0.01f);
  const Model loaded = read_native(write_native(scaled));
  expect_same_model(scaled, loaded);
  expect_same_poses(scaled, loaded);
  // Translation keys and vertex positions scaled, rotations and scales untouched.
  const AnimationClip& before = original.skins[0].data.animation_clips.at("Wave");
  const AnimationClip& after = loaded.skins[0].data.animation_clips.at("Wave");
  for (std::size_t t = 0; t < before.tracks.size(); ++t) {
    for (std::size_t k = 0; k < before.tracks[t].keys.size(); ++k) {
      const Keyframe& a = before.tracks[t].keys[k];
      const Keyframe& b = after.tracks[t].keys[k];
      EXPECT_TRUE(same_bits(b.translation, a.translation * 0.01f));
      EXPECT_TRUE(same_bits(b.rotation, a.rotation));
      EXPECT_TRUE(same_bits(b.scale, a.scale));
    }
  }
  const ModelMeshPart& p = original.meshes[0].parts[0];
  const ModelMeshPart& q = loaded.meshes[0].parts[0];
  for (std::size_t v = 0; v < p.vertex_count(); v += 37) {
    const auto a = read_attribute<glm::vec3>(p.vertex_bytes, p.layout, v, VertexAttribute::Position);
    const auto b = read_attribute<glm::vec3>(q.vertex_bytes, q.layout, v, VertexAttribute::Position);
    EXPECT_TRUE(same_bits(b, a * 0.01f));
    EXPECT_TRUE(same_bits(read_attribute<glm::vec3>(p.vertex_bytes, p.layout, v, VertexAttribute::Normal),
                          read_attribute<glm::vec3>(q.vertex_bytes, q.layout, v, VertexAttribute::Normal)));
  }
  EXPECT_TRUE(same_bits(loaded.nodes[1].transform[3], glm::vec4(glm::vec3(original.nodes[1].transform[3]) * 0.01f, 1.f)));
}

// ---------------------------------------------------------------------------------------------
// G21.

TEST(NativeFormat, G21_FileWithoutPrefixBlockLoadsWithIdentityPrefixes) {
  const Model original = make_demo_character();
  NativeWriteOptions options;
  options.write_root_prefix = false;
  const Bytes bytes = write_native(original, options);
  for (const Section& s : split(bytes)) EXPECT_NE(s.tag, tag_of("PRFX"));
  EXPECT_LT(bytes.size(), write_native(original).size());
  const Model loaded = read_native(bytes);
  ASSERT_EQ(loaded.skins.size(), 1u);
  EXPECT_TRUE(loaded.skins[0].data.skeleton_root_prefix.empty());  // documented: empty reads as identity (P8)
  // Posing equals the same model with bone_count identity prefixes.
  Model identity = original;
  identity.skins[0].data.skeleton_root_prefix.assign(static_cast<std::size_t>(identity.skins[0].data.bone_count),
                                                     glm::mat4(1.f));
  expect_same_poses(identity, loaded);
  // And the player alone agrees at every bone.
  AnimationPlayer empty_prefix(loaded.skins[0].data);
  AnimationPlayer identity_prefix(identity.skins[0].data);
  for (const auto& [name, clip] : loaded.skins[0].data.animation_clips) {
    empty_prefix.start_clip(clip);
    identity_prefix.start_clip(identity.skins[0].data.animation_clips.at(name));
    for (double t : {0.0, 0.4, 1.3}) {
      empty_prefix.update(ticks_from_seconds(t), false);
      identity_prefix.update(ticks_from_seconds(t), false);
      EXPECT_EQ(max_difference(floats(empty_prefix.world_transforms()), floats(identity_prefix.world_transforms())), 0.f);
      EXPECT_EQ(max_difference(floats(empty_prefix.skin_transforms()), floats(identity_prefix.skin_transforms())), 0.f);
    }
  }
  // Everything else is the original.
  Model without = original;
  without.skins[0].data.skeleton_root_prefix.clear();
  expect_same_model(without, loaded);
}

TEST(NativeFormat, G21_BoneCountBeyond100000IsRefused) {
  Bytes bytes = write_native(small_model());
  const std::size_t bone_count = after_string(bytes, "SkinSentinel");
  ASSERT_EQ(get<std::uint64_t>(bytes, bone_count), 2u);
  put(bytes, bone_count, std::uint64_t{100'001});
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::LimitExceeded,
                      {"section 'SKIN' skin 0: bone_count 100001 exceeds 100000"}));
  put(bytes, bone_count, std::uint64_t{1} << 62);
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::LimitExceeded, {"bone_count"}));
  // The model's own bone count too.
  Bytes model_bones = write_native(small_model());
  const std::size_t at = split(model_bones)[0].payload.size() + split(model_bones)[1].payload.size() + 24 + 2 * 16 + 16;
  ASSERT_EQ(get<std::uint64_t>(model_bones, at), 6u);
  put(model_bones, at, std::uint64_t{100'001});
  EXPECT_TRUE(refuses([&] { read_native(model_bones); }, ImportErrorCode::LimitExceeded,
                      {"section 'BONE'", "bone count 100001 exceeds 100000"}));
}

TEST(NativeFormat, G21_SkinsOf0And100000BonesLoad) {
  Model model;
  model.nodes = {ModelNode{"root", -1, glm::mat4(1.f), -1}};
  Skin empty;
  empty.name = "empty";
  model.skins.push_back(empty);
  Skin big;
  big.name = "big";
  big.data.bone_count = 100'000;
  big.data.skeleton_hierarchy.resize(100'000);
  for (int i = 0; i < 100'000; ++i) big.data.skeleton_hierarchy[static_cast<std::size_t>(i)] = i - 1;
  big.data.bind_pose.assign(100'000, translate(0, 0.001f, 0));
  big.data.inverse_bind_pose.assign(100'000, glm::mat4(1.f));
  model.skins.push_back(big);
  const Model loaded = read_native(write_native(model));
  ASSERT_EQ(loaded.skins.size(), 2u);
  EXPECT_EQ(loaded.skins[0].data.bone_count, 0);
  EXPECT_EQ(loaded.skins[1].data.bone_count, 100'000);
  EXPECT_TRUE(same_bits(loaded.skins[1].data.bind_pose, big.data.bind_pose));
  // The writer refuses what the reader would.
  model.skins[1].data.bone_count = 100'001;
  model.skins[1].data.skeleton_hierarchy.push_back(99'999);
  model.skins[1].data.bind_pose.push_back(glm::mat4(1.f));
  model.skins[1].data.inverse_bind_pose.push_back(glm::mat4(1.f));
  EXPECT_THROW(write_native(model), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Version 2 (S1, S3): layouts keep their influence count, parts their skinning mode; version 1
// files still load.

TEST(NativeFormat, S1_S3_InfluenceCountsAndSkinningModesRoundTrip) {
  Model model = small_model();
  // Mesh 0 part 0 with six influences (two sets), skinned by dual quaternions.
  ModelMeshPart& part = model.meshes[0].parts[0];
  using A = VertexAttribute;
  const VertexLayout six = VertexLayout::interleaved({A::Position, A::Normal, A::Joints0, A::Weights0}, 0, 6);
  ModelMeshPart wide = triangle_part(six, 0.f);
  for (std::size_t v = 0; v < 3; ++v) {
    const std::uint16_t joints[8] = {1, 0, 1, 0, 1, 0, 0, 0};
    const float weights[8] = {0.3f, 0.2f, 0.2f, 0.1f, 0.1f, 0.1f, 0.f, 0.f};
    std::memcpy(wide.vertex_bytes.data() + v * six.stride + six.offset(A::Joints0), joints, sizeof joints);
    std::memcpy(wide.vertex_bytes.data() + v * six.stride + six.offset(A::Weights0), weights, sizeof weights);
  }
  part.layout = six;
  part.vertex_bytes = wide.vertex_bytes;
  part.morph.reset();
  model.meshes[0].morph_weights.clear();
  for (ModelAnimation& animation : model.animations) animation.morph_channels.clear();
  part.skinning = SkinningMode::DualQuaternion;
  ASSERT_NO_THROW(validate(model));
  const Bytes bytes = write_native(model);
  EXPECT_EQ(get<std::uint32_t>(bytes, 4), 3u) << "written as version 3";
  const Model read = read_native(bytes);
  EXPECT_EQ(read.meshes[0].parts[0].layout.influences, 6u);
  EXPECT_EQ(read.meshes[0].parts[0].layout, six);
  EXPECT_EQ(read.meshes[0].parts[0].vertex_bytes, part.vertex_bytes);
  EXPECT_EQ(read.meshes[0].parts[0].skinning, SkinningMode::DualQuaternion);
  EXPECT_EQ(read.meshes[1].parts[0].skinning, SkinningMode::Linear);
  // A skinning mode past the last is refused; so is an influence count validate(Model) refuses.
  const std::size_t at = find_unique(bytes, kPrimitiveSentinel);
  const std::size_t vertex_bytes = 3 * six.stride;
  const std::size_t influences = at + 4 + 4 + 36;  // source_vertex_count, then the layout's last u32
  ASSERT_EQ(get<std::uint32_t>(bytes, influences), 6u);
  Bytes zero = bytes;
  put(zero, influences, std::uint32_t{0});
  EXPECT_TRUE(refuses([&] { read_native(zero); }, ImportErrorCode::InvalidDocument, {"mesh 0 part 0", "influences 0"}));
  Bytes many = bytes;
  put(many, influences, std::uint32_t{300});
  EXPECT_TRUE(refuses([&] { read_native(many); }, ImportErrorCode::InvalidDocument, {"influences 300"}));
  // The skinning byte follows the indices (u64 count + 4 bytes each) and source_vertices.
  const std::size_t index_count = influences + 4 + 8 + vertex_bytes;
  const std::size_t indices = get<std::uint64_t>(bytes, index_count);
  const std::size_t sources = get<std::uint64_t>(bytes, index_count + 8 + 4 * indices);
  const std::size_t skinning = index_count + 8 + 4 * indices + 8 + 4 * sources;
  ASSERT_EQ(get<std::uint8_t>(bytes, skinning), 1u);
  Bytes mode = bytes;
  put(mode, skinning, std::uint8_t{2});
  EXPECT_TRUE(refuses([&] { read_native(mode); }, ImportErrorCode::InvalidDocument, {"skinning 2"}));
}

TEST(NativeFormat, S1_S3_AVersion1FileStillLoads) {
  // tests/data/native/demo_character_v1.marrow: the demo character written by the version-1
  // writer (commit cba4c65, before S1 and S3).
  const std::filesystem::path path = std::filesystem::path(MARROW_TEST_DATA) / "native" / "demo_character_v1.marrow";
  const FileBytes file = read_file(path, ImportLimits{});
  const Bytes bytes(file.bytes().begin(), file.bytes().end());
  ASSERT_EQ(get<std::uint32_t>(bytes, 4), 1u);
  const Model v1 = read_native(bytes);
  EXPECT_NO_THROW(validate(v1));
  ASSERT_FALSE(v1.meshes.empty());
  for (const ModelMesh& mesh : v1.meshes) {
    for (const ModelMeshPart& part : mesh.parts) {
      EXPECT_EQ(part.layout.influences, 4u) << "version 1: four influences";
      EXPECT_EQ(part.skinning, SkinningMode::Linear);
    }
  }
  // Written again (version 3) and read back, it poses the same.
  const Model v2 = read_native(write_native(v1));
  Animator a(v1), b(v2);
  for (std::size_t clip = 0; clip < v1.animations.size(); ++clip) {
    a.play(static_cast<int>(clip));
    b.play(static_cast<int>(clip));
    a.update(ticks_from_seconds(0.7), false);
    b.update(ticks_from_seconds(0.7), false);
    for (std::size_t m = 0; m < v1.meshes.size(); ++m) {
      for (std::size_t p = 0; p < v1.meshes[m].parts.size(); ++p) {
        std::vector<glm::vec3> pa(v1.meshes[m].parts[p].vertex_count()), pb(pa.size());
        a.pose_part(m, p, pa);
        b.pose_part(m, p, pb);
        EXPECT_EQ(pa, pb) << "clip " << clip << " mesh " << m;
      }
    }
  }
  // And as it was made: the demo character of today, whose data the file holds (should the demo
  // character change, this comparison goes; the file and the checks above stay).
  const Model demo = make_demo_character();
  ASSERT_EQ(v1.meshes.size(), demo.meshes.size());
  for (std::size_t m = 0; m < demo.meshes.size(); ++m) {
    for (std::size_t p = 0; p < demo.meshes[m].parts.size(); ++p) {
      EXPECT_EQ(v1.meshes[m].parts[p].vertex_bytes, demo.meshes[m].parts[p].vertex_bytes) << "mesh " << m;
    }
  }
}

}  // namespace
}  // namespace marrow
