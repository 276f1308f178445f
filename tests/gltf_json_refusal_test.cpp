// parse_gltf_json refusing hostile JSON: bad versions, not JSON, depth bombs, sizes, unsupported
// required extensions, every index out of range, wrong types, bad enums, out-of-bounds views and
// accessors, limits before allocation; each checks the error code and that the message names the
// object and the number.
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
using gltf::ComponentType;
using gltf::Document;
using gltf::kNone;
using test::kMinimalGltf;
using test::parse_json;
using test::refuses;
using test::reparse;

TEST(GltfJsonRefusal, BadVersions) {
  EXPECT_TRUE(refuses([] { parse_json(R"({"asset":{"version":"1.0"}})"); }, ImportErrorCode::InvalidDocument,
                      {"asset: version \"1.0\" is not 2.x"}));
  EXPECT_TRUE(refuses([] { parse_json(R"({"asset":{"version":"3.0"}})"); }, ImportErrorCode::InvalidDocument, {"3.0"}));
  EXPECT_TRUE(refuses([] { parse_json(R"({"asset":{"version":"2"}})"); }, ImportErrorCode::InvalidDocument, {"\"2\""}));
  EXPECT_TRUE(refuses([] { parse_json(R"({"asset":{"version":2.0}})"); }, ImportErrorCode::InvalidDocument,
                      {"asset: version must be a string"}));
  EXPECT_TRUE(refuses([] { parse_json(R"({"asset":{}})"); }, ImportErrorCode::InvalidDocument,
                      {"asset: missing required property 'version'"}));
  EXPECT_TRUE(refuses([] { parse_json(R"({"nodes":[]})"); }, ImportErrorCode::InvalidDocument, {"'asset'"}));
  EXPECT_TRUE(refuses([] { parse_json(R"({"asset":{"version":"2.0","minVersion":"2.1"}})"); },
                      ImportErrorCode::VersionMismatch, {"minVersion 2.1"}));
}

TEST(GltfJsonRefusal, NotJson) {
  for (const char* text : {"", "{", "[1,2]x", "{\"asset\":}", "\xff\xfe", "{\"a\":1,}", "nul"}) {
    EXPECT_TRUE(refuses([&] { parse_json(text); }, ImportErrorCode::InvalidJson, {"JSON"})) << text;
  }
  EXPECT_TRUE(refuses([] { parse_json("[]"); }, ImportErrorCode::InvalidDocument, {"root must be an object"}));
  EXPECT_TRUE(refuses([] { parse_json(R"({"asset":{"version":"2.0"},"nodes":[{"translation":[1e400,0,0]}]})"); },
                      ImportErrorCode::InvalidJson, {"JSON"}));
}

TEST(GltfJsonRefusal, DepthBombIsRefusedWithoutRecursion) {
  const std::string bomb =
      R"({"asset":{"version":"2.0"},"extras":)" + std::string(10000, '[') + std::string(10000, ']') + "}";
  EXPECT_TRUE(refuses([&] { parse_json(bomb); }, ImportErrorCode::InvalidJson, {"max_json_depth 64"}));
  const std::string object_bomb = [] {
    std::string s = R"({"asset":{"version":"2.0"},"extras":)";
    for (int i = 0; i < 100000; ++i) s += R"({"a":)";
    s += "1";
    s += std::string(100000, '}');
    return s + "}";
  }();
  EXPECT_TRUE(refuses([&] { parse_json(object_bomb); }, ImportErrorCode::InvalidJson, {"deeper"}));
}

TEST(GltfJsonRefusal, DepthLimitCountsEveryObjectAndArray) {
  // The root object is level 1, extras' arrays are levels 2 ...
  // (The innermost array holds a value: simdjson does not count an empty innermost container.)
  auto nested = [](int arrays) {
    return R"({"asset":{"version":"2.0"},"extras":)" + std::string(std::size_t(arrays), '[') + "1" +
           std::string(std::size_t(arrays), ']') + "}";
  };
  ImportLimits limits;
  limits.max_json_depth = 10;
  EXPECT_NO_THROW(parse_json(nested(9), limits));
  EXPECT_TRUE(refuses([&] { parse_json(nested(10), limits); }, ImportErrorCode::InvalidJson, {"max_json_depth 10"}));
}

