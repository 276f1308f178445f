// S4 palette split: PalettePolicy::Split (split_skin_palettes) divides the parts of a skin over
// max_palette joints into sub-parts of at most max_palette joints each. Posed vertices equal the
// unsplit model's (compared by file vertex, every copy of a seam vertex too) on the shared
// assets at several clip times; every sub-part stays within the limit; vertices are copied only
// at seams; every influence set, morph targets and strips come along; a primitive over the limit
// is refused naming it; palettes (materials, GPU export, bind pose, bounds), the glTF writer,
// the native format, the asset layer and Assimp honour each sub-part's palette_joints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "shared_assets.hpp"
#include "gltf_fixture.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/split_skin_palettes.hpp"
#include "marrow/asset/asset_loader.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;
using test::Fixture;
using test::MeshData;

using test::kAssets;

ImportOptions unsplit_options() {
  ImportOptions o;
  o.max_palette = 1024;
  return o;
}

ImportOptions split_options(int max_palette) {
  ImportOptions o;
  o.max_palette = max_palette;
  o.palette_policy = PalettePolicy::Split;
  return o;
}

// Posed positions of every part of every mesh, keyed by (mesh, file primitive) and indexed by
// file vertex. Every copy of a vertex must land on the same point (checked here).
using PosedByFile = std::map<std::pair<std::size_t, int>, std::vector<glm::vec3>>;

PosedByFile posed_by_file_vertex(const Model& model, Animator& animator) {
  PosedByFile out;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
      const ModelMeshPart& part = model.meshes[m].parts[p];
      std::vector<glm::vec3> posed(part.vertex_count());
      animator.pose_part(m, p, posed);
      const std::size_t file_vertices = part.source_vertices.empty() ? posed.size() : part.source_vertex_count;
      std::vector<glm::vec3>& slot = out[{m, part.source_primitive}];
      if (slot.empty()) slot.assign(file_vertices, glm::vec3(NAN));
      for (std::size_t v = 0; v < posed.size(); ++v) {
        const std::size_t s = part.source_vertices.empty() ? v : part.source_vertices[v];
        if (!std::isnan(slot[s].x)) {
          EXPECT_TRUE(test::near(slot[s], posed[v], 1e-5f)) << "mesh " << m << " copies of file vertex " << s;
        }
        slot[s] = posed[v];
      }
    }
  }
  return out;
}

