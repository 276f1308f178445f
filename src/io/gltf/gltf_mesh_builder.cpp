#include "gltf_mesh_builder.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <glm/gtc/type_precision.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "accessor_floats.hpp"
#include "gltf_primitive_attributes.hpp"
#include "gltf_skin_rows.hpp"
#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/skin_influences.hpp"

namespace marrow::gltf {

namespace {

using A = VertexAttribute;

// Triangle lists from strips and fans (glTF 2.0, section 3.7.2.1), as indices.
std::vector<std::uint32_t> triangulate(std::uint32_t mode, const std::vector<std::uint32_t>& strip) {
  std::vector<std::uint32_t> out;
  if (strip.size() < 3) return out;
  out.reserve((strip.size() - 2) * 3);
  for (std::size_t i = 0; i + 2 < strip.size(); ++i) {
    if (mode == 5) {
      const bool odd = (i % 2) != 0;
      out.insert(out.end(), {strip[i], strip[i + (odd ? 2 : 1)], strip[i + (odd ? 1 : 2)]});
    } else {
      out.insert(out.end(), {strip[i + 1], strip[i + 2], strip[0]});
    }
  }
  return out;
}

struct Deltas {
  std::vector<float> position, normal, tangent;  // 3 per vertex each, empty when absent
};

}  // namespace

std::size_t morph_target_count(const Document& document, std::uint32_t mesh) noexcept {
  const Mesh& m = document.meshes[mesh];
  return m.primitives.empty() ? 0 : m.primitives[0].targets.size();
}

ModelMeshPart build_part(const GltfAsset& asset, const PartRequest& request, ImportBudget& budget,
                         std::vector<Diagnostic>& diagnostics) {
  const Document& doc = asset.document;
  const Primitive& prim = doc.meshes[request.mesh].primitives[request.primitive];
  const PrimitiveWhere where{request.mesh, request.primitive};
  if (prim.mode > 6) fail_primitive(where, "mode " + std::to_string(prim.mode) + " is not a glTF primitive mode");

  const std::uint32_t position_accessor = prim.find("POSITION");
  if (position_accessor == kNone) fail_primitive(where, "has no POSITION");
  const std::uint64_t n = doc.accessors[position_accessor].count;
  const auto floats = [&](const char* semantic, std::initializer_list<AccessorType> types) {
    const std::uint32_t accessor = prim.find(semantic);
    return accessor == kNone ? AccessorFloats{}
                             : read_attribute_floats(asset, where, semantic, accessor, types, n, budget);
  };
  const AccessorFloats positions = read_attribute_floats(asset, where, "POSITION", position_accessor,
                                                          {AccessorType::Vec3}, n, budget);
  AccessorFloats normals = floats("NORMAL", {AccessorType::Vec3});
  AccessorFloats tangents = floats("TANGENT", {AccessorType::Vec4});
  const AccessorFloats uv0 = floats("TEXCOORD_0", {AccessorType::Vec2});
  const AccessorFloats uv1 = floats("TEXCOORD_1", {AccessorType::Vec2});
  AccessorFloats colors = floats("COLOR_0", {AccessorType::Vec4, AccessorType::Vec3});
  const bool color3 = !colors.empty() && doc.accessors[prim.find("COLOR_0")].type == AccessorType::Vec3;

  // Skinning (S1): the rows' shape now, their values once the vertices are laid out.
  SkinShape skin;
  if (request.skinning != nullptr) skin = skin_shape(prim, where, *request.skinning);
  const bool skinned = skin.slots > 0;

  // Indices, with strips and fans turned into lists.
  std::vector<std::uint32_t> indices;
  if (prim.indices != kNone) {
    const Accessor& ia = doc.accessors[prim.indices];
    if (ia.type != AccessorType::Scalar) {
      fail_primitive(where, "indices accessor " + std::to_string(prim.indices) + " is not SCALAR");
    }
    read_accessor_uints(asset, prim.indices, budget, indices);
    // The largest index first (a loop the compiler vectorises); the offending one only on failure.
    std::uint32_t largest = 0;
    for (const std::uint32_t index : indices) largest = std::max(largest, index);
    for (std::size_t i = 0; largest >= n && i < indices.size(); ++i) {
      if (indices[i] >= n) {
        fail_primitive(where, "index " + std::to_string(i) + " = " + std::to_string(indices[i]) +
                                  " is not below the vertex count " + std::to_string(n));
      }
    }
  }
  // A TRIANGLES list without indices draws the vertices in order.
  const bool unindexed_list = prim.mode == 4 && prim.indices == kNone;
  // glTF requires a TRIANGLES list to be a multiple of 3; like other viewers, draw the whole
  // triangles and drop the rest. (Strips and fans, converted below, always give whole triangles.)
  if (const std::size_t listed = unindexed_list ? n : indices.size(); prim.mode == 4 && listed % 3 != 0) {
    add_diagnostic(diagnostics, DiagnosticCode::IncompleteTriangleDropped,
                   where() + ": TRIANGLES with " + std::to_string(listed) + " " + (unindexed_list ? "vertices" : "indices") +
                       ", not a multiple of 3; the last " + std::to_string(listed % 3) + " ignored");
    if (!unindexed_list) indices.resize(listed - listed % 3);
  }
  std::uint32_t mode = prim.mode;
  if (mode == 5 || mode == 6) {
    if (prim.indices == kNone) {
      indices.resize(n);
      for (std::uint32_t i = 0; i < n; ++i) indices[i] = i;
    }
    indices = triangulate(mode, indices);
    mode = 4;
  }
  const bool triangles = mode == 4;

  // Morph target deltas.
  std::vector<Deltas> deltas(prim.targets.size());
  for (std::size_t t = 0; t < prim.targets.size(); ++t) {
    for (const Attribute& attr : prim.targets[t]) {
      std::vector<float>* slot = attr.semantic == "POSITION" ? &deltas[t].position
                                 : attr.semantic == "NORMAL" ? &deltas[t].normal
                                 : attr.semantic == "TANGENT" ? &deltas[t].tangent
                                                              : nullptr;
      if (slot == nullptr) continue;  // other target attributes are not morphed
      *slot = read_attribute_floats(asset, where, ("target " + std::to_string(t) + " " + attr.semantic).c_str(),
                                    attr.accessor, {AccessorType::Vec3}, n, budget)
                  .take();
    }
  }

  // A triangle primitive without normals gets flat normals: split so that each face owns its
  // vertices (glTF: tangents are then ignored, and so are normal/tangent deltas).
  const bool flat = triangles && normals.empty();
  if (normals.empty() && !tangents.empty()) {
    tangents.clear();
    add_diagnostic(diagnostics, DiagnosticCode::TangentsWithoutNormalsIgnored, where() + ": TANGENT ignored without NORMAL");
  }
  std::vector<std::uint32_t> source;  // model vertex -> file vertex
  std::size_t corners = 0;             // split vertices that belong to triangles
  if (flat) {
    if (unindexed_list) {
      source.resize(n - n % 3);
      for (std::uint32_t i = 0; i < source.size(); ++i) source[i] = i;
    } else {
      source = indices;
    }
    corners = source.size();
    // Vertices no triangle uses are kept after the triangles, so every file vertex is still
    // represented (tools report vertices in the file's order and count).
    std::vector<bool> used(n, false);
    for (std::uint32_t v : source) used[v] = true;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (!used[v]) source.push_back(v);
    }
    indices.clear();
    for (Deltas& d : deltas) {
      if (!d.normal.empty() || !d.tangent.empty()) {
        add_diagnostic(diagnostics, DiagnosticCode::MorphNormalsWithoutNormalsIgnored,
                       where() + ": morph NORMAL/TANGENT deltas ignored without NORMAL");
      }
      d.normal.clear();
      d.tangent.clear();
    }
  }
  const std::size_t count = flat ? source.size() : static_cast<std::size_t>(n);
  const auto src = [&](std::size_t v) -> std::size_t { return flat ? source[v] : v; };

