#include "gltf_mesh_builder.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <span>
#include <string>

#include <glm/gtc/type_precision.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "attribute_floats.hpp"
#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/accessor_reader.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"

namespace marrow::gltf {

namespace {

using A = VertexAttribute;

struct Where {
  std::uint32_t mesh, primitive;
  std::string operator()() const {
    return "mesh " + std::to_string(mesh) + " primitive " + std::to_string(primitive);
  }
};

[[noreturn]] void fail(const Where& where, const std::string& message) {
  throw ImportError(ImportErrorCode::InvalidMesh, where() + ": " + message);
}

// Reads a float attribute (normalized integers decoded), checking its type and count; in place
// when the buffer already holds its floats.
AttributeFloats read_attribute_floats(const GltfAsset& asset, const Where& where, const char* semantic,
                                      std::uint32_t accessor, std::initializer_list<AccessorType> types,
                                      std::uint64_t count, ImportBudget& budget) {
  const Accessor& a = asset.document.accessors[accessor];
  bool type_ok = false;
  for (AccessorType t : types) type_ok = type_ok || a.type == t;
  if (!type_ok) {
    fail(where, std::string(semantic) + " accessor " + std::to_string(accessor) + " is " + accessor_type_name(a.type) +
                    ", expected " + accessor_type_name(*types.begin()));
  }
  if (a.count != count) {
    fail(where, std::string(semantic) + " has " + std::to_string(a.count) + " elements, POSITION has " +
                    std::to_string(count));
  }
  AttributeFloats out;
  if (const std::optional<std::span<const float>> in_place = accessor_floats_in_place(asset, accessor)) {
    out = AttributeFloats(*in_place);
  } else {
    std::vector<float> copy;
    read_accessor_floats(asset, accessor, budget, copy);
    out = AttributeFloats(std::move(copy));
  }
  // glTF forbids NaN and infinities in accessor data; one would poison every pose and bound.
  if (!all_finite(out.values())) {
    const auto bad = std::find_if(out.values().begin(), out.values().end(), [](float v) { return !std::isfinite(v); }) -
                     out.values().begin();
    fail(where, std::string(semantic) + " accessor " + std::to_string(accessor) + ": vertex " +
                    std::to_string(static_cast<std::size_t>(bad) / component_count(a.type)) + " has a value that is not finite");
  }
  return out;
}

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

// JOINTS_0 read in place when the buffer holds them as unsigned bytes or shorts (the usual case),
// else a decoded copy; [] reads either.
struct Joints {
  std::span<const std::uint8_t> u8;
  std::span<const std::uint16_t> u16;
  std::vector<std::uint32_t> copy;
  bool empty() const noexcept { return u8.empty() && u16.empty() && copy.empty(); }
  std::uint32_t operator[](std::size_t i) const noexcept { return !u16.empty() ? u16[i] : !u8.empty() ? u8[i] : copy[i]; }
};

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
  const Where where{request.mesh, request.primitive};
  if (prim.mode > 6) fail(where, "mode " + std::to_string(prim.mode) + " is not a glTF primitive mode");

  const std::uint32_t position_accessor = prim.find("POSITION");
  if (position_accessor == kNone) fail(where, "has no POSITION");
  const std::uint64_t n = doc.accessors[position_accessor].count;
  const auto floats = [&](const char* semantic, std::initializer_list<AccessorType> types) {
    const std::uint32_t accessor = prim.find(semantic);
    return accessor == kNone ? AttributeFloats{}
                             : read_attribute_floats(asset, where, semantic, accessor, types, n, budget);
  };
  const AttributeFloats positions = read_attribute_floats(asset, where, "POSITION", position_accessor,
                                                          {AccessorType::Vec3}, n, budget);
  AttributeFloats normals = floats("NORMAL", {AccessorType::Vec3});
  AttributeFloats tangents = floats("TANGENT", {AccessorType::Vec4});
  const AttributeFloats uv0 = floats("TEXCOORD_0", {AccessorType::Vec2});
  const AttributeFloats uv1 = floats("TEXCOORD_1", {AccessorType::Vec2});
  AttributeFloats colors = floats("COLOR_0", {AccessorType::Vec4, AccessorType::Vec3});
  const bool color3 = !colors.empty() && doc.accessors[prim.find("COLOR_0")].type == AccessorType::Vec3;

  // Skinning: joints through the palette map, weights renormalised (as three.js does) as they
  // are written into the vertices (both read in place when the buffer allows).
  Joints joints;
  AttributeFloats weights;
  if (request.skinning != nullptr) {
    const std::uint32_t ja = prim.find("JOINTS_0"), wa = prim.find("WEIGHTS_0");
    if (ja == kNone || wa == kNone) fail(where, "is skinned but lacks JOINTS_0 or WEIGHTS_0");
    const Accessor& jacc = doc.accessors[ja];
    if (jacc.type != AccessorType::Vec4 || jacc.count != n) {
      fail(where, "JOINTS_0 accessor " + std::to_string(ja) + " must be VEC4 with " + std::to_string(n) + " elements");
    }
    if (const auto in_place = accessor_uint16s_in_place(asset, ja)) {
      joints.u16 = *in_place;
    } else if (const auto bytes_in_place = accessor_uint8s_in_place(asset, ja)) {
      joints.u8 = *bytes_in_place;
    } else {
      read_accessor_uints(asset, ja, budget, joints.copy);
    }
    weights = read_attribute_floats(asset, where, "WEIGHTS_0", wa, {AccessorType::Vec4}, n, budget);
    const std::vector<int>& map = *request.skinning->source_to_palette;
    std::size_t renormalised = 0;
    for (std::size_t v = 0; v < n; ++v) {
      for (std::size_t c = 0; c < 4; ++c) {
        const std::uint32_t j = joints[v * 4 + c];
        if (j >= map.size()) {
          fail(where, "vertex " + std::to_string(v) + " JOINTS_0 value " + std::to_string(j) + " is beyond skin " +
                          std::to_string(request.skinning->skin) + "'s " + std::to_string(map.size()) + " joints");
        }
      }
      const float* w = &weights[v * 4];
      if (std::fabs(w[0] + w[1] + w[2] + w[3] - 1.f) > 2e-3f) ++renormalised;
    }
    if (renormalised > 0) {
      add_diagnostic(diagnostics, "skin-weights-renormalized",
                     where() + ": " + std::to_string(renormalised) + " vertices' weights did not sum to 1",
                     static_cast<int>(renormalised));
    }
  }

