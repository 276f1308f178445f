// parse_gltf_json / serialize_gltf_json: round trips, spec rules, supported extensions and the
// irregularities read with a diagnostic. Refusals of hostile JSON: gltf_json_refusal_test.cpp.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gltf_test_util.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

namespace marrow {
namespace {

using gltf::AccessorType;
using gltf::Document;
using gltf::kNone;
using test::kMinimalGltf;
using test::parse_json;
using test::refuses;
using test::reparse;

TEST(GltfJson, RoundTripOfEveryPropertyGivesTheSameDocument) {
  const gltf::GltfAsset asset = test::sample_asset();
  const std::string json = gltf::serialize_gltf_json(asset.document);
  const Document back = parse_json(json);
  EXPECT_EQ(gltf::serialize_gltf_json(back), json);
  EXPECT_TRUE(back == asset.document);
  // And once more: the writer is stable.
  EXPECT_TRUE(reparse(back) == asset.document);
}

TEST(GltfJson, SerializerOmitsDefaults) {
  Document d;
  d.nodes.push_back(gltf::Node{});
  const std::string json = gltf::serialize_gltf_json(d);
  EXPECT_EQ(json, R"({"asset":{"version":"2.0"},"nodes":[{}]})");
  EXPECT_TRUE(parse_json(json) == d);
}

TEST(GltfJson, MinimalDocumentHasDefaults) {
  const Document d = parse_json(kMinimalGltf);
  EXPECT_EQ(d.asset.version, "2.0");
  EXPECT_EQ(d.scene, kNone);
  EXPECT_TRUE(d.nodes.empty());
  EXPECT_EQ(d.texture_count, 0u);
}

TEST(GltfJson, PropertyDefaultsFollowTheSpec) {
  const Document d = parse_json(R"({"asset":{"version":"2.0"},
    "buffers":[{"byteLength":16}],
    "bufferViews":[{"buffer":0,"byteLength":16}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"SCALAR"}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
    "materials":[{}],
    "animations":[{"channels":[{"sampler":0,"target":{"path":"rotation"}}],"samplers":[{"input":0,"output":0}]}],
    "nodes":[{}]})");
  EXPECT_EQ(d.buffer_views[0].byte_offset, 0u);
  EXPECT_EQ(d.buffer_views[0].byte_stride, 0u);
  EXPECT_EQ(d.accessors[0].byte_offset, 0u);
  EXPECT_FALSE(d.accessors[0].normalized);
  EXPECT_FALSE(d.accessors[0].sparse.has_value());
  EXPECT_EQ(d.meshes[0].primitives[0].mode, 4u);
  EXPECT_EQ(d.meshes[0].primitives[0].indices, kNone);
  EXPECT_EQ(d.meshes[0].primitives[0].find("POSITION"), 0u);
  EXPECT_EQ(d.meshes[0].primitives[0].find("NORMAL"), kNone);
  EXPECT_EQ(d.materials[0].alpha_mode, "OPAQUE");
  EXPECT_EQ(d.materials[0].base_color_factor, (std::array<float, 4>{1, 1, 1, 1}));
  EXPECT_EQ(d.animations[0].samplers[0].interpolation, gltf::SamplerInterpolation::Linear);
  EXPECT_EQ(d.animations[0].channels[0].node, kNone);
  EXPECT_FALSE(d.nodes[0].has_matrix);
  EXPECT_EQ(d.nodes[0].rotation, (std::array<float, 4>{0, 0, 0, 1}));
}

TEST(GltfJson, UnknownPropertiesAndExtrasAreIgnored) {
  const Document d = parse_json(R"({"asset":{"version":"2.0","copyright":"x","extras":{"a":[1,{"b":null}]}},
    "extensions":{"VENDOR_x":{"deep":[[[1]]]}},"somethingNew":[1,2,3],
    "nodes":[{"name":"n","extras":{"k":true},"extensions":{"EXT_x":{}},"futureProperty":"yes"}],
    "samplers":[{"magFilter":9729}],"textures":[{"source":0,"sampler":0}],"cameras":[{"type":"perspective"}]})");
  ASSERT_EQ(d.nodes.size(), 1u);
  EXPECT_EQ(d.nodes[0].name, "n");
  EXPECT_EQ(d.texture_count, 1u);
  EXPECT_EQ(d.camera_count, 1u);
}