float extent(const PosedByFile& posed) {
  float e = 1.f;
  for (const auto& [key, points] : posed) {
    for (const glm::vec3& p : points) e = std::max({e, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  }
  return e;
}

// The split model poses every file vertex where the unsplit one does, for every clip at several
// times (and at the bind pose).
void expect_same_poses_by_file_vertex(const Model& unsplit, const Model& split) {
  Animator a(unsplit), b(split);
  const std::size_t clips = std::max<std::size_t>(unsplit.animations.size(), 1);
  for (std::size_t clip = 0; clip < clips; ++clip) {
    if (!unsplit.animations.empty()) {
      a.play(static_cast<int>(clip));
      b.play(static_cast<int>(clip));
    }
    const double duration = unsplit.animations.empty() ? 0.0 : seconds_from_ticks(unsplit.animations[clip].duration);
    for (const double f : {0.0, 0.3, 0.71, 1.0}) {
      a.update(ticks_from_seconds(f * duration), false, false);
      b.update(ticks_from_seconds(f * duration), false, false);
      const PosedByFile want = posed_by_file_vertex(unsplit, a), got = posed_by_file_vertex(split, b);
      ASSERT_EQ(want.size(), got.size());
      const float tol = 1e-5f * extent(want);
      for (const auto& [key, points] : want) {
        ASSERT_EQ(got.count(key), 1u);
        const std::vector<glm::vec3>& other = got.at(key);
        ASSERT_EQ(points.size(), other.size()) << "mesh " << key.first << " primitive " << key.second;
        for (std::size_t v = 0; v < points.size(); ++v) {
          ASSERT_TRUE(test::near(points[v], other[v], tol))
              << "clip " << clip << " at " << f << " of it, mesh " << key.first << " primitive " << key.second
              << " file vertex " << v;
        }
      }
    }
  }
}

// Every sub-part uses at most max_palette joints (its map, and every weighted JOINTS entry
// within it); its palette material holds them; the vertex count grows only by seam copies: a
// file vertex in k sub-parts is drawn by primitives of each of them.
void expect_within_limit_and_seams_only(const Model& unsplit, const Model& split, int max_palette) {
  for (std::size_t m = 0; m < split.meshes.size(); ++m) {
    const ModelMesh& mesh = split.meshes[m];
    if (mesh.skin < 0 || split.skins[static_cast<std::size_t>(mesh.skin)].data.bone_count <= max_palette) continue;
    std::size_t vertices = 0, unsplit_vertices = 0, copies = 0;
    for (const ModelMeshPart& part : unsplit.meshes[m].parts) unsplit_vertices += part.vertex_count();
    std::map<std::pair<int, std::uint32_t>, std::vector<std::size_t>> parts_of;  // file vertex -> sub-parts
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      ASSERT_FALSE(part.palette_joints.empty()) << "mesh " << m << " part " << p;
      EXPECT_LE(part.palette_joints.size(), static_cast<std::size_t>(max_palette));
      EXPECT_TRUE(std::is_sorted(part.palette_joints.begin(), part.palette_joints.end()));
      EXPECT_GE(part.skinned_material->max_bones(), static_cast<int>(part.palette_joints.size()));
      for (std::size_t v = 0; v < part.vertex_count(); ++v) {
        for (std::uint32_t i = 0; i < part.layout.influences; ++i) {
          std::uint16_t j;
          std::memcpy(&j, part.vertex_bytes.data() + v * part.layout.stride + part.layout.offset(VertexAttribute::Joints0) + 2 * i, 2);
          ASSERT_LT(j, part.palette_joints.size()) << "every slot, weighted or not, names an entry of the map";
        }
        parts_of[{part.source_primitive, part.source_vertices.at(v)}].push_back(p);
      }
      vertices += part.vertex_count();
    }
    for (const auto& [vertex, in] : parts_of) {
      if (in.size() < 2) continue;
      copies += in.size() - 1;
      for (std::size_t p : in) {
        const ModelMeshPart& part = mesh.parts[p];
        bool drawn = false;
        for (std::uint32_t index : part.indices) drawn = drawn || part.source_vertices[index] == vertex.second;
        EXPECT_TRUE(drawn) << "file vertex " << vertex.second << " copied into sub-part " << p << " that draws it not";
      }
    }
    EXPECT_EQ(vertices, unsplit_vertices + copies) << "mesh " << m << ": vertices grow only by seam copies";
    EXPECT_GE(mesh.parts.size(), unsplit.meshes[m].parts.size()) << "mesh " << m;
  }
  std::size_t parts = 0, unsplit_parts = 0;
  for (const ModelMesh& mesh : split.meshes) parts += mesh.parts.size();
  for (const ModelMesh& mesh : unsplit.meshes) unsplit_parts += mesh.parts.size();
  EXPECT_GT(parts, unsplit_parts) << "something was split";
}

struct Asset {
  fs::path path;
  int max_palette;
};

std::vector<Asset> shared_assets() {
  std::vector<Asset> out;
  // The smallest limits that hold each asset's most-jointed triangle, or close to it.
  for (const Asset& a : {Asset{kAssets / "gltf/CesiumMan/cesium_man.gltf", 8}, Asset{kAssets / "gltf/Fox/Fox.gltf", 8},
                         Asset{kAssets / "perf/big_skinned.glb", 24}}) {
    if (fs::exists(a.path)) out.push_back(a);
  }
  return out;
}

TEST(SplitSkinPalettes, S4_SplitPartsPoseExactlyAsUnsplitOnTheSharedAssets) {
  const std::vector<Asset> assets = shared_assets();
  if (assets.empty()) GTEST_SKIP() << "shared assets not found at " << kAssets;
  for (const Asset& asset : assets) {
    SCOPED_TRACE(asset.path.filename().string() + " split at " + std::to_string(asset.max_palette));
    const Model unsplit = import_gltf(asset.path, unsplit_options());
    const Model split = import_gltf(asset.path, split_options(asset.max_palette));
    ASSERT_EQ(split.skins.size(), unsplit.skins.size());
    for (std::size_t s = 0; s < split.skins.size(); ++s) {
      EXPECT_EQ(split.skins[s].data.bone_count, unsplit.skins[s].data.bone_count) << "the skin keeps every joint";
    }
    expect_within_limit_and_seams_only(unsplit, split, asset.max_palette);
    expect_same_poses_by_file_vertex(unsplit, split);
    // G17: the loaded pose's bounds are those of the unsplit model.
    for (std::size_t m = 0; m < split.meshes.size(); ++m) {
      EXPECT_TRUE(test::near(split.meshes[m].bounding_sphere.center, unsplit.meshes[m].bounding_sphere.center, 1e-4f));
      EXPECT_NEAR(split.meshes[m].bounding_sphere.radius, unsplit.meshes[m].bounding_sphere.radius, 1e-4f);
    }
    // S5: the per-joint boxes are made through each sub-part's map, so they are the unsplit
    // model's (a seam copy adds no new point), and so is each frame's box.
    for (std::size_t s = 0; s < split.skins.size(); ++s) {
      EXPECT_EQ(split.skins[s].joint_bounds, unsplit.skins[s].joint_bounds) << "skin " << s;
    }
    Animator a(unsplit), b(split);
    if (!unsplit.animations.empty()) {
      a.play(0);
      b.play(0);
      a.update(Ticks{3'000'000});
      b.update(Ticks{3'000'000});
    }
    const BoundingBox box_a = a.bounds(), box_b = b.bounds();
    EXPECT_EQ(box_a.min, box_b.min);
    EXPECT_EQ(box_a.max, box_b.max);
  }
}

// A chain of 20 joints skinning a triangle strip whose vertices have eight influences in two
// sets (five weighted, three zero-weight slots naming far joints), with a morph target.
Fixture strip_rig(std::uint32_t mode) {
  Fixture f;
  constexpr int kJoints = 20;
  std::vector<std::uint32_t> joints;
  std::vector<glm::mat4> inverse_binds;
  for (int i = 0; i < kJoints; ++i) {
    joints.push_back(f.node("J" + std::to_string(i), {0, i == 0 ? 0.f : 0.5f, 0}));
    if (i > 0) f.child(joints[static_cast<std::size_t>(i - 1)], joints.back());
    inverse_binds.push_back(glm::translate(glm::mat4(1.f), glm::vec3(0, -0.5f * static_cast<float>(i), 0)));
  }
  const auto body = f.node("Body");
  f.scene({joints[0], body});
  MeshData m;
  m.mode = mode;
  constexpr int kRows = 30;
  m.more_joints.resize(1);
  m.more_weights.resize(1);
  std::vector<glm::vec3> target;
  for (int r = 0; r < kRows; ++r) {
    for (int side = 0; side < 2; ++side) {
      const float y = 0.33f * static_cast<float>(r);
      m.positions.push_back({static_cast<float>(side), y, 0.1f * static_cast<float>(r % 3)});
      m.normals.push_back({0, 0, 1});
      target.push_back({0.05f * static_cast<float>(side), 0, 0.02f * static_cast<float>(r)});
      const int j = std::min(r * (kJoints - 5) / kRows, kJoints - 5);
      const auto u = [&](int k) { return static_cast<std::uint16_t>(std::min(j + k, kJoints - 1)); };
      m.joints.push_back({u(0), u(1), u(2), u(3)});
      m.weights.push_back({0.4f, 0.25f, 0.15f, 0.1f});
      m.more_joints[0].push_back({u(4), static_cast<std::uint16_t>(kJoints - 1 - j / 2), 0, static_cast<std::uint16_t>(j / 3)});
      m.more_weights[0].push_back({0.1f, 0.f, 0.f, 0.f});
    }
  }
  m.position_targets = {target};
  m.weights_default = {0.6f};
  if (mode == 4) {  // a list: the strip's triangles, indexed
    for (std::uint32_t i = 0; i + 2 < 2 * kRows; ++i) {
      m.indices.insert(m.indices.end(), {i + (i % 2), i + 1 - (i % 2), i + 2});
    }
  }
  f.doc().nodes[body].mesh = f.mesh(m);
  f.doc().nodes[body].skin = f.skin(joints, inverse_binds);
  const auto anim = f.animation("Bend");
  for (int i = 1; i < kJoints; ++i) {
    const glm::quat q = glm::angleAxis(0.15f * static_cast<float>(i % 4), glm::normalize(glm::vec3(1, 0.2f * static_cast<float>(i), 0.5f)));
    f.channel(anim, joints[static_cast<std::size_t>(i)], "rotation", gltf::SamplerInterpolation::Linear, {0.f, 1.f},
              {0, 0, 0, 1, q.x, q.y, q.z, q.w});
  }
  return f;
}

TEST(SplitSkinPalettes, S4_EveryInfluenceSetMorphTargetsStripsAndListsSplitExactly) {
  for (const std::uint32_t mode : {4u, 5u}) {  // TRIANGLES (indexed), TRIANGLE_STRIP
    SCOPED_TRACE(mode == 4 ? "triangles" : "triangle strip");
    Fixture f = strip_rig(mode);
    const Model unsplit = f.import(unsplit_options());
    const Model split = f.import(split_options(8));
    ASSERT_EQ(unsplit.meshes[0].parts[0].layout.influences, 8u);
    ASSERT_TRUE(split.meshes[0].parts[0].morph.has_value());
    for (const ModelMeshPart& part : split.meshes[0].parts) {
      EXPECT_EQ(part.mode, PrimitiveMode::Triangles) << "a strip is split as a list";
      EXPECT_EQ(part.layout.influences, 8u) << "both sets kept";
      ASSERT_TRUE(part.morph.has_value());
      EXPECT_EQ(part.morph->position_deltas[0].size(), part.vertex_count());
    }
    expect_within_limit_and_seams_only(unsplit, split, 8);
    expect_same_poses_by_file_vertex(unsplit, split);  // with the mesh's morph weight 0.6 applied
  }
}

TEST(SplitSkinPalettes, S4_APrimitiveOverTheLimitIsRefusedNamingMeshPrimitiveTriangleJointsAndLimit) {
  Fixture f = strip_rig(4);
  // Triangle 0 touches joints 0..4 plus, through the second set, joint 19 - 0 (zero weight: not
  // counted): five joints. A limit of 4 cannot hold it.
  EXPECT_TRUE(test::throws_with<ImportError>([&] { (void)f.import(split_options(4)); },
                                             {"mesh 0", "primitive 0", "triangle 0", "uses 5 joints", "palette limit of 4",
                                              "ImportOptions::max_palette"}));
  try {
    (void)f.import(split_options(4));
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::PaletteLimit);
  }
  // Called on a model directly, a refusal leaves it as it was.
  Model model = f.import(unsplit_options());
  const Model before = model;
  EXPECT_THROW(split_skin_palettes(model, 4), ImportError);
  EXPECT_EQ(model.meshes[0].parts.size(), before.meshes[0].parts.size());
  EXPECT_EQ(model.meshes[0].parts[0].vertex_bytes, before.meshes[0].parts[0].vertex_bytes);
  EXPECT_TRUE(model.meshes[0].parts[0].palette_joints.empty());
  EXPECT_THROW(split_skin_palettes(model, 0), std::invalid_argument);
}

