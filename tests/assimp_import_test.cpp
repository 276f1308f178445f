// The Assimp importer (import_assimp) on synthetic Collada and DirectX files for the rules (T2
// ticks per second, T3 bone limit, S1 every bone weight), skeleton mapping and refusals. The
// shared assets are assimp_assets_test.cpp, parity with import_gltf assimp_parity_test.cpp.
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <limits>
#include <string>
#include <vector>

#include "conformance_fixtures.hpp"
#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/bounds.hpp"
#include "assimp_test_util.hpp"
#include "collada_skin_text.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;
using test::kAssets;
using test::posed;

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::transform(text.begin(), text.end(), out.begin(), [](char c) { return static_cast<std::byte>(c); });
  return out;
}
// ---------------------------------------------------------------------------------------------
// Synthetic files.

// A Collada file: a chain of `joints` JOINT nodes one unit apart along +Y under a non-joint
// "Armature" node scaled by 2, optionally with a non-joint "Helper" node between joints 0 and 1,
// and a skinned mesh: one triangle per joint (at its height, weighted to it), plus the given
// extra vertex influences on vertex 0 (joint, weight) when not empty. With animate_helper the
// Helper node gets a two-key matrix animation (0 s: identity, 1 s: translated by +X).
std::string make_collada(int joints, bool helper = false, const std::vector<std::pair<int, float>>& vertex0 = {},
                         bool animate_helper = false) {
  std::ostringstream x;
  const int vertices = joints * 3;
  x << R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
<library_geometries><geometry id="body" name="body"><mesh>
<source id="body-positions"><float_array id="body-positions-array" count=")"
    << vertices * 3 << "\">";
  for (int j = 0; j < joints; ++j) {
    const float y = static_cast<float>(j);
    x << "0 " << y << " 0  0.5 " << y << " 0  0 " << y + 0.5f << " 0.25 ";
  }
  x << R"(</float_array><technique_common><accessor source="#body-positions-array" count=")" << vertices
    << R"(" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="body-vertices"><input semantic="POSITION" source="#body-positions"/></vertices>
<triangles count=")"
    << joints << R"("><input semantic="VERTEX" source="#body-vertices" offset="0"/><p>)";
  for (int v = 0; v < vertices; ++v) x << v << ' ';
  x << R"(</p></triangles></mesh></geometry></library_geometries>
<library_controllers><controller id="skin" name="skin"><skin source="#body">
<bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>
<source id="skin-joints"><Name_array id="skin-joints-array" count=")"
    << joints << "\">";
  for (int j = 0; j < joints; ++j) x << 'J' << j << ' ';
  x << R"(</Name_array><technique_common><accessor source="#skin-joints-array" count=")" << joints
    << R"(" stride="1"><param name="JOINT" type="name"/></accessor></technique_common></source>
<source id="skin-binds"><float_array id="skin-binds-array" count=")"
    << joints * 16 << "\">";
  // Joint j rests at y = j (plus 1 above the helper) inside the armature (scale 2): its inverse
  // bind undoes that world transform, so the rest pose is the bind pose.
  for (int j = 0; j < joints; ++j) {
    const float y = 2.f * static_cast<float>(j + ((helper && j >= 1) ? 1 : 0));
    x << "0.5 0 0 0 0 0.5 0 " << -0.5f * y << " 0 0 0.5 0 0 0 0 1 ";
  }
  std::vector<std::vector<std::pair<int, float>>> influences(static_cast<std::size_t>(vertices));
  for (int v = 0; v < vertices; ++v) influences[static_cast<std::size_t>(v)] = {{v / 3, 1.f}};
  if (!vertex0.empty()) influences[0] = vertex0;
  test::write_collada_skin_weights(x, joints, influences);
  x << R"(</skin></controller></library_controllers>
)";
  if (animate_helper) {
    x << R"(<library_animations><animation id="helper-anim">
<source id="helper-in"><float_array id="helper-in-array" count="2">0 1</float_array><technique_common><accessor source="#helper-in-array" count="2" stride="1"><param name="TIME" type="float"/></accessor></technique_common></source>
<source id="helper-out"><float_array id="helper-out-array" count="32">1 0 0 0 0 1 0 1 0 0 1 0 0 0 0 1  1 0 0 1 0 1 0 1 0 0 1 0 0 0 0 1</float_array><technique_common><accessor source="#helper-out-array" count="2" stride="16"><param name="TRANSFORM" type="float4x4"/></accessor></technique_common></source>
<source id="helper-interp"><Name_array id="helper-interp-array" count="2">LINEAR LINEAR</Name_array><technique_common><accessor source="#helper-interp-array" count="2" stride="1"><param name="INTERPOLATION" type="name"/></accessor></technique_common></source>
<sampler id="helper-sampler"><input semantic="INPUT" source="#helper-in"/><input semantic="OUTPUT" source="#helper-out"/><input semantic="INTERPOLATION" source="#helper-interp"/></sampler>
<channel source="#helper-sampler" target="Helper/transform"/>
</animation></library_animations>
)";
  }
  x << R"(<library_visual_scenes><visual_scene id="scene" name="scene">