TEST(GltfJson, ByteOrderMarkIsSkipped) {
  std::string json = kMinimalGltf;
  json.insert(0, "\xEF\xBB\xBF");  // (not "..." + kMinimalGltf: GCC 12 warns of an overflow there at -O1)
  EXPECT_EQ(parse_json(json).asset.version, "2.0");
}

TEST(GltfJson, IntegralDoublesAreAcceptedAsIntegers) {
  const Document d =
      parse_json(R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":8.0}],"scenes":[{}],"scene":0.0})");
  EXPECT_EQ(d.buffers[0].byte_length, 8u);
  EXPECT_EQ(d.scene, 0u);
}

TEST(GltfJson, FloatsRoundTripBitExactly) {
  std::vector<float> values{0.f, -0.f, 0.1f, 1.f / 3.f, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN, 16777217.f, 1e-38f,
                            3.4028233e38f, 0.70710677f,
                            // Its shortest text, read as double then rounded to float, is off by one ulp.
                            std::bit_cast<float>(std::uint32_t{0x15ae43fd}),
                            -std::bit_cast<float>(std::uint32_t{0x15ae43fd})};
  std::mt19937 rng(1234);
  while (values.size() < 20000) {
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    if (std::isfinite(f)) values.push_back(f);
  }
  Document d;
  gltf::Node n;
  n.weights = values;
  d.nodes.push_back(n);
  const Document back = reparse(d);
  ASSERT_EQ(back.nodes[0].weights.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(std::bit_cast<std::uint32_t>(back.nodes[0].weights[i]), std::bit_cast<std::uint32_t>(values[i]))
        << "value " << i << " = " << values[i];
  }
}

TEST(GltfJson, DoublesOfMinMaxRoundTripExactly) {
  Document d;
  gltf::Accessor a;
  a.count = 1;
  a.type = AccessorType::Vec3;
  a.min = {0.1, -1e300, 5e-324};
  a.max = {1.0 / 3.0, 1e300, 123456789012345.0};
  d.accessors.push_back(a);
  EXPECT_TRUE(reparse(d) == d);
}

TEST(GltfJson, StringsAreEscapedAndRoundTrip) {
  Document d;
  gltf::Node n;
  n.name = std::string("quote\" backslash\\ slash/ newline\n tab\t bell\x07 nul") + '\0' + " unicode \xe2\x9c\x93";
  d.nodes.push_back(n);
  const std::string json = gltf::serialize_gltf_json(d);
  EXPECT_NE(json.find("\\u0007"), std::string::npos);
  EXPECT_NE(json.find("\\u0000"), std::string::npos);
  EXPECT_EQ(reparse(d).nodes[0].name, n.name);
}

TEST(GltfJson, SerializerRefusesNonFiniteNumbers) {
  Document d;
  gltf::Node n;
  n.translation = {0, std::numeric_limits<float>::infinity(), 0};
  d.nodes.push_back(n);
  EXPECT_THROW(gltf::serialize_gltf_json(d), std::invalid_argument);
}

TEST(GltfJson, VersionsOf2xAreRead) {
  EXPECT_EQ(parse_json(R"({"asset":{"version":"2.1"}})").asset.version, "2.1");
  EXPECT_EQ(parse_json(R"({"asset":{"version":"2.0","minVersion":"2.0"}})").asset.min_version, "2.0");
}