TEST(SplitSkinPalettes, S4_TheRefusalOfAnOverLimitSkinNamesItsJointsTheLimitAndWhatLiftsIt) {
  Fixture f = strip_rig(4);
  ImportOptions refuse;
  refuse.max_palette = 12;
  EXPECT_TRUE(test::throws_with<ImportError>([&] { (void)f.import(refuse); },
                                             {"skin 0", "20 joints", "palette limit of 12", "ImportOptions::max_palette",
                                              "PalettePolicy::Split"}));
}

TEST(SplitSkinPalettes, S4_SubPartPalettesGatherTheSkinsJointsInMaterialsAndGpuExport) {
  Fixture f = strip_rig(4);
  const Model split = f.import(split_options(8));
  Animator animator(split);
  animator.play(0);
  animator.update(ticks_from_seconds(0.6), false, false);
  const auto palette = animator.player(0).skin_transforms();
  ASSERT_EQ(palette.size(), 20u) << "the skin keeps its joints";
  // The whole skin's GPU palette is unchanged (S6); each part's is its sub-palette.
  std::vector<float> whole(20 * 16);
  EXPECT_EQ(animator.write_palette(0, PaletteFormat::Mat4, whole), whole.size());
  EXPECT_EQ(animator.install_palettes(), static_cast<int>(split.meshes[0].parts.size()));
  for (std::size_t p = 0; p < split.meshes[0].parts.size(); ++p) {
    const ModelMeshPart& part = split.meshes[0].parts[p];
    const auto installed = part.skinned_material->bone_transforms();
    std::vector<float> mat4(part.palette_joints.size() * 16), rows(part.palette_joints.size() * 12);
    EXPECT_EQ(animator.write_part_palette(0, p, PaletteFormat::Mat4, mat4), mat4.size());
    EXPECT_EQ(animator.write_part_palette(0, p, PaletteFormat::RowMajor3x4, rows), rows.size());
    for (std::size_t i = 0; i < part.palette_joints.size(); ++i) {
      const glm::mat4& want = palette[part.palette_joints[i]];
      EXPECT_EQ(installed[i], want) << "part " << p << " entry " << i;
      EXPECT_EQ(std::memcmp(&mat4[i * 16], &want[0][0], 64), 0);
      EXPECT_EQ(rows[i * 12 + 3], want[3][0]) << "row-major: translation x ends row 0";
    }
    std::vector<float> small(mat4.size() - 1);
    EXPECT_TRUE(test::throws_with<std::invalid_argument>(
        [&] { (void)animator.write_part_palette(0, p, PaletteFormat::Mat4, small); }, {"part " + std::to_string(p), "needs"}));
  }
  // validate(Model) checks the maps: an entry past the skin, a JOINTS index past the map.
  Model bad = split;
  bad.meshes[0].parts[0].palette_joints[0] = 20;
  EXPECT_TRUE(test::throws_with<std::invalid_argument>([&] { validate(bad); }, {"palette_joints[0] = 20", "bone_count 20"}));
  bad = split;
  bad.meshes[0].parts[0].palette_joints.resize(1);
  EXPECT_TRUE(test::throws_with<std::invalid_argument>([&] { validate(bad); }, {"its palette_joints size 1"}));
}