// The parser is kept between parses on a thread: each parse still gets its own depth limit, and a
// small document after a large one (or the reverse) parses alike.
TEST(GltfJsonRefusal, DepthLimitIsEachParsesOwnOnAKeptParser) {
  auto nested = [](int arrays) {
    return R"({"asset":{"version":"2.0"},"extras":)" + std::string(std::size_t(arrays), '[') + "1" +
           std::string(std::size_t(arrays), ']') + "}";
  };
  ImportLimits shallow;
  shallow.max_json_depth = 10;
  EXPECT_NO_THROW(parse_json(nested(30)));
  EXPECT_TRUE(refuses([&] { parse_json(nested(10), shallow); }, ImportErrorCode::InvalidJson, {"max_json_depth 10"}));
  EXPECT_NO_THROW(parse_json(nested(30)));
  const std::string padding(std::size_t{2} << 20, ' ');  // beyond the kept parser's size
  EXPECT_NO_THROW(parse_json(nested(30) + padding));
  EXPECT_TRUE(refuses([&] { parse_json(nested(10) + padding, shallow); }, ImportErrorCode::InvalidJson,
                      {"max_json_depth 10"}));
  EXPECT_NO_THROW(parse_json(kMinimalGltf));
}

TEST(GltfJsonRefusal, FileSizeLimit) {
  ImportLimits limits;
  limits.max_file_bytes = 10;
  EXPECT_TRUE(refuses([&] { parse_json(kMinimalGltf, limits); }, ImportErrorCode::LimitExceeded, {"max_file_bytes (10)"}));
}

TEST(GltfJsonRefusal, UnsupportedRequiredExtensionIsNamed) {
  for (const char* name : {"KHR_meshopt_compression", "EXT_mesh_gpu_instancing", "VENDOR_magic"}) {
    const std::string json = std::string(R"({"asset":{"version":"2.0"},"extensionsUsed":[")") + name +
                             R"("],"extensionsRequired":[")" + name + R"("]})";
    EXPECT_TRUE(refuses([&] { parse_json(json); }, ImportErrorCode::UnsupportedExtension,
                        {std::string("extensionsRequired: ") + name + " is not supported"}));
  }
  // Used but not required: fine.
  EXPECT_NO_THROW(parse_json(R"({"asset":{"version":"2.0"},"extensionsUsed":["VENDOR_magic"]})"));
}

// One way to break the sample document, the code and the message fragments expected.
struct Breakage {
  const char* label;
  std::function<void(Document&)> mutate;
  ImportErrorCode code;
  std::vector<std::string> fragments;
};

void expect_refusals(const std::vector<Breakage>& cases) {
  for (const Breakage& c : cases) {
    Document d = test::sample_asset().document;
    c.mutate(d);
    const std::string json = gltf::serialize_gltf_json(d);
    try {
      parse_json(json);
      ADD_FAILURE() << c.label << ": not refused";
    } catch (const ImportError& e) {
      EXPECT_EQ(e.code(), c.code) << c.label << ": " << e.what();
      for (const std::string& f : c.fragments) {
        EXPECT_NE(std::string(e.what()).find(f), std::string::npos)
            << c.label << ": '" << e.what() << "' lacks '" << f << "'";
      }
    }
  }
}

