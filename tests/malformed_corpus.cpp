#include "malformed_corpus.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "compressed_fixtures.hpp"
#include "gltf_fixture.hpp"
#include "marrow/io/gltf/detail/glb.hpp"
#include "marrow/io/gltf/gltf_builder.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"
#include "marrow/io/gltf/gltf_meshopt_compress.hpp"

namespace marrow::test {

namespace {

using C = ImportErrorCode;
using gltf::SamplerInterpolation;

// A valid skinned, animated two-joint model: the base every mutation starts from. With
// two_sets, each vertex has a second influence set (JOINTS_1/WEIGHTS_1, S1).
Fixture base(bool two_sets = false) {
  Fixture f;
  const auto j0 = f.node("J0"), j1 = f.node("J1", {0, 1, 0}), body = f.node("Body");
  f.child(j0, j1);
  f.scene({j0, body});
  MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.normals.assign(4, glm::vec3(0, 0, 1));
  m.indices = {0, 1, 2, 2, 1, 3};
  m.joints = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  m.weights.assign(4, glm::vec4(1, 0, 0, 0));
  if (two_sets) {
    m.weights.assign(4, glm::vec4(0.5f, 0, 0, 0));
    m.more_joints = {{{1, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}};
    m.more_weights = {std::vector<glm::vec4>(4, glm::vec4(0.5f, 0, 0, 0))};
  }
  f.doc().nodes[body].mesh = f.mesh(m);
  f.doc().nodes[body].skin = f.skin({j0, j1}, {glm::mat4(1.f), glm::inverse(glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)))});
  const auto anim = f.animation("Wave");
  f.channel(anim, j1, "translation", SamplerInterpolation::Linear, {0.f, 1.f, 2.f}, {0, 1, 0, 1, 1, 0, 0, 1, 0});
  return f;
}

std::vector<std::byte> text(const std::string& s) {
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

void put_u32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t v) { std::memcpy(bytes.data() + at, &v, 4); }

// The base as a .gltf after editing its document (and maybe its buffer).
std::vector<std::byte> edited_gltf(const std::function<void(gltf::GltfAsset&)>& edit, bool two_sets = false) {
  Fixture f = base(two_sets);
  gltf::GltfAsset asset = f.asset();
  edit(asset);
  const std::string json = gltf::write_gltf_embedded(asset);
  return text(json);
}

// The base's document alone after editing (buffers are not embedded: for URI mistakes).
std::vector<std::byte> edited_json(const std::function<void(gltf::Document&)>& edit) {
  Fixture f = base();
  gltf::GltfAsset asset = f.asset();
  edit(asset.document);
  return text(gltf::serialize_gltf_json(asset.document));
}

// The base as a .glb after editing its bytes.
std::vector<std::byte> edited_glb(const std::function<void(std::vector<std::byte>&)>& edit) {
  Fixture f = base();
  std::vector<std::byte> bytes = f.glb();
  edit(bytes);
  return bytes;
}

// Offset in the BIN chunk of accessor `a`'s first byte.
std::size_t accessor_offset(const gltf::GltfAsset& asset, std::uint32_t a) {
  const gltf::Accessor& acc = asset.document.accessors[a];
  return static_cast<std::size_t>(asset.document.buffer_views[acc.buffer_view].byte_offset + acc.byte_offset);
}

std::uint32_t first_sampler_input(const gltf::GltfAsset& a) { return a.document.animations[0].samplers[0].input; }
std::uint32_t first_sampler_output(const gltf::GltfAsset& a) { return a.document.animations[0].samplers[0].output; }

void write_float(gltf::GltfAsset& a, std::uint32_t accessor, std::size_t element, float v) {
  std::memcpy(a.buffers[0].data() + accessor_offset(a, accessor) + element * 4, &v, 4);
}

}  // namespace