  ModelMeshPart part;
  std::initializer_list<A> order = {A::Position, A::Normal, A::Tangent, A::TexCoord0,
                                    A::TexCoord1, A::Color0, A::Joints0, A::Weights0};
  const bool present[] = {true,           flat || !normals.empty(), !tangents.empty(), !uv0.empty(),
                          !uv1.empty(),   !colors.empty(),          skinned,           skinned};
  if (skinned) part.layout.influences = skin.influences;
  std::uint32_t offset = 0;
  std::size_t i = 0;
  for (A a : order) {
    if (present[i++]) {
      part.layout.set(a, static_cast<std::int32_t>(offset));
      offset += part.layout.size(a);
    }
  }
  part.layout.stride = offset;
  // The interleaved vertices, and as much again when morph targets keep a base copy.
  budget.charge(std::uint64_t(count) * part.layout.stride * (deltas.empty() ? 1 : 2), where());
  const std::size_t stride = part.layout.stride;
  std::optional<SkinRowReader> skin_rows;
  std::vector<std::byte> file_rows;  // split vertices: the skin rows per file vertex, gathered below
  const std::size_t joint_bytes = skin.slots * sizeof(std::uint16_t), skin_row = joint_bytes + skin.slots * sizeof(float);
  if (skinned) {
    skin_rows.emplace(asset, prim, where, n, *request.skinning, skin, budget);
    if (flat) {
      budget.charge(n * skin_row, where() + " skin influences");
      file_rows.resize(static_cast<std::size_t>(n) * skin_row);
      skin_rows->read(0, static_cast<std::size_t>(n), {file_rows.data(), file_rows.data() + joint_bytes, skin_row});
    }
  }
  // Written a chunk of vertices at a time, every attribute while the chunk's rows are in cache:
  // the buffer grows by a chunk (zero-filled there, not in a pass of its own) and each row is
  // written once. Each attribute's copy has a compile-time width: a couple of moves a vertex.
  part.vertex_bytes.reserve(count * stride);
  constexpr std::size_t kChunk = 512;
  for (std::size_t begin = 0; begin < count; begin += kChunk) {
    const std::size_t end = std::min(count, begin + kChunk);
    part.vertex_bytes.resize(end * stride);
    std::byte* const bytes = part.vertex_bytes.data();
    const auto fill = [&]<std::size_t width>(A a, const auto& values) {
      if (values.empty()) return;
      std::byte* slot = bytes + part.layout.offset(a);
      for (std::size_t v = begin; v < end; ++v) std::memcpy(slot + v * stride, &values[src(v) * width], width * sizeof(float));
    };
    fill.operator()<3>(A::Position, positions);
    fill.operator()<3>(A::Normal, normals);
    fill.operator()<4>(A::Tangent, tangents);
    fill.operator()<2>(A::TexCoord0, uv0);
    fill.operator()<2>(A::TexCoord1, uv1);
    if (!colors.empty() && color3) {
      for (std::size_t v = begin; v < end; ++v) {
        const std::size_t s = src(v) * 3;
        write_attribute(part.vertex_bytes, part.layout, v, A::Color0, glm::vec4(colors[s], colors[s + 1], colors[s + 2], 1.f));
      }
    } else {
      fill.operator()<4>(A::Color0, colors);
    }
    if (!skinned) continue;
    std::byte* joint_slot = bytes + part.layout.offset(A::Joints0);
    std::byte* weight_slot = bytes + part.layout.offset(A::Weights0);
    if (!flat) {
      skin_rows->read(begin, end, {joint_slot, weight_slot, stride});  // file vertex v is vertex v
      continue;
    }
    for (std::size_t v = begin; v < end; ++v) {
      const std::byte* from = file_rows.data() + source[v] * skin_row;
      std::memcpy(joint_slot + v * stride, from, joint_bytes);
      std::memcpy(weight_slot + v * stride, from + joint_bytes, skin_row - joint_bytes);
    }
  }
  if (skinned) skin_rows->report(diagnostics);
  const std::span<std::byte> bytes(part.vertex_bytes);
  std::vector<std::uint32_t> flat_triangles;
  if (flat) {
    flat_triangles.resize(corners);
    for (std::uint32_t v = 0; v < corners; ++v) flat_triangles[v] = v;
    recompute_flat_normals(bytes, part.layout, flat_triangles);
  }