TEST(SplitSkinPalettes, S4_GltfWriteAndReimportOfASplitModelPoseTheSame) {
  std::vector<Asset> assets = shared_assets();
  if (assets.empty()) GTEST_SKIP() << "shared assets not found at " << kAssets;
  assets.resize(1);  // CesiumMan
  const Model split = import_gltf(assets[0].path, split_options(8));
  const Model again = import_gltf(model_to_gltf(split), unsplit_options());  // JOINTS back in the skin's indices
  ASSERT_EQ(again.meshes.size(), split.meshes.size());
  Animator a(split), b(again);
  a.play(0);
  b.play(0);
  for (const double t : {0.0, 0.4, 1.1}) {
    a.update(ticks_from_seconds(t), false, false);
    b.update(ticks_from_seconds(t), false, false);
    for (std::size_t m = 0; m < split.meshes.size(); ++m) {
      ASSERT_EQ(again.meshes[m].parts.size(), split.meshes[m].parts.size()) << "one primitive per sub-part";
      for (std::size_t p = 0; p < split.meshes[m].parts.size(); ++p) {
        std::vector<glm::vec3> pa(split.meshes[m].parts[p].vertex_count()), pb(again.meshes[m].parts[p].vertex_count());
        ASSERT_EQ(pa.size(), pb.size());
        a.pose_part(m, p, pa);
        b.pose_part(m, p, pb);
        for (std::size_t v = 0; v < pa.size(); ++v) ASSERT_TRUE(test::near(pa[v], pb[v], 1e-5f)) << "part " << p << " vertex " << v;
      }
    }
  }
}