  // Indices, with strips and fans turned into lists.
  std::vector<std::uint32_t> indices;
  if (prim.indices != kNone) {
    const Accessor& ia = doc.accessors[prim.indices];
    if (ia.type != AccessorType::Scalar) fail(where, "indices accessor " + std::to_string(prim.indices) + " is not SCALAR");
    read_accessor_uints(asset, prim.indices, budget, indices);
    // The largest index first (a loop the compiler vectorises); the offending one only on failure.
    std::uint32_t largest = 0;
    for (const std::uint32_t index : indices) largest = std::max(largest, index);
    for (std::size_t i = 0; largest >= n && i < indices.size(); ++i) {
      if (indices[i] >= n) {
        fail(where, "index " + std::to_string(i) + " = " + std::to_string(indices[i]) + " is not below the vertex count " +
                        std::to_string(n));
      }
    }
  }
  // A TRIANGLES list without indices draws the vertices in order.
  const bool unindexed_list = prim.mode == 4 && prim.indices == kNone;
  // glTF requires a TRIANGLES list to be a multiple of 3; like other viewers, draw the whole
  // triangles and drop the rest. (Strips and fans, converted below, always give whole triangles.)
  if (const std::size_t listed = unindexed_list ? n : indices.size(); prim.mode == 4 && listed % 3 != 0) {
    add_diagnostic(diagnostics, "incomplete-triangle-dropped",
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
    add_diagnostic(diagnostics, "tangents-without-normals-ignored", where() + ": TANGENT ignored without NORMAL");
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
        add_diagnostic(diagnostics, "morph-normals-without-normals-ignored",
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
                          !uv1.empty(),   !colors.empty(),          !joints.empty(),   !weights.empty()};
  std::uint32_t offset = 0;
  std::size_t i = 0;
  for (A a : order) {
    if (present[i++]) {
      part.layout.set(a, static_cast<std::int32_t>(offset));
      offset += attribute_size(a);
    }
  }
  part.layout.stride = offset;
  // The interleaved vertices, and as much again when morph targets keep a base copy.
  budget.charge(std::uint64_t(count) * part.layout.stride * (deltas.empty() ? 1 : 2), where());
  part.vertex_bytes.resize(count * part.layout.stride);
  std::span<std::byte> bytes(part.vertex_bytes);
  // One pass per attribute: `width` floats per source vertex into its slot (a compile-time width,
  // so each copy is a couple of moves).
  const auto fill = [&]<std::size_t width>(A a, const auto& values) {
    if (values.empty()) return;
    std::byte* slot = bytes.data() + part.layout.offset(a);
    const std::size_t stride = part.layout.stride;
    if (flat) {
      for (std::size_t v = 0; v < count; ++v) std::memcpy(slot + v * stride, &values[source[v] * width], width * sizeof(float));
    } else {
      for (std::size_t v = 0; v < count; ++v) std::memcpy(slot + v * stride, &values[v * width], width * sizeof(float));
    }
  };
  fill.operator()<3>(A::Position, positions);
  fill.operator()<3>(A::Normal, normals);
  fill.operator()<4>(A::Tangent, tangents);
  fill.operator()<2>(A::TexCoord0, uv0);
  fill.operator()<2>(A::TexCoord1, uv1);
  if (!weights.empty()) {
    std::byte* slot = bytes.data() + part.layout.offset(A::Weights0);
    for (std::size_t v = 0; v < count; ++v) {
      const float* w = &weights[src(v) * 4];
      const float sum = w[0] + w[1] + w[2] + w[3];
      const float normalised[4] = {sum > 0.f ? w[0] / sum : 1.f, sum > 0.f ? w[1] / sum : 0.f,
                                   sum > 0.f ? w[2] / sum : 0.f, sum > 0.f ? w[3] / sum : 0.f};
      std::memcpy(slot + v * part.layout.stride, normalised, sizeof normalised);
    }
  }
  if (!colors.empty() && color3) {
    for (std::size_t v = 0; v < count; ++v) {
      const std::size_t s = src(v) * 3;
      write_attribute(bytes, part.layout, v, A::Color0, glm::vec4(colors[s], colors[s + 1], colors[s + 2], 1.f));
    }
  } else {
    fill.operator()<4>(A::Color0, colors);
  }
  if (!joints.empty()) {
    const std::vector<int>& map = *request.skinning->source_to_palette;  // every value checked above
    for (std::size_t v = 0; v < count; ++v) {
      const std::size_t s = src(v) * 4;
      write_attribute(bytes, part.layout, v, A::Joints0,
                      glm::u16vec4(map[joints[s]], map[joints[s + 1]], map[joints[s + 2]], map[joints[s + 3]]));
    }
  }
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
  return part;
}

}  // namespace marrow::gltf