TEST(GltfJson, SupportedRequiredExtensions) {
  for (const char* name :
       {"KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_unlit", "KHR_materials_emissive_strength",
        "KHR_lights_punctual", "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif", "KHR_animation_pointer",
        "KHR_draco_mesh_compression", "EXT_meshopt_compression"}) {
    EXPECT_TRUE(gltf::is_supported_required_extension(name)) << name;
    const std::string json = std::string(R"({"asset":{"version":"2.0"},"extensionsRequired":[")") + name + R"("]})";
    EXPECT_NO_THROW(parse_json(json)) << name;
  }
  for (const char* name : {"KHR_meshopt_compression", "EXT_mesh_gpu_instancing", "KHR_materials", ""}) {
    EXPECT_FALSE(gltf::is_supported_required_extension(name)) << name;
  }
}

TEST(GltfJson, NodeWithMatrixAndTrsUsesTheMatrixWithADiagnostic) {
  std::vector<Diagnostic> diagnostics;
  const Document d = parse_json(R"({"asset":{"version":"2.0"},"nodes":[
      {"matrix":[2,0,0,0, 0,2,0,0, 0,0,2,0, 1,2,3,1],"translation":[9,9,9],"scale":[3,3,3]}]})",
                                diagnostics);
  EXPECT_TRUE(d.nodes[0].has_matrix);
  EXPECT_EQ(d.nodes[0].matrix[12], 1.f);
  EXPECT_EQ(d.nodes[0].translation, (std::array<float, 3>{0, 0, 0}));
  EXPECT_EQ(d.nodes[0].scale, (std::array<float, 3>{1, 1, 1}));
  const Diagnostic* note = find_diagnostic(diagnostics, "node-matrix-and-trs");
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->message.find("node 0"), std::string::npos);
}

TEST(GltfJson, AnimationPathsAndMissingTargetNodesAreKept) {
  const Document d = reparse(test::sample_asset().document);
  EXPECT_EQ(d.animations[0].channels[2].path, "pointer");
  EXPECT_EQ(d.animations[0].channels[1].node, kNone);
}

TEST(GltfJson, MeshTargetNamesFromExtras) {
  std::vector<Diagnostic> diagnostics;
  const std::string head =
      R"({"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{}}],"extras":{"targetNames":)";
  EXPECT_EQ(parse_json(head + R"(["a","b"]}}]})", diagnostics).meshes[0].target_names,
            (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_TRUE(parse_json(head + R"(["a",3]}}]})", diagnostics).meshes[0].target_names.empty());
  EXPECT_NE(find_diagnostic(diagnostics, "mesh-target-names-ignored"), nullptr);
}

TEST(GltfJson, DuplicateAttributeIsRefused) {
  EXPECT_TRUE(refuses(
      [] {
        parse_json(R"({"asset":{"version":"2.0"},"accessors":[{"componentType":5126,"count":1,"type":"VEC3"}],
          "meshes":[{"primitives":[{"attributes":{"POSITION":0,"POSITION":0}}]}]})");
      },
      ImportErrorCode::InvalidDocument, {"mesh 0 primitive 0: attribute POSITION appears twice"}));
}

TEST(GltfJson, ToleratedIrregularitiesBecomeDiagnostics) {
  std::vector<Diagnostic> diagnostics;
  const Document d = parse_json(R"({"asset":{"version":"2.0"},
    "buffers":[{"byteLength":64}],
    "bufferViews":[{"buffer":0,"byteLength":64,"byteStride":8,"target":1234}],
    "accessors":[{"bufferView":0,"byteOffset":2,"componentType":5126,"count":3,"type":"SCALAR","min":[0,1]}],
    "materials":[{"alphaMode":"SHINY"}],
    "animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                   "samplers":[{"input":0,"output":0}]}],
    "nodes":[{}]})",
                                diagnostics);
  EXPECT_EQ(d.buffer_views[0].target, 0u);
  EXPECT_TRUE(d.accessors[0].min.empty());
  EXPECT_EQ(d.materials[0].alpha_mode, "OPAQUE");
  for (const char* code : {"buffer-view-target-unknown", "accessor-unaligned", "accessor-min-max-ignored",
                           "material-alpha-mode-unknown", "byte-stride-on-non-vertex-data"}) {
    const Diagnostic* note = find_diagnostic(diagnostics, code);
    ASSERT_NE(note, nullptr) << code;
  }
  EXPECT_EQ(find_diagnostic(diagnostics, "byte-stride-on-non-vertex-data")->count, 2);  // input and output
  EXPECT_NE(find_diagnostic(diagnostics, "accessor-unaligned")->message.find("accessor 0"), std::string::npos);
}

TEST(GltfJson, BuilderDocumentsParseWithoutDiagnostics) {
  std::vector<Diagnostic> diagnostics;
  const gltf::GltfAsset asset = test::sample_asset();
  parse_json(gltf::serialize_gltf_json(asset.document), diagnostics);
  EXPECT_TRUE(diagnostics.empty()) << to_string(diagnostics.front().code) << ": " << diagnostics.front().message;
}

}  // namespace
}  // namespace marrow
