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
#include "marrow/runtime/offline/skin_influences.hpp"

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

// The primitive's float attributes, each read once (in place when the buffer holds floats).
struct Attributes {
  std::uint64_t count = 0;  // the file's vertices (POSITION's count)
  AccessorFloats positions, normals, tangents, uv0, uv1, colors;
  bool color3 = false;  // COLOR_0 is VEC3 (alpha 1 on the way in)
};

Attributes read_attributes(const GltfAsset& asset, const Primitive& prim, const PrimitiveWhere& where, ImportBudget& budget) {
  const Document& doc = asset.document;
  const std::uint32_t position_accessor = prim.find("POSITION");
  if (position_accessor == kNone) fail_primitive(where, "has no POSITION");
  Attributes a;
  a.count = doc.accessors[position_accessor].count;
  const auto floats = [&](const char* semantic, std::initializer_list<AccessorType> types) {
    const std::uint32_t accessor = prim.find(semantic);
    return accessor == kNone ? AccessorFloats{}
                             : read_attribute_floats(asset, where, semantic, accessor, types, a.count, budget);
  };
  a.positions = read_attribute_floats(asset, where, "POSITION", position_accessor, {AccessorType::Vec3}, a.count, budget);
  a.normals = floats("NORMAL", {AccessorType::Vec3});
  a.tangents = floats("TANGENT", {AccessorType::Vec4});
  a.uv0 = floats("TEXCOORD_0", {AccessorType::Vec2});
  a.uv1 = floats("TEXCOORD_1", {AccessorType::Vec2});
  a.colors = floats("COLOR_0", {AccessorType::Vec4, AccessorType::Vec3});
  a.color3 = !a.colors.empty() && doc.accessors[prim.find("COLOR_0")].type == AccessorType::Vec3;
  return a;
}

// The primitive's indices, each checked to be below the vertex count n; empty without indices.
std::vector<std::uint32_t> read_indices(const GltfAsset& asset, const Primitive& prim, const PrimitiveWhere& where,
                                        std::uint64_t n, ImportBudget& budget) {
  std::vector<std::uint32_t> indices;
  if (prim.indices == kNone) return indices;
  const Accessor& ia = asset.document.accessors[prim.indices];
  if (ia.type != AccessorType::Scalar) fail_primitive(where, "indices accessor " + std::to_string(prim.indices) + " is not SCALAR");
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
  return indices;
}

// Whole triangles only: glTF requires a TRIANGLES list to be a multiple of 3; like other viewers,
// draw the whole triangles and drop the rest. Strips and fans become lists (always whole
// triangles). Returns the mode the indices are now in.
std::uint32_t whole_triangles(const Primitive& prim, const PrimitiveWhere& where, std::uint64_t n,
                              std::vector<std::uint32_t>& indices, std::vector<Diagnostic>& diagnostics) {
  const bool unindexed_list = prim.mode == 4 && prim.indices == kNone;  // draws the vertices in order
  if (const std::size_t listed = unindexed_list ? n : indices.size(); prim.mode == 4 && listed % 3 != 0) {
    add_diagnostic(diagnostics, DiagnosticCode::IncompleteTriangleDropped,
                   where() + ": TRIANGLES with " + std::to_string(listed) + " " + (unindexed_list ? "vertices" : "indices") +
                       ", not a multiple of 3; the last " + std::to_string(listed % 3) + " ignored");
    if (!unindexed_list) indices.resize(listed - listed % 3);
  }
  if (prim.mode != 5 && prim.mode != 6) return prim.mode;
  if (prim.indices == kNone) {
    indices.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) indices[i] = i;
  }
  indices = triangulate(prim.mode, indices);
  return 4;
}

// Each morph target's POSITION, NORMAL and TANGENT deltas (other target attributes are not morphed).
std::vector<Deltas> read_deltas(const GltfAsset& asset, const Primitive& prim, const PrimitiveWhere& where,
                                std::uint64_t n, ImportBudget& budget) {
  std::vector<Deltas> deltas(prim.targets.size());
  for (std::size_t t = 0; t < prim.targets.size(); ++t) {
    for (const Attribute& attr : prim.targets[t]) {
      std::vector<float>* slot = attr.semantic == "POSITION" ? &deltas[t].position
                                 : attr.semantic == "NORMAL" ? &deltas[t].normal
                                 : attr.semantic == "TANGENT" ? &deltas[t].tangent
                                                              : nullptr;
      if (slot == nullptr) continue;
      *slot = read_attribute_floats(asset, where, ("target " + std::to_string(t) + " " + attr.semantic).c_str(),
                                    attr.accessor, {AccessorType::Vec3}, n, budget)
                  .take();
    }
  }
  return deltas;
}

// A flat-normal split: each triangle corner becomes its own vertex.
struct FlatSplit {
  std::vector<std::uint32_t> source;  // model vertex -> file vertex
  std::size_t corners = 0;            // the first `corners` vertices are the triangles' corners
};