TEST(SplitSkinPalettes, S4_NativeRoundTripKeepsEachSubPartsMap) {
  Fixture f = strip_rig(5);
  const Model split = f.import(split_options(8));
  const Model read = read_native(write_native(split));
  ASSERT_EQ(read.meshes[0].parts.size(), split.meshes[0].parts.size());
  for (std::size_t p = 0; p < split.meshes[0].parts.size(); ++p) {
    EXPECT_EQ(read.meshes[0].parts[p].palette_joints, split.meshes[0].parts[p].palette_joints);
    EXPECT_EQ(read.meshes[0].parts[p].source_vertices, split.meshes[0].parts[p].source_vertices);
    EXPECT_EQ(read.meshes[0].parts[p].flat_normals, split.meshes[0].parts[p].flat_normals);
  }
  Animator a(split), b(read);
  a.play(0);
  b.play(0);
  a.update(ticks_from_seconds(0.5), false, false);
  b.update(ticks_from_seconds(0.5), false, false);
  EXPECT_EQ(posed_by_file_vertex(split, a), posed_by_file_vertex(read, b));
}

TEST(SplitSkinPalettes, S4_TheAssetLayerAsksForItAndSeesSkinPaletteIndices) {
  const fs::path path = kAssets / "gltf/CesiumMan/cesium_man.gltf";
  if (!fs::exists(path)) GTEST_SKIP() << "CesiumMan not found at " << path;
  asset::AssetLoader loader([](const std::string&) {});
  asset::ReadConfig whole, split;
  split.import = split_options(8);
  const auto a = loader.load_mesh(path, whole), b = loader.load_mesh(path, split);
  ASSERT_TRUE(a->is_skeletal() && b->is_skeletal());
  // Every vertex of the split mesh is a vertex of the unsplit one, with the same weighted bones
  // (skin palette indices, not sub-palette ones).
  using Bones = std::vector<std::pair<std::uint8_t, float>>;
  const auto weighted = [](const asset::MeshVertexSkeletal& v) {
    Bones out;
    for (std::size_t c = 0; c < 4; ++c) {
      if (v.bone_weights[c] != 0.f) out.emplace_back(v.bone_indices[c], v.bone_weights[c]);
    }
    return out;
  };
  std::map<std::tuple<float, float, float>, Bones> bones;
  for (const asset::MeshVertexSkeletal& v : a->vertices()) bones[{v.location.x, v.location.y, v.location.z}] = weighted(v);
  EXPECT_GT(b->vertices().size(), a->vertices().size()) << "seam copies";
  for (const asset::MeshVertexSkeletal& v : b->vertices()) {
    const auto it = bones.find({v.location.x, v.location.y, v.location.z});
    ASSERT_NE(it, bones.end());
    EXPECT_EQ(it->second, weighted(v));
  }
}

TEST(SplitSkinPalettes, S4_AssimpImportsSplitToo) {
  const fs::path path = kAssets / "dae/seymour.dae";
  if (!fs::exists(path)) GTEST_SKIP() << "seymour.dae not found at " << path;
  ModelFileOptions whole, split;
  split.import = split_options(6);
  const Model unsplit = load_model_file(path, whole);  // through the worker process and back
  const Model parts = load_model_file(path, split);
  ASSERT_FALSE(unsplit.skins.empty());
  ASSERT_GT(unsplit.skins[0].data.bone_count, 6);
  expect_within_limit_and_seams_only(unsplit, parts, 6);
  expect_same_poses_by_file_vertex(unsplit, parts);
}

}  // namespace
}  // namespace marrow