<node id="Armature" name="Armature" type="NODE"><matrix sid="transform">2 0 0 0 0 2 0 0 0 0 2 0 0 0 0 1</matrix>
)";
  // The chain, each joint 1 above its parent (the first at the armature's origin).
  for (int j = 0; j < joints; ++j) {
    x << "<node id=\"J" << j << "\" name=\"J" << j << "\" sid=\"J" << j
      << "\" type=\"JOINT\"><matrix sid=\"transform\">1 0 0 0 0 1 0 " << (j == 0 ? 0 : 1)
      << " 0 0 1 0 0 0 0 1</matrix>\n";
    if (helper && j == 0) {
      x << R"(<node id="Helper" name="Helper" sid="Helper" type="NODE"><matrix sid="transform">1 0 0 0 0 1 0 1 0 0 1 0 0 0 0 1</matrix>
)";
    }
  }
  for (int j = joints - 1; j >= 0; --j) {
    x << "</node>";
    if (helper && j == 0) x << "</node>";
  }
  x << R"(
</node>
<node id="Body" name="Body" type="NODE"><instance_controller url="#skin"><skeleton>#J0</skeleton></instance_controller></node>
</visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
  return x.str();
}

// A DirectX .x file with one animation whose keys are 0 and 50 and no AnimTicksPerSecond: the
// format's rate is then unknown (Assimp reports 0). `target` names the animated frame.
std::string make_x_file(const std::string& target = "Child") {
  return R"(xof 0303txt 0032
Frame Root {
  FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,0.0,0.0,1.0;; }
  Frame Child {
    FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,1.0,0.0,1.0;; }
    Mesh Tri {
      3;
      0.0;0.0;0.0;,
      1.0;0.0;0.0;,
      0.0;1.0;0.0;;
      1;
      3;0,1,2;;
    }
  }
}
AnimationSet Move {
  Animation {
    { )" +
         target + R"( }
    AnimationKey {
      2;
      2;
      0;3;0.0,1.0,0.0;;,
      50;3;2.0,1.0,0.0;;;
    }
  }
}
)";
}
// ---------------------------------------------------------------------------------------------
// T2: ticks per second.

TEST(AssimpImport, T2_TicksPerSecondOverrideChangesTheDuration) {
  SKIP_WITHOUT_ASSETS();
  const fs::path path = kAssets / "dae/seymour.dae";
  const Model file_rate = import_assimp(path);  // Assimp's Collada reader: 1000 ticks per second
  ASSERT_EQ(file_rate.animations.size(), 1u);
  EXPECT_NEAR(seconds_from_ticks(file_rate.animations[0].duration), 12.5, 1e-6);
  AssimpOptions options;
  options.ticks_per_second = 500.0;
  const Model slower = import_assimp(path, options);
  EXPECT_NEAR(seconds_from_ticks(slower.animations[0].duration), 25.0, 1e-6);
  // Every key moves with it.
  const std::string name = file_rate.animations[0].name;
  const AnimationClip& a = file_rate.skins[0].data.animation_clips.at(name);
  const AnimationClip& b = slower.skins[0].data.animation_clips.at(name);
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (std::size_t t = 0; t < a.tracks.size(); ++t) {
    ASSERT_EQ(a.tracks[t].keys.size(), b.tracks[t].keys.size());
    EXPECT_EQ(b.tracks[t].keys.back().time.count(), 2 * a.tracks[t].keys.back().time.count());
  }
  EXPECT_EQ(find_diagnostic(file_rate.diagnostics, "ticks-per-second-defaulted"), nullptr);
}