// Splits a triangle primitive without normals so that each face owns its vertices (glTF: normal
// and tangent deltas are then ignored). The indices go: the corners are drawn in order.
FlatSplit split_flat(const Primitive& prim, const PrimitiveWhere& where, std::uint64_t n, std::vector<std::uint32_t>& indices,
                     std::vector<Deltas>& deltas, std::vector<Diagnostic>& diagnostics) {
  FlatSplit split;
  if (prim.mode == 4 && prim.indices == kNone) {
    split.source.resize(n - n % 3);
    for (std::uint32_t i = 0; i < split.source.size(); ++i) split.source[i] = i;
  } else {
    split.source = indices;
  }
  split.corners = split.source.size();
  // Vertices no triangle uses are kept after the triangles, so every file vertex is still
  // represented (tools report vertices in the file's order and count).
  std::vector<bool> used(n, false);
  for (std::uint32_t v : split.source) used[v] = true;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!used[v]) split.source.push_back(v);
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
  return split;
}

// Which file vertex each model vertex copies: itself, or in a flat split its source entry.
struct VertexSource {
  const std::vector<std::uint32_t>* split = nullptr;  // null: not split
  std::size_t operator()(std::size_t v) const noexcept { return split != nullptr ? (*split)[v] : v; }
};

// marrow's attribute order; an attribute is present when the file has it (a flat split always
// has normals, computed; a skinned part JOINTS and WEIGHTS of skin.influences).
VertexLayout layout_of(const Attributes& a, bool flat, const SkinShape& skin) {
  VertexLayout layout;
  std::initializer_list<A> order = {A::Position, A::Normal, A::Tangent, A::TexCoord0,
                                    A::TexCoord1, A::Color0, A::Joints0, A::Weights0};
  const bool skinned = skin.slots > 0;
  const bool present[] = {true,            flat || !a.normals.empty(), !a.tangents.empty(), !a.uv0.empty(),
                          !a.uv1.empty(),  !a.colors.empty(),          skinned,             skinned};
  if (skinned) layout.influences = skin.influences;
  std::uint32_t offset = 0;
  std::size_t i = 0;
  for (A attribute : order) {
    if (present[i++]) {
      layout.set(attribute, static_cast<std::int32_t>(offset));
      offset += layout.size(attribute);
    }
  }
  layout.stride = offset;
  return layout;
}

// Writes part.vertex_bytes (count vertices of part.layout) from the attributes and, when
// skin_rows is set, the skin rows. Written a chunk of vertices at a time, every attribute while
// the chunk's rows are in cache: the buffer grows by a chunk (zero-filled there, not in a pass
// of its own) and each row is written once. Each attribute's copy has a compile-time width: a
// couple of moves a vertex.
void interleave(ModelMeshPart& part, const Attributes& a, std::size_t count, VertexSource src, SkinRowReader* skin_rows,
                const SkinShape& skin, const PrimitiveWhere& where, ImportBudget& budget) {
  const std::size_t stride = part.layout.stride;
  const std::uint64_t n = a.count;
  std::vector<std::byte> file_rows;  // split vertices: the skin rows per file vertex, gathered here
  const std::size_t joint_bytes = skin.slots * sizeof(std::uint16_t), skin_row = joint_bytes + skin.slots * sizeof(float);
  if (skin_rows != nullptr && src.split != nullptr) {
    budget.charge(n * skin_row, where() + " skin influences");
    file_rows.resize(static_cast<std::size_t>(n) * skin_row);
    skin_rows->read(0, static_cast<std::size_t>(n), {file_rows.data(), file_rows.data() + joint_bytes, skin_row});
  }
  part.vertex_bytes.reserve(count * stride);
  constexpr std::size_t kChunk = 512;
  for (std::size_t begin = 0; begin < count; begin += kChunk) {
    const std::size_t end = std::min(count, begin + kChunk);
    part.vertex_bytes.resize(end * stride);
    std::byte* const bytes = part.vertex_bytes.data();
    const auto fill = [&]<std::size_t width>(A attribute, const auto& values) {
      if (values.empty()) return;
      std::byte* slot = bytes + part.layout.offset(attribute);
      for (std::size_t v = begin; v < end; ++v) std::memcpy(slot + v * stride, &values[src(v) * width], width * sizeof(float));
    };
    fill.operator()<3>(A::Position, a.positions);
    fill.operator()<3>(A::Normal, a.normals);
    fill.operator()<4>(A::Tangent, a.tangents);
    fill.operator()<2>(A::TexCoord0, a.uv0);
    fill.operator()<2>(A::TexCoord1, a.uv1);
    if (!a.colors.empty() && a.color3) {
      for (std::size_t v = begin; v < end; ++v) {
        const std::size_t s = src(v) * 3;
        write_attribute(part.vertex_bytes, part.layout, v, A::Color0, glm::vec4(a.colors[s], a.colors[s + 1], a.colors[s + 2], 1.f));
      }
    } else {
      fill.operator()<4>(A::Color0, a.colors);
    }
    if (skin_rows == nullptr) continue;
    std::byte* joint_slot = bytes + part.layout.offset(A::Joints0);
    std::byte* weight_slot = bytes + part.layout.offset(A::Weights0);
    if (src.split == nullptr) {
      skin_rows->read(begin, end, {joint_slot, weight_slot, stride});  // file vertex v is vertex v
      continue;
    }
    for (std::size_t v = begin; v < end; ++v) {
      const std::byte* from = file_rows.data() + src(v) * skin_row;
      std::memcpy(joint_slot + v * stride, from, joint_bytes);
      std::memcpy(weight_slot + v * stride, from + joint_bytes, skin_row - joint_bytes);
    }
  }
}