TEST(GltfJsonRefusal, EveryIndexOutOfRangeIsNamed) {
  using C = ImportErrorCode;
  expect_refusals({
      {"node mesh", [](Document& d) { d.nodes[1].mesh = 9; }, C::IndexOutOfRange, {"node 1: mesh 9 of 1 meshes"}},
      {"node skin", [](Document& d) { d.nodes[1].skin = 4; }, C::IndexOutOfRange, {"node 1: skin 4 of 1 skins"}},
      {"node camera",
       [](Document& d) { d.nodes[0].camera = 1; },
       C::IndexOutOfRange,
       {"node 0: camera 1 of 1 cameras"}},
      {"node child",
       [](Document& d) {
         d.nodes[2].children = {3, 4};
       },
       C::IndexOutOfRange,
       {"node 2: child 4 of 4 nodes"}},
      {"scene node", [](Document& d) { d.scenes[0].nodes = {7}; }, C::IndexOutOfRange, {"scene 0: node 7 of 4 nodes"}},
      {"default scene", [](Document& d) { d.scene = 3; }, C::IndexOutOfRange, {"scene 3 of 1 scenes"}},
      {"skin joint",
       [](Document& d) {
         d.skins[0].joints = {2, 30};
       },
       C::IndexOutOfRange,
       {"skin 0: joint 30 of 4 nodes"}},
      {"skin skeleton",
       [](Document& d) { d.skins[0].skeleton = 4; },
       C::IndexOutOfRange,
       {"skin 0: skeleton 4 of 4 nodes"}},
      {"skin ibm",
       [](Document& d) { d.skins[0].inverse_bind_matrices = 7; },
       C::IndexOutOfRange,
       {"skin 0: inverseBindMatrices 7 of 7 accessors"}},
      {"attribute",
       [](Document& d) { d.meshes[0].primitives[0].attributes[1].accessor = 12; },
       C::IndexOutOfRange,
       {"mesh 0 primitive 0: attribute JOINTS_0 accessor 12 of 7 accessors"}},
      {"indices",
       [](Document& d) { d.meshes[0].primitives[0].indices = 8; },
       C::IndexOutOfRange,
       {"mesh 0 primitive 0: indices 8 of 7 accessors"}},
      {"material",
       [](Document& d) { d.meshes[0].primitives[0].material = 1; },
       C::IndexOutOfRange,
       {"mesh 0 primitive 0: material 1 of 1 materials"}},
      {"target",
       [](Document& d) { d.meshes[0].primitives[0].targets[0][0].accessor = 99; },
       C::IndexOutOfRange,
       {"mesh 0 primitive 0 target 0: attribute POSITION accessor 99 of 7 accessors"}},
      {"channel sampler",
       [](Document& d) { d.animations[0].channels[2].sampler = 2; },
       C::IndexOutOfRange,
       {"animation 0 channel 2: sampler 2 of 2 samplers"}},
      {"channel node",
       [](Document& d) { d.animations[0].channels[0].node = 5; },
       C::IndexOutOfRange,
       {"animation 0 channel 0: target node 5 of 4 nodes"}},
      {"sampler input",
       [](Document& d) { d.animations[0].samplers[1].input = 7; },
       C::IndexOutOfRange,
       {"animation 0 sampler 1: input 7 of 7 accessors"}},
      {"sampler output",
       [](Document& d) { d.animations[0].samplers[0].output = 70; },
       C::IndexOutOfRange,
       {"animation 0 sampler 0: output 70 of 7 accessors"}},
      {"accessor view",
       [](Document& d) { d.accessors[3].buffer_view = 7; },
       C::IndexOutOfRange,
       {"accessor 3: bufferView 7 of 7 bufferViews"}},
      {"view buffer",
       [](Document& d) { d.buffer_views[2].buffer = 1; },
       C::IndexOutOfRange,
       {"bufferView 2: buffer 1 of 1 buffers"}},
      {"image view",
       [](Document& d) { d.images[0].buffer_view = 9; },
       C::IndexOutOfRange,
       {"image 0: bufferView 9 of 7 bufferViews"}},
      {"sparse indices view",
       [](Document& d) { d.accessors[2].sparse = gltf::SparseAccessor{1, 8, 0, ComponentType::UnsignedShort, 2, 0}; },
       C::IndexOutOfRange,
       {"accessor 2: sparse: indices: bufferView 8 of 7 bufferViews"}},
      {"sparse values view",
       [](Document& d) { d.accessors[2].sparse = gltf::SparseAccessor{1, 1, 0, ComponentType::UnsignedShort, 9, 0}; },
       C::IndexOutOfRange,
       {"accessor 2: sparse: values: bufferView 9 of 7 bufferViews"}},
  });
}

TEST(GltfJsonRefusal, NegativeAndNonIntegerIndices) {
  const std::string head = R"({"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{}}]}],"nodes":[{},)";
  EXPECT_TRUE(refuses([&] { parse_json(head + R"({"mesh":-1}]})"); }, ImportErrorCode::IndexOutOfRange,
                      {"node 1: mesh -1 of 1 meshes"}));
  EXPECT_TRUE(refuses([&] { parse_json(head + R"({"mesh":"0"}]})"); }, ImportErrorCode::InvalidDocument,
                      {"node 1: mesh must be an integer index, got \"0\""}));
  EXPECT_TRUE(refuses([&] { parse_json(head + R"({"mesh":0.5}]})"); }, ImportErrorCode::InvalidDocument,
                      {"node 1: mesh must be an integer index, got 0.5"}));
  EXPECT_TRUE(refuses([&] { parse_json(head + R"({"mesh":18446744073709551615}]})"); },
                      ImportErrorCode::IndexOutOfRange, {"node 1: mesh 18446744073709551615 of 1 meshes"}));
  EXPECT_TRUE(refuses([&] { parse_json(head + R"({"children":[0,-3]}]})"); }, ImportErrorCode::IndexOutOfRange,
                      {"node 1: child -3 of 2 nodes"}));
}