TEST(AssimpImport, T2_FormatWithoutTicksPerSecondUses25) {
  const std::vector<std::byte> bytes = bytes_of(make_x_file());
  const Model model = import_assimp(bytes, "x");
  ASSERT_EQ(model.animations.size(), 1u);
  EXPECT_EQ(model.animations[0].name, "Move");
  EXPECT_NEAR(seconds_from_ticks(model.animations[0].duration), 50.0 / 25.0, 1e-9);
  ASSERT_NE(find_diagnostic(model.diagnostics, "ticks-per-second-defaulted"), nullptr);
  // The frame is not a joint: its keys are a SceneNode track, at 0 s and 2 s.
  const AnimationClip& clip = model.animations[0].scene_clip;
  EXPECT_EQ(clip.target_space, ClipTargetSpace::SceneNode);
  ASSERT_EQ(clip.tracks.size(), 1u);
  EXPECT_EQ(model.nodes[static_cast<std::size_t>(clip.tracks[0].bone_index)].name, "Child");
  ASSERT_EQ(clip.tracks[0].keys.size(), 2u);
  EXPECT_EQ(clip.tracks[0].keys[1].time, ticks_from_seconds(2.0));
  EXPECT_TRUE(test::near(clip.tracks[0].keys[1].translation, glm::vec3(2, 1, 0)));

  AssimpOptions options;
  options.ticks_per_second = 100.0;
  const Model fast = import_assimp(bytes, ".x", options);
  EXPECT_NEAR(seconds_from_ticks(fast.animations[0].duration), 0.5, 1e-9);
  EXPECT_EQ(find_diagnostic(fast.diagnostics, "ticks-per-second-defaulted"), nullptr);
}

TEST(AssimpImport, T2_SkeletalDataCanBeLeftOut) {
  const std::vector<std::byte> bytes = bytes_of(make_collada(4));
  const Model skinned = import_assimp(bytes, "dae");
  ASSERT_EQ(skinned.skins.size(), 1u);
  AssimpOptions options;
  options.load_skeletal_data = false;
  const Model flat = import_assimp(bytes, "dae", options);
  EXPECT_TRUE(flat.skins.empty());
  ASSERT_EQ(flat.meshes.size(), 1u);
  EXPECT_EQ(flat.meshes[0].skin, -1);
  EXPECT_FALSE(flat.meshes[0].parts[0].layout.has(VertexAttribute::Joints0));
  EXPECT_NE(find_diagnostic(flat.diagnostics, "skeletal-data-not-loaded"), nullptr);
  EXPECT_EQ(flat.nodes.size(), skinned.nodes.size());  // the nodes stay (they place the meshes)
}