  if (!deltas.empty()) {
    MorphTargetData morph;
    morph.base_vertex_bytes = part.vertex_bytes;
    morph.layout = part.layout;
    const auto gather = [&](const std::vector<float>& d) {
      std::vector<glm::vec3> out;
      if (d.empty()) return out;
      out.resize(count);
      for (std::size_t v = 0; v < count; ++v) {
        const std::size_t s = src(v);
        out[v] = glm::vec3(d[s * 3], d[s * 3 + 1], d[s * 3 + 2]);
      }
      return out;
    };
    const bool has_normal_slot = part.layout.has(A::Normal) && !flat;
    const bool has_tangent_slot = part.layout.has(A::Tangent);
    for (const Deltas& d : deltas) {
      morph.position_deltas.push_back(gather(d.position));
      morph.normal_deltas.push_back(has_normal_slot ? gather(d.normal) : std::vector<glm::vec3>{});
      morph.tangent_deltas.push_back(has_tangent_slot ? gather(d.tangent) : std::vector<glm::vec3>{});
    }
    morph.weights.assign(deltas.size(), 0.f);
    morph.recompute_flat_normals = flat;
    morph.triangle_indices = flat_triangles;
    if (request.weights != nullptr && request.weights->size() == deltas.size()) {
      morph.weights = *request.weights;
      bool any = false;
      for (float w : morph.weights) any = any || w != 0.f;
      if (any) blend_morph_targets(morph, morph.weights, part.vertex_bytes);  // G17: applied at load
    }
    part.morph = std::move(morph);
  }

  // A split primitive draws its triangle corners (trailing unused vertices are not drawn).
  part.indices = flat ? std::move(flat_triangles) : std::move(indices);
  part.mode = static_cast<PrimitiveMode>(mode);
  part.source_primitive = static_cast<int>(request.primitive);
  part.source_vertex_count = static_cast<std::uint32_t>(n);
  part.source_vertices = std::move(source);
  part.flat_normals = flat;
  return part;
}

}  // namespace marrow::gltf