TEST(GltfJsonRefusal, WrongTypesAreNamed) {
  const std::string head = R"({"asset":{"version":"2.0"},)";
  struct Case {
    std::string body;
    std::string fragment;
  };
  const std::vector<Case> cases{
      {R"("nodes":{})", "nodes must be an array, got an object"},
      {R"("nodes":[1])", "node 0 must be an object, got 1"},
      {R"("nodes":[{"name":5}])", "node 0: name must be a string, got 5"},
      {R"("nodes":[{"translation":[1,2]}])", "node 0: translation must have 3 numbers, got 2"},
      {R"("nodes":[{"rotation":[0,0,"0",1]}])", "node 0: rotation[2] must be a number, got \"0\""},
      {R"("nodes":[{"matrix":[1,0,0,0]}])", "node 0: matrix must have 16 numbers, got 4"},
      {R"("nodes":[{"scale":[1,1,1e39]}])", "node 0: scale[2] 1e+39 is out of the float range"},
      {R"("nodes":[{"weights":[true]}])", "node 0: weights[0] must be a number, got a boolean"},
      {R"("nodes":[{"children":3}])", "node 0: children must be an array, got 3"},
      {R"("buffers":[{}])", "buffer 0: missing required property 'byteLength'"},
      {R"("buffers":[{"byteLength":-4}])", "buffer 0: byteLength must not be negative, got -4"},
      {R"("buffers":[{"byteLength":4,"uri":7}])", "buffer 0: uri must be a string, got 7"},
      {R"("buffers":[{"byteLength":4}],"bufferViews":[{"buffer":0}])",
       "bufferView 0: missing required property 'byteLength'"},
      {R"("accessors":[{"count":1,"type":"SCALAR"}])", "accessor 0: missing required property 'componentType'"},
      {R"("accessors":[{"componentType":5126,"type":"SCALAR"}])", "accessor 0: missing required property 'count'"},
      {R"("accessors":[{"componentType":5126,"count":1}])", "accessor 0: missing required property 'type'"},
      {R"("accessors":[{"componentType":5126,"count":1,"type":"SCALAR","normalized":1}])",
       "accessor 0: normalized must be true or false, got 1"},
      {R"("meshes":[{}])", "mesh 0: missing required property 'primitives'"},
      {R"("meshes":[{"primitives":[]}])", "mesh 0: primitives must not be empty"},
      {R"("meshes":[{"primitives":[{}]}])", "mesh 0 primitive 0: missing required property 'attributes'"},
      {R"("meshes":[{"primitives":[{"attributes":[]}]}])", "mesh 0 primitive 0: attributes must be an object"},
      {R"("meshes":[{"primitives":[{"attributes":{},"mode":7}]}])", "mesh 0 primitive 0: mode 7 is not in 0..6"},
      {R"("meshes":[{"primitives":[{"attributes":{},"targets":{}}]}])", "mesh 0 primitive 0: targets must be an array"},
      {R"("skins":[{}])", "skin 0: missing required property 'joints'"},
      {R"("skins":[{"joints":[]}])", "skin 0: joints must not be empty"},
      {R"("animations":[{"samplers":[]}])", "animation 0: missing required property 'channels'"},
      {R"("animations":[{"channels":[{"sampler":0}],"samplers":[{"input":0,"output":0}]}],"accessors":[{"componentType":5126,"count":1,"type":"SCALAR"}])",
       "animation 0 channel 0: missing required property 'target'"},
      {R"("materials":[{"doubleSided":"yes"}])", "material 0: doubleSided must be true or false"},
      {R"("materials":[{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1]}}])",
       "material 0: pbrMetallicRoughness: baseColorFactor must have 4 numbers, got 3"},
      {R"("extensionsUsed":"KHR_x")", "extensionsUsed must be an array"},
      {R"("extensionsRequired":[3])", "extensionsRequired[0] must be a string, got 3"},
      {R"("scene":"0")", "scene must be an integer index"},
      {R"("images":[{"mimeType":false}])", "image 0: mimeType must be a string"},
  };
  for (const Case& c : cases) {
    const std::string json = head + c.body + "}";
    EXPECT_TRUE(refuses([&] { parse_json(json); }, ImportErrorCode::InvalidDocument, {c.fragment})) << c.body;
  }
}