TEST(AssimpImport, T2_ANegativeTicksPerSecondOverrideIsAProgrammingError) {
  AssimpOptions options;
  options.ticks_per_second = -1.0;
  EXPECT_THROW(import_assimp(bytes_of(make_x_file()), "x", options), std::invalid_argument);
  options.ticks_per_second.reset();
  options.max_bones = 0;
  EXPECT_THROW(import_assimp(bytes_of(make_x_file()), "x", options), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// T3: more than 255 bones.

TEST(AssimpImport, T3_MeshWithMoreThan255BonesLoadsStaticWithAWarning) {
  const Model big = import_assimp(bytes_of(make_collada(256)), "dae");
  ASSERT_EQ(big.meshes.size(), 1u);
  EXPECT_EQ(big.meshes[0].skin, -1);
  EXPECT_TRUE(big.skins.empty());
  EXPECT_FALSE(big.meshes[0].parts[0].skinned_material);
  const Diagnostic* note = find_diagnostic(big.diagnostics, "palette-limit-loaded-static");
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->message.find("256 joints"), std::string::npos) << note->message;
  EXPECT_NE(note->message.find("255"), std::string::npos) << note->message;
  // The nodes are all still there (the synthetic root, the scene root, Armature, 256 joints, Body).
  EXPECT_EQ(big.nodes.size(), 260u);

  const Model fits = import_assimp(bytes_of(make_collada(255)), "dae");
  ASSERT_EQ(fits.skins.size(), 1u);
  EXPECT_EQ(fits.skins[0].data.bone_count, 255);
  EXPECT_EQ(fits.meshes[0].skin, 0);
  EXPECT_EQ(find_diagnostic(fits.diagnostics, "palette-limit-loaded-static"), nullptr);

  AssimpOptions options;
  options.max_bones = 10;
  const Model limited = import_assimp(bytes_of(make_collada(11)), "dae", options);
  EXPECT_EQ(limited.meshes[0].skin, -1);
  EXPECT_NE(find_diagnostic(limited.diagnostics, "palette-limit-loaded-static"), nullptr);
}

// ---------------------------------------------------------------------------------------------
// S1: every bone weight; ImportOptions::max_influences keeps the largest (the asset API's four,
// T16, are tested in skin_influences_import_test.cpp).

TEST(AssimpImport, S1_EveryBoneWeightIsKeptAndMaxInfluencesKeepsTheLargest) {
  // Vertex 0 is pulled by six joints.
  const std::vector<std::pair<int, float>> six = {{0, 0.05f}, {1, 0.10f}, {2, 0.15f},
                                                  {3, 0.20f}, {4, 0.25f}, {5, 0.25f}};
  for (const std::uint32_t keep : {0u, 4u}) {
    SCOPED_TRACE(::testing::Message() << "max_influences " << keep);
    AssimpOptions options;
    options.import.max_influences = keep;
    const Model model = import_assimp(bytes_of(make_collada(6, false, six)), "dae", options);
    ASSERT_EQ(model.skins.size(), 1u);
    const ModelMeshPart& part = model.meshes[0].parts[0];
    const Skin& skin = model.skins[0];
    ASSERT_TRUE(part.layout.has(VertexAttribute::Joints0));
    // Six influences are stored in two sets of four (keep 4: one set).
    EXPECT_EQ(part.layout.influences, keep == 0 ? 8u : 4u);
    const std::size_t slots = keep == 0 ? 8 : 4;
    // Which vertex is file vertex 0: the one at the origin with six influences (Assimp may reorder).
    bool found = false;
    for (std::size_t v = 0; v < part.vertex_count(); ++v) {
      const auto p = read_attribute<glm::vec3>(part.vertex_bytes, part.layout, v, VertexAttribute::Position);
      if (glm::length(p) > 1e-6f) continue;
      found = true;
      std::uint16_t joints[8];
      float weights[8];
      std::memcpy(joints, part.vertex_bytes.data() + v * part.layout.stride + part.layout.offset(VertexAttribute::Joints0),
                  2 * slots);
      std::memcpy(weights, part.vertex_bytes.data() + v * part.layout.stride + part.layout.offset(VertexAttribute::Weights0),
                  4 * slots);
      std::map<std::string, float> by_name;
      float sum = 0.f;
      for (std::size_t k = 0; k < slots; ++k) {
        if (weights[k] == 0.f) continue;
        const int bone = skin.palette_to_scene[joints[k]];
        by_name[model.nodes[static_cast<std::size_t>(bone)].name] += weights[k];
        sum += weights[k];
        if (k > 0) {
          EXPECT_GE(weights[k - 1], weights[k]) << "largest first";
        }
      }
      EXPECT_NEAR(sum, 1.f, 1e-6f);
      if (keep == 0) {
        ASSERT_EQ(by_name.size(), 6u);
        EXPECT_NEAR(by_name["J0"], 0.05f, 1e-6f);
        EXPECT_NEAR(by_name["J5"], 0.25f, 1e-6f);
        EXPECT_EQ(find_diagnostic(model.diagnostics, "skin-influences-reduced"), nullptr);
      } else {
        ASSERT_EQ(by_name.size(), 4u);
        EXPECT_NEAR(by_name["J5"], 0.25f / 0.85f, 1e-5f);
        EXPECT_NEAR(by_name["J4"], 0.25f / 0.85f, 1e-5f);
        EXPECT_NEAR(by_name["J3"], 0.20f / 0.85f, 1e-5f);
        EXPECT_NEAR(by_name["J2"], 0.15f / 0.85f, 1e-5f);
        const Diagnostic* note = find_diagnostic(model.diagnostics, "skin-influences-reduced");
        ASSERT_NE(note, nullptr);
        EXPECT_EQ(note->count, 1);
      }
    }
    EXPECT_TRUE(found);
  }
}

// ---------------------------------------------------------------------------------------------
// Skeleton mapping.

TEST(AssimpImport, NonJointNodeBetweenJointsJoinsThePaletteAndCarriesItsChannel) {
  const Model model = import_assimp(bytes_of(make_collada(3, true, {}, true)), "dae");
  ASSERT_EQ(model.skins.size(), 1u);
  const Skin& skin = model.skins[0];
  EXPECT_EQ(skin.data.bone_count, 4);  // J0, Helper, J1, J2
  int helper = -1, armature = -1;
  for (std::size_t b = 0; b < model.nodes.size(); ++b) {
    if (model.nodes[b].name == "Helper") helper = static_cast<int>(b);
    if (model.nodes[b].name == "Armature") armature = static_cast<int>(b);
  }
  ASSERT_GT(helper, 0);
  ASSERT_GT(armature, 0);
  const int p = skin.scene_to_palette[static_cast<std::size_t>(helper)];
  ASSERT_GE(p, 0);
  EXPECT_EQ(skin.scene_to_palette[static_cast<std::size_t>(armature)], -1);  // an ancestor, not in between
  // Breadth-first: J0, Helper, J1, J2.
  EXPECT_EQ(skin.data.skeleton_hierarchy, (std::vector<int>{-1, 0, 1, 2}));
  EXPECT_EQ(p, 1);
  // Its inverse bind is the inverse of its rest world (armature scale 2, y = 2).
  const glm::mat4 expected =
      glm::inverse(glm::scale(glm::mat4(1.f), glm::vec3(2.f)) * glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)));
  EXPECT_TRUE(test::near(skin.data.inverse_bind_pose[static_cast<std::size_t>(p)], expected, 1e-5f));
  // Its channel is a palette track; it moves the joints below it (and their vertices).
  ASSERT_EQ(model.animations.size(), 1u);
  const AnimationClip& clip = skin.data.animation_clips.at(model.animations[0].name);
  ASSERT_EQ(clip.tracks.size(), 1u);
  EXPECT_EQ(clip.tracks[0].bone_index, p);
  EXPECT_TRUE(model.animations[0].scene_clip.tracks.empty());
  Animator animator(model);
  const std::vector<glm::vec3> rest = posed(animator, 0);
  animator.play(0);
  animator.update(ticks_from_seconds(1.0), false, false);
  const std::vector<glm::vec3> moved = posed(animator, 0);
  // Vertices of J1 (3..5) and J2 (6..8) move +2 in x (helper +1 in armature space, scale 2);
  // those of J0 do not. Assimp may reorder vertices: compare by their rest height.
  for (std::size_t v = 0; v < rest.size(); ++v) {
    const float dx = moved[v].x - rest[v].x;
    EXPECT_NEAR(dx, rest[v].y >= 0.9f ? 2.f : 0.f, 1e-4f) << "vertex " << v << " at y " << rest[v].y;
  }
}

