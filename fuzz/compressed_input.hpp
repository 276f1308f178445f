#pragma once
// The inputs of the `draco` and `meshopt` fuzz targets: a few header bytes that shape a small
// glTF document around a compressed stream, then the stream itself. The document is built in
// code, so the fuzzer spends its time in the stream and in what marrow does with the decoded
// data instead of rediscovering JSON. marrow_fixtures --fuzz-seeds writes valid inputs (real
// Draco and meshopt streams) in this format.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "marrow/io/gltf/gltf_builder.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"

namespace marrow::fuzz {

inline constexpr std::size_t kDracoHeader = 5;
inline constexpr std::size_t kMeshoptHeader = 4;

// Draco: u16 points, u16 triangles, flags (bits 0-1: index type u8/u16/u32; bit 2: NORMAL;
// bit 3: JOINTS_0 + WEIGHTS_0 with a two-joint skin; bit 4: NORMAL as normalized BYTE).
// Draco attribute ids are 0, 1, ... in the order POSITION, NORMAL, JOINTS_0, WEIGHTS_0.
inline std::vector<std::byte> draco_input_glb(std::span<const std::byte> input) {
  if (input.size() < kDracoHeader) return {};
  const auto u8 = [&](std::size_t i) { return static_cast<std::uint32_t>(input[i]); };
  const std::uint32_t points = u8(0) | u8(1) << 8, triangles = u8(2) | u8(3) << 8, flags = u8(4);
  gltf::GltfBuilder b;
  const std::span<const std::byte> stream = input.subspan(kDracoHeader);
  std::vector<std::byte> padded(stream.begin(), stream.end());
  if (padded.empty()) padded.push_back(std::byte{0});
  const std::uint32_t view = b.add_buffer_view(padded);
  gltf::Document& doc = b.document();
  const auto accessor = [&](gltf::ComponentType c, gltf::AccessorType t, std::uint64_t count, bool normalized) {
    gltf::Accessor a;
    a.component_type = c;
    a.type = t;
    a.count = count;
    a.normalized = normalized;
    doc.accessors.push_back(a);
    return static_cast<std::uint32_t>(doc.accessors.size() - 1);
  };
  gltf::Primitive p;
  gltf::DracoCompression d;
  d.buffer_view = view;
  std::uint32_t id = 0;
  p.attributes.push_back({"POSITION", accessor(gltf::ComponentType::Float, gltf::AccessorType::Vec3, points, false)});
  d.attributes.push_back({"POSITION", id++});
  if ((flags & 4) != 0) {
    const bool byte_normals = (flags & 16) != 0;
    p.attributes.push_back({"NORMAL", accessor(byte_normals ? gltf::ComponentType::Byte : gltf::ComponentType::Float,
                                               gltf::AccessorType::Vec3, points, byte_normals)});
    d.attributes.push_back({"NORMAL", id++});
  }
  const bool skinned = (flags & 8) != 0;
  if (skinned) {
    p.attributes.push_back({"JOINTS_0", accessor(gltf::ComponentType::UnsignedShort, gltf::AccessorType::Vec4, points, false)});
    d.attributes.push_back({"JOINTS_0", id++});
    p.attributes.push_back({"WEIGHTS_0", accessor(gltf::ComponentType::Float, gltf::AccessorType::Vec4, points, false)});
    d.attributes.push_back({"WEIGHTS_0", id++});
  }
  const gltf::ComponentType index_types[] = {gltf::ComponentType::UnsignedByte, gltf::ComponentType::UnsignedShort,
                                             gltf::ComponentType::UnsignedInt, gltf::ComponentType::UnsignedInt};
  p.indices = accessor(index_types[flags & 3], gltf::AccessorType::Scalar, std::uint64_t{triangles} * 3, false);
  p.draco = d;
  gltf::Mesh mesh;
  mesh.primitives.push_back(p);
  doc.meshes.push_back(mesh);
  doc.nodes.resize(3);
  doc.nodes[0].mesh = 0;
  doc.nodes[1].children = {2};
  doc.nodes[2].translation = {0, 1, 0};
  doc.scenes.push_back(gltf::Scene{"", {0, 1}});
  doc.scene = 0;
  if (skinned) {
    doc.skins.push_back(gltf::Skin{"", gltf::kNone, gltf::kNone, {1, 2}});
    doc.nodes[0].skin = 0;
  }
  doc.extensions_used = {"KHR_draco_mesh_compression", "KHR_mesh_quantization"};
  doc.extensions_required = doc.extensions_used;
  return gltf::write_glb_asset(b.finish());
}

// meshopt: mode (0 ATTRIBUTES, 1 TRIANGLES, 2 INDICES) in bits 0-1 and filter in bits 2-3 of
// byte 0; byte 1: stride (ATTRIBUTES: 4 * (1 + byte % 63), else 2 or 4 by bit 0); u16 count.
// ATTRIBUTES with a stride of at least 12 are the POSITION of a point list; indices index a
// fixed 4-vertex triangle list.
inline std::vector<std::byte> meshopt_input_glb(std::span<const std::byte> input) {
  if (input.size() < kMeshoptHeader) return {};
  const auto u8 = [&](std::size_t i) { return static_cast<std::uint32_t>(input[i]); };
  const std::uint32_t mode = u8(0) & 3, filter = (u8(0) >> 2) & 3, count = u8(2) | u8(3) << 8;
  const std::uint32_t stride = mode == 0 ? 4 * (1 + u8(1) % 63) : ((u8(1) & 1) != 0 ? 4u : 2u);
  gltf::GltfBuilder b;
  const float quad[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const std::uint32_t fixed_positions = b.add_floats(quad, gltf::AccessorType::Vec3);
  const std::span<const std::byte> stream = input.subspan(kMeshoptHeader);
  std::vector<std::byte> padded(stream.begin(), stream.end());
  if (padded.empty()) padded.push_back(std::byte{0});
  const std::uint32_t compressed = b.add_buffer_view(padded);
  gltf::GltfAsset asset = b.finish();
  gltf::Document& d = asset.document;
  const gltf::BufferView source = d.buffer_views[compressed];
  // The decoded view lives in a fallback buffer of its own.
  d.buffers.push_back(gltf::Buffer{"", std::max<std::uint64_t>(std::uint64_t{count} * stride, 4), "", true});
  asset.buffers.emplace_back();
  gltf::MeshoptCompression m{0, source.byte_offset, source.byte_length, stride, count,
                             static_cast<gltf::MeshoptMode>(mode > 2 ? 2 : mode), static_cast<gltf::MeshoptFilter>(filter)};
  d.buffer_views.push_back(gltf::BufferView{1, 0, std::uint64_t{count} * stride, mode == 0 && stride <= 252 ? stride : 0,
                                            0, "", m});
  const auto view = static_cast<std::uint32_t>(d.buffer_views.size() - 1);
  gltf::Primitive p;
  if (mode == 0) {
    gltf::Accessor a;
    a.buffer_view = view;
    a.type = gltf::AccessorType::Vec3;
    a.count = stride >= 12 ? count : 0;
    d.accessors.push_back(a);
    p.attributes.push_back({"POSITION", static_cast<std::uint32_t>(d.accessors.size() - 1)});
    p.mode = 0;
  } else {
    p.attributes.push_back({"POSITION", fixed_positions});
    gltf::Accessor a;
    a.buffer_view = view;
    a.component_type = stride == 2 ? gltf::ComponentType::UnsignedShort : gltf::ComponentType::UnsignedInt;
    a.count = count;
    d.accessors.push_back(a);
    p.indices = static_cast<std::uint32_t>(d.accessors.size() - 1);
  }
  gltf::Mesh mesh;
  mesh.primitives.push_back(p);
  d.meshes.push_back(mesh);
  d.nodes.resize(1);
  d.nodes[0].mesh = 0;
  d.scenes.push_back(gltf::Scene{"", {0}});
  d.scene = 0;
  d.extensions_used = {"EXT_meshopt_compression"};
  d.extensions_required = d.extensions_used;
  return gltf::write_glb_asset(asset);
}

}  // namespace marrow::fuzz