TEST(GltfJsonRefusal, BadSamplerInterpolation) {
  Document d = test::sample_asset().document;
  const std::string json = gltf::serialize_gltf_json(d);
  std::string broken = json;
  const std::string step = R"("interpolation":"STEP")";
  broken.replace(broken.find(step), step.size(), R"("interpolation":"SMOOTH")");
  EXPECT_TRUE(refuses([&] { parse_json(broken); }, ImportErrorCode::InvalidDocument,
                      {"animation 0 sampler 0: interpolation \"SMOOTH\" is not LINEAR, STEP or CUBICSPLINE"}));
}

TEST(GltfJsonRefusal, BufferViewsAndAccessorsOutOfBounds) {
  using C = ImportErrorCode;
  expect_refusals({
      {"view beyond buffer",
       [](Document& d) { d.buffer_views[6].byte_length += 4; },
       C::AccessorOutOfBounds,
       {"bufferView 6: byteOffset", "exceeds buffer 0 ("}},
      {"view offset overflow",
       [](Document& d) { d.buffer_views[6].byte_offset = ~std::uint64_t(0) - 1; },
       C::AccessorOutOfBounds,
       {"bufferView 6: byteOffset 18446744073709551614 + byteLength 48 exceeds buffer 0"}},
      {"accessor beyond view",
       [](Document& d) { d.accessors[0].count = 4; },
       C::AccessorOutOfBounds,
       {"accessor 0: byteOffset 0 + count 4 * stride 12 exceeds bufferView 0 (36 bytes)"}},
      {"accessor offset beyond view",
       [](Document& d) { d.accessors[0].byte_offset = 4; },
       C::AccessorOutOfBounds,
       {"accessor 0: byteOffset 4 + count 3 * stride 12 exceeds bufferView 0 (36 bytes)"}},
      {"huge count overflow",
       [](Document& d) {
         d.accessors[0].count = 1ull << 27;
         d.buffer_views[0].byte_stride = 252;
       },
       C::AccessorOutOfBounds,
       {"accessor 0: byteOffset 0 + count 134217728 * stride 252 exceeds bufferView 0"}},
      {"stride too small",
       [](Document& d) { d.buffer_views[0].byte_stride = 8; },
       C::InvalidAccessor,
       {"accessor 0: bufferView 0 byteStride 8 is smaller than one VEC3 FLOAT element (12 bytes)"}},
      {"stride not multiple of 4",
       [](Document& d) { d.buffer_views[0].byte_stride = 14; },
       C::InvalidAccessor,
       {"bufferView 0: byteStride 14 is not a multiple of 4 in 4..252"}},
      {"stride above 252",
       [](Document& d) { d.buffer_views[0].byte_stride = 256; },
       C::InvalidAccessor,
       {"bufferView 0: byteStride 256"}},
      {"stride below 4",
       [](Document& d) { d.buffer_views[0].byte_stride = 2; },
       C::InvalidAccessor,
       {"bufferView 0: byteStride 2"}},
  });
}