TEST(AssimpImport, ChannelOnAnUnknownNodeIsDiagnosed) {
  const Model model = import_assimp(bytes_of(make_x_file("Missing")), "x");
  ASSERT_EQ(model.animations.size(), 1u);
  EXPECT_TRUE(model.animations[0].scene_clip.tracks.empty());
  const Diagnostic* note = find_diagnostic(model.diagnostics, "channel-target-outside-scene");
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->message.find("Missing"), std::string::npos) << note->message;
}

TEST(AssimpImport, NodesKeepNamesAndTransforms) {
  const Model model = import_assimp(bytes_of(make_x_file()), "x");
  ASSERT_EQ(model.nodes.size(), 3u);
  EXPECT_EQ(model.nodes[1].name, "Root");
  EXPECT_EQ(model.nodes[2].name, "Child");
  EXPECT_EQ(model.nodes[2].parent, 1);
  // The .x matrix is row-major with the translation in the last row: (0, 1, 0).
  EXPECT_TRUE(test::near(glm::vec3(model.nodes[2].transform[3]), glm::vec3(0, 1, 0)));
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].node, 2);
  EXPECT_EQ(model.source.node_to_bone, (std::vector<int>{1, 2}));
}

// ---------------------------------------------------------------------------------------------
// Refusals: never a crash, always an ImportError with a code.