std::vector<MalformedFile> malformed_corpus() {
  std::vector<MalformedFile> out;
  const auto add = [&](std::string name, std::vector<std::byte> bytes, C code, std::string why) {
    out.push_back(MalformedFile{std::move(name), std::move(bytes), code, std::move(why)});
  };

  // Not glTF at all: named for what the bytes are, not reported as broken JSON.
  add("empty_file.glb", {}, C::EmptyFile, "no bytes");
  add("png_named_glb.glb", [] {
        const unsigned char png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                     0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89};
        std::vector<std::byte> b(sizeof png);
        std::memcpy(b.data(), png, sizeof png);
        return b;
      }(),
      C::UnsupportedFormat, "a PNG (its signature and header) renamed .glb");

  // GLB container.
  add("glb_truncated_header.glb", edited_glb([](auto& b) { b.resize(8); }), C::InvalidContainer, "8 bytes of a 12-byte header");
  add("glb_truncated_half.glb", edited_glb([](auto& b) { b.resize(b.size() / 2); }), C::InvalidContainer,
      "the second half of the file is missing");
  add("glb_version_1.glb", edited_glb([](auto& b) { put_u32(b, 4, 1); }), C::InvalidContainer, "container version 1");
  add("glb_length_too_big.glb", edited_glb([](auto& b) { put_u32(b, 8, static_cast<std::uint32_t>(b.size() + 64)); }),
      C::InvalidContainer, "header length beyond the file");
  add("glb_json_chunk_overruns.glb", edited_glb([](auto& b) { put_u32(b, 12, 0x7ffffff0u); }), C::InvalidContainer,
      "JSON chunk length runs past the end");
  add("glb_first_chunk_not_json.glb", edited_glb([](auto& b) { put_u32(b, 16, 0x004E4942u); }), C::InvalidContainer,
      "the first chunk is BIN");
  add("glb_bin_chunk_length_odd.glb", edited_glb([](auto& b) {
        std::uint32_t json_length;
        std::memcpy(&json_length, b.data() + 12, 4);
        std::uint32_t bin_length;
        std::memcpy(&bin_length, b.data() + 20 + json_length, 4);
        put_u32(b, 20 + json_length, bin_length - 1);
      }),
      C::InvalidContainer, "BIN chunk length not a multiple of 4");
  add("glb_bin_too_short.glb", edited_glb([](auto& b) {
        std::uint32_t json_length;
        std::memcpy(&json_length, b.data() + 12, 4);
        put_u32(b, 20 + json_length, 4);  // the BIN chunk now holds 4 bytes, the buffer needs more
        b.resize(20 + json_length + 8 + 4);
        put_u32(b, 8, static_cast<std::uint32_t>(b.size()));
      }),
      C::AccessorOutOfBounds, "BIN chunk shorter than buffer 0's byteLength");

  // JSON.
  add("json_garbage.gltf", text("{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [ {,} ]"), C::InvalidJson, "not JSON");
  add("json_depth_bomb.gltf", text("{\"asset\":{\"version\":\"2.0\"},\"extras\":" + std::string(20000, '[') + std::string(20000, ']') + "}"),
      C::InvalidJson, "20000 nested arrays");
  add("json_no_asset.gltf", text("{\"nodes\": []}"), C::InvalidDocument, "no asset object");
  add("json_version_1.gltf", text("{\"asset\": {\"version\": \"1.0\"}}"), C::InvalidDocument, "glTF 1.0");
  add("json_node_translation_overflow.gltf", text("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[1e39,0,0]}]}"),
      C::InvalidDocument, "a translation beyond the float range (it would be infinite)");
  add("json_min_version_2_1.gltf", text("{\"asset\":{\"version\":\"2.1\",\"minVersion\":\"2.1\"}}"), C::VersionMismatch,
      "minVersion 2.1 (features marrow does not know)");
  add("json_unsupported_required_extension.gltf", edited_gltf([](auto& a) {
        a.document.extensions_used = {"EXT_mesh_gpu_instancing"};
        a.document.extensions_required = {"EXT_mesh_gpu_instancing"};
      }),
      C::UnsupportedExtension, "EXT_mesh_gpu_instancing required");

  // Indices that name nothing.
  add("index_node_mesh.gltf", edited_gltf([](auto& a) { a.document.nodes[2].mesh = 7; }), C::IndexOutOfRange, "node 2 mesh 7");
  add("index_node_child.gltf", edited_gltf([](auto& a) { a.document.nodes[0].children.push_back(40); }), C::IndexOutOfRange,
      "node 0 child 40");
  add("index_skin_joint.gltf", edited_gltf([](auto& a) { a.document.skins[0].joints[1] = 99; }), C::IndexOutOfRange,
      "skin 0 joint node 99");
  add("index_accessor_attribute.gltf", edited_gltf([](auto& a) { a.document.meshes[0].primitives[0].attributes[0].accessor = 500; }),
      C::IndexOutOfRange, "POSITION accessor 500");
  add("index_animation_pointer_node.gltf", edited_gltf([](auto& a) {
        gltf::AnimationChannel& c = a.document.animations[0].channels[0];
        c.path = "pointer";
        c.node = gltf::kNone;
        c.pointer = "/nodes/42/translation";
      }),
      C::IndexOutOfRange, "a KHR_animation_pointer to node 42 of 3");
  add("index_channel_sampler.gltf", edited_gltf([](auto& a) { a.document.animations[0].channels[0].sampler = 3; }),
      C::IndexOutOfRange, "channel sampler 3");

  // Accessors and buffers.
  add("accessor_beyond_buffer_view.gltf", edited_gltf([](auto& a) { a.document.accessors[0].count = 1000; }),
      C::AccessorOutOfBounds, "POSITION count 1000 in a 48-byte view");
  add("accessor_offset_beyond_view.gltf", edited_gltf([](auto& a) { a.document.accessors[0].byte_offset = 4096; }),
      C::AccessorOutOfBounds, "byteOffset 4096");
  add("buffer_view_beyond_buffer.gltf", edited_gltf([](auto& a) { a.document.buffer_views[0].byte_length = 1u << 20; }),
      C::AccessorOutOfBounds, "bufferView 0 of 1 MiB in a small buffer");
  add("stride_too_small.gltf", edited_gltf([](auto& a) { a.document.buffer_views[0].byte_stride = 8; }), C::InvalidAccessor,
      "byteStride 8 for VEC3 floats");
  add("accessor_bad_component_type.gltf", text("{\"asset\":{\"version\":\"2.0\"},\"accessors\":[{\"componentType\":5124,\"count\":1,\"type\":\"SCALAR\"}]}"),
      C::InvalidAccessor, "componentType 5124");
  add("accessor_count_needs_gigabytes.gltf", edited_gltf([](auto& a) {
        a.document.accessors[0].count = 1000000000000ull;
        a.document.accessors[0].buffer_view = gltf::kNone;
      }),
      C::LimitExceeded, "10^12 elements without a bufferView (zeros)");
  add("sparse_index_beyond_count.gltf", edited_gltf([](auto& a) {
        gltf::SparseAccessor sparse;
        sparse.count = 1;
        sparse.indices_buffer_view = a.document.meshes[0].primitives[0].indices == gltf::kNone
                                         ? 0
                                         : a.document.accessors[a.document.meshes[0].primitives[0].indices].buffer_view;
        sparse.indices_component_type = gltf::ComponentType::UnsignedInt;
        sparse.indices_byte_offset = 0;
        sparse.values_buffer_view = a.document.accessors[0].buffer_view;
        a.document.accessors[0].sparse = sparse;
        std::uint32_t big = 77;  // the first index of the mesh becomes 77
        std::memcpy(a.buffers[0].data() + a.document.buffer_views[sparse.indices_buffer_view].byte_offset, &big, 4);
      }),
      C::InvalidAccessor, "sparse index 77 of 4 elements");
  add("uri_http.gltf", edited_json([](auto& d) { d.buffers[0].uri = "http://example.com/model.bin"; }), C::InvalidUri,
      "an http: buffer");
  add("uri_escapes_folder.gltf", edited_json([](auto& d) { d.buffers[0].uri = "../../secret.bin"; }), C::InvalidUri,
      "a path leaving the file's folder");
  add("uri_bad_base64.gltf", text("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"data:application/octet-stream;base64,AB$=\"}]}"),
      C::InvalidUri, "base64 with a '$'");

  // Meshes.
  add("mesh_index_beyond_vertices.gltf", edited_gltf([](auto& a) {
        std::uint32_t big = 9;
        const gltf::Accessor& indices = a.document.accessors[a.document.meshes[0].primitives[0].indices];
        std::memcpy(a.buffers[0].data() + a.document.buffer_views[indices.buffer_view].byte_offset, &big, 4);
      }),
      C::InvalidMesh, "index 9 of 4 vertices");
  add("mesh_attribute_counts_differ.gltf", edited_gltf([](auto& a) { a.document.accessors[1].count = 3; }), C::InvalidMesh,
      "NORMAL has 3 elements, POSITION 4");
  add("mesh_no_position.gltf", edited_gltf([](auto& a) {
        auto& attrs = a.document.meshes[0].primitives[0].attributes;
        attrs.erase(attrs.begin());
      }),
      C::InvalidMesh, "a primitive without POSITION");
  add("mesh_joints_beyond_skin.gltf", edited_gltf([](auto& a) {
        const std::uint32_t joints = a.document.meshes[0].primitives[0].find("JOINTS_0");
        const std::uint16_t big = 5;
        std::memcpy(a.buffers[0].data() + accessor_offset(a, joints), &big, 2);
      }),
      C::InvalidMesh, "JOINTS_0 value 5 for a 2-joint skin");
  add("mesh_nan_position.gltf", edited_gltf([](auto& a) {
        write_float(a, a.document.meshes[0].primitives[0].find("POSITION"), 4, std::nanf(""));
      }),
      C::InvalidMesh, "vertex 1 has a NaN y (glTF forbids NaN and infinities in accessors)");
  add("mesh_inf_weight.gltf", edited_gltf([](auto& a) {
        write_float(a, a.document.meshes[0].primitives[0].find("WEIGHTS_0"), 8, INFINITY);
      }),
      C::InvalidMesh, "vertex 2 has an infinite weight");
  // Influence sets (S1): JOINTS_n and WEIGHTS_n pair up, numbered from 0; every set is checked.
  const auto two_sets = [&](const std::function<void(gltf::GltfAsset&)>& edit) { return edited_gltf(edit, true); };
  const auto rename = [](gltf::GltfAsset& a, const std::string& from, const std::string& to) {
    for (gltf::Attribute& attribute : a.document.meshes[0].primitives[0].attributes) {
      if (attribute.semantic == from) attribute.semantic = to;
    }
  };
  add("mesh_weights_sets_fewer_than_joints.gltf", two_sets([&](auto& a) { rename(a, "WEIGHTS_1", "_WEIGHTS_1"); }),
      C::InvalidMesh, "JOINTS_0 and JOINTS_1 but only WEIGHTS_0");
  add("mesh_joints_sets_gap.gltf", two_sets([&](auto& a) {
        rename(a, "JOINTS_1", "JOINTS_2");
        rename(a, "WEIGHTS_1", "WEIGHTS_2");
      }),
      C::InvalidMesh, "JOINTS_2/WEIGHTS_2 without JOINTS_1/WEIGHTS_1");
  add("mesh_joints_1_beyond_skin.gltf", two_sets([](auto& a) {
        const std::uint32_t joints = a.document.meshes[0].primitives[0].find("JOINTS_1");
        const std::uint16_t big = 7;
        std::memcpy(a.buffers[0].data() + accessor_offset(a, joints) + 8 * 3, &big, 2);
      }),
      C::InvalidMesh, "vertex 3 JOINTS_1 value 7 for a 2-joint skin");
  add("mesh_nan_weight_set_1.gltf", two_sets([](auto& a) {
        write_float(a, a.document.meshes[0].primitives[0].find("WEIGHTS_1"), 5, std::nanf(""));
      }),
      C::InvalidMesh, "vertex 1 has a NaN in WEIGHTS_1");
  add("mesh_too_many_joint_sets.gltf", edited_gltf([](auto& a) {
        gltf::Primitive& prim = a.document.meshes[0].primitives[0];
        const std::uint32_t joints = prim.find("JOINTS_0"), weights = prim.find("WEIGHTS_0");
        for (int set = 1; set < 65; ++set) {
          prim.attributes.push_back({"JOINTS_" + std::to_string(set), joints});
          prim.attributes.push_back({"WEIGHTS_" + std::to_string(set), weights});
        }
      }),
      C::LimitExceeded, "65 influence sets: 260 influences per vertex, more than marrow's 256");

  // Node graph and skins.
  add("graph_cycle.gltf", edited_gltf([](auto& a) { a.document.nodes[1].children.push_back(0); }), C::InvalidNodeGraph,
      "J0 -> J1 -> J0");
  add("graph_two_parents.gltf", edited_gltf([](auto& a) { a.document.nodes[2].children.push_back(1); }), C::InvalidNodeGraph,
      "J1 is a child of J0 and of Body");
  add("graph_scene_lists_child.gltf", edited_gltf([](auto& a) { a.document.scenes[0].nodes.push_back(1); }),
      C::InvalidNodeGraph, "the scene lists J1, a child");
  add("skin_duplicate_joint.gltf", edited_gltf([](auto& a) { a.document.skins[0].joints[1] = a.document.skins[0].joints[0]; }),
      C::InvalidSkin, "J0 listed twice");
  add("skin_too_few_inverse_binds.gltf", edited_gltf([](auto& a) {
        a.document.skins[0].joints.push_back(2);  // three joints, two matrices
      }),
      C::InvalidSkin, "3 joints, 2 inverse bind matrices");
  add("skin_nan_inverse_bind.gltf", edited_gltf([](auto& a) {
        write_float(a, a.document.skins[0].inverse_bind_matrices, 5, std::nanf(""));
      }),
      C::InvalidSkin, "a NaN in an inverse bind matrix");
  add("skin_singular_mesh_node.gltf", edited_gltf([](auto& a) { a.document.nodes[2].scale = {1.f, 0.f, 1.f}; }),
      C::InvalidSkin, "the skinned mesh node has scale y 0: joints cannot be expressed in its space");
  add("skin_prefix_overflow.gltf", edited_gltf([](auto& a) {
        // Two non-joint ancestors of J0 scaling by 1e30 each: finite values, an infinite product.
        auto& d = a.document;
        const auto first = static_cast<std::uint32_t>(d.nodes.size());
        gltf::Node huge;
        huge.scale = {1e30f, 1e30f, 1e30f};
        huge.name = "Huge0";
        huge.children = {first + 1};
        d.nodes.push_back(huge);
        huge.name = "Huge1";
        huge.children = {0};
        d.nodes.push_back(huge);
        d.scenes[0].nodes[0] = first;
      }),
      C::InvalidSkin, "the transforms above J0 multiply to 1e60");

  add("skin_73_joints.glb", [] {
        MeshData m;
        m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        m.joints.assign(3, glm::u16vec4(72, 0, 0, 0));
        m.weights.assign(3, glm::vec4(1, 0, 0, 0));
        return joint_chain(73, m).glb();
      }(),
      C::PaletteLimit, "73 joints, palette limit 72 (G8)");

  // S4: a triangle whose three vertices weigh 75 distinct joints (25 each, in seven influence
  // sets) cannot be split into palettes of 72. The malformed test imports files named
  // palette_split_* with PalettePolicy::Split.
  add("palette_split_triangle_over_limit.glb", [] {
        MeshData m;
        m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        m.more_joints.resize(6);
        m.more_weights.resize(6);
        for (std::uint16_t v = 0; v < 3; ++v) {
          std::array<std::uint16_t, 28> j{};
          std::array<float, 28> w{};
          for (std::uint16_t k = 0; k < 25; ++k) {
            j[k] = static_cast<std::uint16_t>(25 * v + k);
            w[k] = 1.f / 25.f;
          }
          m.joints.push_back({j[0], j[1], j[2], j[3]});
          m.weights.push_back({w[0], w[1], w[2], w[3]});
          for (std::size_t set = 0; set < 6; ++set) {
            const std::size_t b = 4 * (set + 1);
            m.more_joints[set].push_back({j[b], j[b + 1], j[b + 2], j[b + 3]});
            m.more_weights[set].push_back({w[b], w[b + 1], w[b + 2], w[b + 3]});
          }
        }
        return joint_chain(75, m).glb();
      }(),
      C::PaletteLimit, "triangle 0 weighs 75 joints, more than a split palette of 72 holds (S4)");

  // Animations.
  add("anim_nan_key_time.gltf", edited_gltf([](auto& a) { write_float(a, first_sampler_input(a), 1, std::nanf("")); }),
      C::InvalidAnimation, "a NaN key time");
  add("anim_inf_value.gltf", edited_gltf([](auto& a) { write_float(a, first_sampler_output(a), 4, INFINITY); }),
      C::InvalidAnimation, "an infinite translation");
  add("anim_times_not_increasing.gltf", edited_gltf([](auto& a) { write_float(a, first_sampler_input(a), 2, 0.5f); }),
      C::InvalidAnimation, "key times 0, 1, 0.5");
  add("anim_cubic_spline_overflow.gltf", [] {
        Fixture f = base();
        // Finite keys whose Hermite segment can reach 4e38 between them (fuzz finding).
        f.channel(0, 0, "scale", SamplerInterpolation::CubicSpline, {0.f, 1.f},
                  {0, 0, 0, 1, 1, 1, 2e38f, 0, 0, 2e38f, 0, 0, 1, 1, 1, 0, 0, 0});
        return text(gltf::write_gltf_embedded(f.asset()));
      }(),
      C::InvalidAnimation, "a CUBICSPLINE scale segment beyond the float range");
  add("anim_output_too_short.gltf", edited_gltf([](auto& a) { a.document.accessors[first_sampler_output(a)].count = 2; }),
      C::InvalidAnimation, "3 keys, 2 values");

  // Compressed geometry (EXT_meshopt_compression, KHR_draco_mesh_compression).
  const auto meshopt = [](const std::function<void(gltf::GltfAsset&, gltf::BufferView&)>& edit) {
    gltf::GltfAsset a = gltf::compress_meshopt(base().asset());
    for (gltf::BufferView& v : a.document.buffer_views) {
      if (v.meshopt && v.meshopt->mode == gltf::MeshoptMode::Attributes && v.meshopt->byte_stride == 12) {
        edit(a, v);
        break;
      }
    }
    return gltf::write_glb_asset(a);
  };
  add("meshopt_corrupt_stream.glb", meshopt([](auto& a, auto& v) {
        for (std::uint64_t i = 0; i < v.meshopt->byte_length; ++i) a.buffers[0][v.meshopt->byte_offset + i] = std::byte{0xFF};
      }),
      C::InvalidCompression, "a vertex stream of 0xFF bytes that meshoptimizer refuses");
  add("meshopt_count_times_stride.glb", meshopt([](auto&, auto& v) { v.meshopt->count += 1; }), C::InvalidDocument,
      "count * byteStride is not the bufferView's byteLength");
  add("meshopt_quaternion_stride.glb", meshopt([](auto&, auto& v) { v.meshopt->filter = gltf::MeshoptFilter::Quaternion; }),
      C::InvalidDocument, "the QUATERNION filter on a 12-byte stride");
  add("meshopt_stream_beyond_buffer.glb", meshopt([](auto& a, auto& v) { v.meshopt->byte_length = a.buffers[0].size() + 4; }),
      C::AccessorOutOfBounds, "compressed bytes beyond the end of their buffer");
  // The first compressed view of a mode (the vertex view of 12-byte POSITIONs for ATTRIBUTES).
  const auto meshopt_view = [](gltf::MeshoptMode mode, const std::function<void(gltf::GltfAsset&, gltf::BufferView&)>& edit) {
    gltf::GltfAsset a = gltf::compress_meshopt(base().asset());
    for (gltf::BufferView& v : a.document.buffer_views) {
      if (v.meshopt && v.meshopt->mode == mode && (mode != gltf::MeshoptMode::Attributes || v.meshopt->byte_stride == 12)) {
        edit(a, v);
        break;
      }
    }
    return gltf::write_glb_asset(a);
  };
  // A word of the written JSON changed for another of the same length (the GLB stays well formed).
  const auto respelled = [](std::vector<std::byte> glb, const std::string& from, const std::string& to) {
    const std::string_view all(reinterpret_cast<const char*>(glb.data()), glb.size());
    const std::size_t at = all.find(from);
    if (at == std::string_view::npos || from.size() != to.size()) throw std::logic_error("respelled: " + from);
    std::memcpy(glb.data() + at, to.data(), to.size());
    return glb;
  };
  add("meshopt_unknown_mode.glb", respelled(meshopt([](auto&, auto&) {}), "\"ATTRIBUTES\"", "\"ATTRIBUTEZ\""),
      C::InvalidDocument, "a mode that is not ATTRIBUTES, TRIANGLES or INDICES");
  add("meshopt_unknown_filter.glb",
      respelled(meshopt([](auto&, auto& v) { v.meshopt->filter = gltf::MeshoptFilter::Exponential; }), "\"EXPONENTIAL\"",
                "\"EXPONENTIAX\""),
      C::InvalidDocument, "a filter that is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL");
  add("meshopt_attribute_stride.glb", meshopt([](auto&, auto& v) { v.meshopt->byte_stride = 6; }), C::InvalidDocument,
      "ATTRIBUTES with a 6-byte stride (a multiple of 4 is required)");
  add("meshopt_triangles_count.glb", meshopt_view(gltf::MeshoptMode::Triangles, [](auto&, auto& v) { v.meshopt->count += 1; }),
      C::InvalidDocument, "TRIANGLES whose count is not a multiple of 3");
  add("meshopt_filter_on_indices.glb",
      meshopt_view(gltf::MeshoptMode::Triangles, [](auto&, auto& v) { v.meshopt->filter = gltf::MeshoptFilter::Octahedral; }),
      C::InvalidDocument, "a filter on a TRIANGLES view");
  add("meshopt_count_limit.glb", meshopt([](auto&, auto& v) { v.meshopt->count = (std::uint64_t{1} << 28) + 1; }),
      C::LimitExceeded, "a count beyond max_accessor_elements");
  add("meshopt_in_fallback_buffer.glb", meshopt([](auto& a, auto&) { a.document.buffers[0].meshopt_fallback = true; }),
      C::InvalidDocument, "compressed bytes in a buffer marked as the fallback");
  const auto draco = [](const std::function<void(gltf::GltfAsset&, gltf::Primitive&)>& edit) {
    gltf::GltfAsset a = draco_asset(base().asset());
    edit(a, a.document.meshes[0].primitives[0]);
    return gltf::write_glb_asset(a);
  };
  add("draco_corrupt_stream.glb", draco([](auto& a, auto& p) {
        const gltf::BufferView& v = a.document.buffer_views[p.draco->buffer_view];
        for (std::uint64_t i = 8; i < v.byte_length; ++i) a.buffers[0][v.byte_offset + i] = std::byte{0xA5};
      }),
      C::InvalidCompression, "a Draco stream garbled after its header");
  add("draco_point_count_mismatch.glb", draco([](auto& a, auto& p) {
        for (const gltf::Attribute& x : p.attributes) a.document.accessors[x.accessor].count = 3;
      }),
      C::InvalidCompression, "4 decoded points, the accessors declare 3");
  add("draco_index_count_mismatch.glb", draco([](auto& a, auto& p) { a.document.accessors[p.indices].count = 3; }),
      C::InvalidCompression, "2 decoded triangles, the indices accessor declares 3 indices");
  add("draco_missing_attribute_id.glb", draco([](auto&, auto& p) { p.draco->attributes[0].id = 9; }),
      C::InvalidCompression, "POSITION names Draco attribute 9, which the stream does not have");
  add("draco_not_triangles.glb", draco([](auto&, auto& p) { p.mode = 0; }), C::InvalidDocument,
      "a Draco primitive of POINTS");
  add("draco_attribute_not_in_primitive.glb", draco([](auto&, auto& p) { p.draco->attributes.push_back({"TEXCOORD_0", 7}); }),
      C::InvalidDocument, "a Draco attribute TEXCOORD_0 the primitive does not have");
  add("draco_no_indices.glb", draco([](auto&, auto& p) { p.indices = gltf::kNone; }), C::InvalidDocument,
      "a Draco primitive without an indices accessor");
  add("draco_float_indices.glb", draco([](auto& a, auto& p) { a.document.accessors[p.indices].component_type = gltf::ComponentType::Float; }),
      C::InvalidDocument, "a Draco primitive whose indices accessor is FLOAT");
  add("draco_sparse_accessor.glb", draco([](auto& a, auto& p) {
        a.document.accessors[p.find("NORMAL")].sparse = gltf::SparseAccessor{1, 0, 0, gltf::ComponentType::UnsignedInt, 0, 0};
      }),
      C::InvalidDocument, "a sparse accessor for a Draco attribute");
  add("draco_matrix_attribute.glb", draco([](auto& a, auto& p) { a.document.accessors[p.find("NORMAL")].type = gltf::AccessorType::Mat4; }),
      C::InvalidDocument, "a Draco attribute whose accessor is MAT4");
  add("draco_attribute_counts_differ.glb", draco([](auto& a, auto& p) { a.document.accessors[p.find("NORMAL")].count = 3; }),
      C::InvalidDocument, "NORMAL declares 3 elements, the other attributes 4");
  add("draco_no_attributes.glb", draco([](auto&, auto& p) { p.draco->attributes.clear(); }), C::InvalidDocument,
      "a Draco extension that names no attributes");
  add("draco_component_count_mismatch.glb", draco([](auto& a, auto& p) { a.document.accessors[p.find("NORMAL")].type = gltf::AccessorType::Vec4; }),
      C::InvalidCompression, "NORMAL decodes to 3 components, its accessor is VEC4");
  append_malformed_native(out);
  append_malformed_motion_databases(out);
  append_malformed_bvh(out);
  append_malformed_bone_maps(out);
  append_malformed_graphs(out);
  return out;
}

}  // namespace marrow::test