// The morph targets over the part's vertices as laid out (a base copy, the deltas per model
// vertex); non-zero initial weights are applied to part.vertex_bytes (G17: posed at load).
MorphTargetData make_morph(ModelMeshPart& part, const std::vector<Deltas>& deltas, std::size_t count, VertexSource src,
                           bool flat, const std::vector<std::uint32_t>& flat_triangles, const std::vector<float>* weights) {
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
  if (weights != nullptr && weights->size() == deltas.size()) {
    morph.weights = *weights;
    bool any = false;
    for (float w : morph.weights) any = any || w != 0.f;
    if (any) blend_morph_targets(morph, morph.weights, part.vertex_bytes);
  }
  return morph;
}

}  // namespace

std::size_t morph_target_count(const Document& document, std::uint32_t mesh) noexcept {
  const Mesh& m = document.meshes[mesh];
  return m.primitives.empty() ? 0 : m.primitives[0].targets.size();
}

ModelMeshPart build_part(const GltfAsset& asset, const PartRequest& request, ImportBudget& budget,
                         std::vector<Diagnostic>& diagnostics) {
  const Primitive& prim = asset.document.meshes[request.mesh].primitives[request.primitive];
  const PrimitiveWhere where{request.mesh, request.primitive};
  if (prim.mode > 6) fail_primitive(where, "mode " + std::to_string(prim.mode) + " is not a glTF primitive mode");
  Attributes attributes = read_attributes(asset, prim, where, budget);
  const std::uint64_t n = attributes.count;
  // Skinning (S1): the rows' shape now, their values once the vertices are laid out.
  SkinShape skin;
  if (request.skinning != nullptr) skin = skin_shape(prim, where, *request.skinning);
  const bool skinned = skin.slots > 0;
  std::vector<std::uint32_t> indices = read_indices(asset, prim, where, n, budget);
  const std::uint32_t mode = whole_triangles(prim, where, n, indices, diagnostics);
  std::vector<Deltas> deltas = read_deltas(asset, prim, where, n, budget);

  // A triangle primitive without normals gets flat normals (glTF: tangents are then ignored).
  const bool flat = mode == 4 && attributes.normals.empty();
  if (attributes.normals.empty() && !attributes.tangents.empty()) {
    attributes.tangents.clear();
    add_diagnostic(diagnostics, DiagnosticCode::TangentsWithoutNormalsIgnored, where() + ": TANGENT ignored without NORMAL");
  }
  FlatSplit split;
  if (flat) split = split_flat(prim, where, n, indices, deltas, diagnostics);
  const std::size_t count = flat ? split.source.size() : static_cast<std::size_t>(n);
  const VertexSource src{flat ? &split.source : nullptr};

  ModelMeshPart part;
  part.layout = layout_of(attributes, flat, skin);
  // The interleaved vertices, and as much again when morph targets keep a base copy.
  budget.charge(std::uint64_t(count) * part.layout.stride * (deltas.empty() ? 1 : 2), where());
  std::optional<SkinRowReader> skin_rows;
  if (skinned) skin_rows.emplace(asset, prim, where, n, *request.skinning, skin, budget);
  interleave(part, attributes, count, src, skinned ? &*skin_rows : nullptr, skin, where, budget);
  if (skinned) skin_rows->report(diagnostics);
  std::vector<std::uint32_t> flat_triangles;
  if (flat) {
    flat_triangles.resize(split.corners);
    for (std::uint32_t v = 0; v < split.corners; ++v) flat_triangles[v] = v;
    recompute_flat_normals(std::span<std::byte>(part.vertex_bytes), part.layout, flat_triangles);
  }
  if (!deltas.empty()) part.morph = make_morph(part, deltas, count, src, flat, flat_triangles, request.weights);

  // A split primitive draws its triangle corners (trailing unused vertices are not drawn).
  part.indices = flat ? std::move(flat_triangles) : std::move(indices);
  part.mode = static_cast<PrimitiveMode>(mode);
  part.source_primitive = static_cast<int>(request.primitive);
  part.source_vertex_count = static_cast<std::uint32_t>(n);
  part.source_vertices = std::move(split.source);
  part.flat_normals = flat;
  return part;
}

}  // namespace marrow::gltf