TEST(AssimpImport, RefusedInputsThrowImportError) {
  EXPECT_TRUE(test::throws_with<ImportError>([] { import_assimp(bytes_of("definitely not a model"), "fbx"); },
                                             {"<memory>.fbx: assimp: "}));
  try {
    import_assimp(bytes_of("garbage"), "dae");
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::ExternalImporter);
  }
  try {
    import_assimp(bytes_of("plain text, no known format"), "xyz");
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::UnsupportedFormat) << e.what();
  }
  try {
    import_assimp(fs::path("/nonexistent/model.fbx"));
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::IoError);
  }
  AssimpOptions small;
  small.import.limits.max_file_bytes = 64;
  try {
    import_assimp(bytes_of(make_x_file()), "x", small);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::LimitExceeded);
  }
  AssimpOptions few_nodes;
  few_nodes.import.limits.max_nodes = 2;
  try {
    import_assimp(bytes_of(make_collada(4)), "dae", few_nodes);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::LimitExceeded);
  }
  AssimpOptions scene;
  scene.import.scene = 1;
  try {
    import_assimp(bytes_of(make_x_file()), "x", scene);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::IndexOutOfRange);
  }
  // Truncated files of every kind: refused or loaded, never a crash.
  const std::string collada = make_collada(5, true, {}, true);
  for (std::size_t cut : {std::size_t{10}, collada.size() / 3, collada.size() / 2, collada.size() - 20}) {
    try {
      const Model model = import_assimp(bytes_of(collada.substr(0, cut)), "dae");
      validate(model);
    } catch (const ImportError&) {
    }
  }
}

TEST(AssimpImport, UnitScaleScalesTranslations) {
  AssimpOptions options;
  options.import.unit_scale = 0.5f;
  const Model model = import_assimp(bytes_of(make_x_file()), "x", options);
  EXPECT_TRUE(test::near(glm::vec3(model.nodes[2].transform[3]), glm::vec3(0, 0.5f, 0)));
  EXPECT_TRUE(test::near(model.animations[0].scene_clip.tracks[0].keys[1].translation, glm::vec3(1, 0.5f, 0)));
  // A bad scale is the caller's error, also when the import would run in the worker process.
  options.import.unit_scale = -2.f;
  EXPECT_THROW((void)import_assimp(bytes_of(make_x_file()), "x", options), std::invalid_argument);
  // A scale that would overflow the file's lengths is the file's problem.
  options.import.unit_scale = std::numeric_limits<float>::max();
  try {
    (void)import_assimp(bytes_of(make_x_file()), "x", options);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::InvalidDocument) << e.what();
  }
}

}  // namespace
}  // namespace marrow