TEST(GltfJsonRefusal, BadAccessorEnums) {
  using C = ImportErrorCode;
  expect_refusals({
      {"componentType",
       [](Document& d) { d.accessors[1].component_type = static_cast<ComponentType>(5124); },
       C::InvalidAccessor,
       {"accessor 1: componentType 5124 is not a glTF component type"}},
      {"componentType double",
       [](Document& d) { d.accessors[1].component_type = static_cast<ComponentType>(5130); },
       C::InvalidAccessor,
       {"accessor 1: componentType 5130"}},
      {"type",
       [](Document& d) { d.accessors[1].type = static_cast<AccessorType>(99); },
       C::InvalidAccessor,
       {"accessor 1: type \"UNKNOWN\" is not SCALAR"}},
      {"normalized float",
       [](Document& d) { d.accessors[0].normalized = true; },
       C::InvalidAccessor,
       {"accessor 0: normalized is not allowed for FLOAT components"}},
      {"sparse count zero",
       [](Document& d) { d.accessors[2].sparse = gltf::SparseAccessor{0, 1, 0, ComponentType::UnsignedShort, 2, 0}; },
       C::InvalidAccessor,
       {"accessor 2: sparse: count 0 is not in 1..accessor count 3"}},
      {"sparse count above count",
       [](Document& d) { d.accessors[2].sparse = gltf::SparseAccessor{4, 1, 0, ComponentType::UnsignedShort, 2, 0}; },
       C::InvalidAccessor,
       {"accessor 2: sparse: count 4 is not in 1..accessor count 3"}},
      {"sparse float indices",
       [](Document& d) { d.accessors[2].sparse = gltf::SparseAccessor{1, 1, 0, ComponentType::Float, 2, 0}; },
       C::InvalidAccessor,
       {"accessor 2: sparse: indices: componentType 5126 is not an unsigned integer type"}},
      {"sparse signed indices",
       [](Document& d) { d.accessors[2].sparse = gltf::SparseAccessor{1, 1, 0, ComponentType::Short, 2, 0}; },
       C::InvalidAccessor,
       {"componentType 5122"}},
      {"sparse strided view",
       [](Document& d) {
         d.buffer_views[3].byte_stride = 12;
         d.accessors[2].sparse = gltf::SparseAccessor{1, 1, 0, ComponentType::UnsignedShort, 3, 0};
       },
       C::InvalidAccessor,
       {"accessor 2: sparse: values: bufferView 3 has byteStride 12"}},
      {"sparse indices beyond view",
       [](Document& d) { d.accessors[2].sparse = gltf::SparseAccessor{3, 1, 4, ComponentType::UnsignedShort, 2, 0}; },
       C::AccessorOutOfBounds,
       {"accessor 2: sparse: indices: byteOffset 4 + count 3 * stride 2 exceeds bufferView 1 (6 bytes)"}},
      {"sparse values beyond view",
       [](Document& d) { d.accessors[0].sparse = gltf::SparseAccessor{2, 1, 0, ComponentType::UnsignedShort, 2, 8}; },
       C::AccessorOutOfBounds,
       {"accessor 0: sparse: values: byteOffset 8 + count 2 * stride 12 exceeds bufferView 2"}},
  });
}

TEST(GltfJsonRefusal, LimitsAreCheckedBeforeAllocating) {
  // An accessor without bufferView claiming 2^40 elements (terabytes once decoded).
  Document d;
  gltf::Accessor a;
  a.count = 1ull << 40;
  a.type = AccessorType::Mat4;
  d.accessors.push_back(a);
  EXPECT_TRUE(refuses([&] { reparse(d); }, ImportErrorCode::LimitExceeded,
                      {"accessor 0: count 1099511627776 exceeds limit max_accessor_elements"}));

  ImportLimits few_nodes;
  few_nodes.max_nodes = 3;
  EXPECT_TRUE(refuses([&] { reparse(test::sample_asset().document, few_nodes); }, ImportErrorCode::LimitExceeded,
                      {"nodes: 4 nodes exceed limit max_nodes 3"}));

  ImportLimits few_keys;
  few_keys.max_animation_keys = 5;  // two samplers of 3 keys each
  EXPECT_TRUE(refuses([&] { reparse(test::sample_asset().document, few_keys); }, ImportErrorCode::LimitExceeded,
                      {"max_animation_keys"}));
  few_keys.max_animation_keys = 6;
  EXPECT_NO_THROW(reparse(test::sample_asset().document, few_keys));

  // Key counts near 2^64 must not wrap the running sum past the limit.
  Document huge_keys;
  gltf::Accessor times;
  times.count = ~std::uint64_t(0) - 1;
  huge_keys.accessors.push_back(times);
  gltf::Animation animation;
  animation.samplers = {{0, 0, gltf::SamplerInterpolation::Linear}, {0, 0, gltf::SamplerInterpolation::Linear}};
  animation.channels = {{0, kNone, "translation"}};
  huge_keys.animations.push_back(animation);
  ImportLimits unlimited;
  unlimited.max_accessor_elements = ~std::uint64_t(0);
  unlimited.max_animation_keys = ~std::uint64_t(0) - 1;
  EXPECT_TRUE(refuses([&] { reparse(huge_keys, unlimited); }, ImportErrorCode::LimitExceeded, {"max_animation_keys"}));
}

}  // namespace
}  // namespace marrow
