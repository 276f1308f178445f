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
#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/skin_influences.hpp"

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
AccessorFloats read_attribute_floats(const GltfAsset& asset, const Where& where, const char* semantic,
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
  AccessorFloats out = read_accessor_floats(asset, accessor, budget);
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

struct Deltas {
  std::vector<float> position, normal, tangent;  // 3 per vertex each, empty when absent
};

// "JOINTS_12" -> 12 for the prefix "JOINTS_"; -1 for other names (or no digits, or a leading 0
// other than "0" itself, which glTF's set numbering does not use).
long set_number(std::string_view semantic, std::string_view prefix) {
  if (semantic.substr(0, prefix.size()) != prefix) return -1;
  const std::string_view digits = semantic.substr(prefix.size());
  if (digits.empty() || digits.size() > 6 || (digits.size() > 1 && digits[0] == '0')) return -1;
  long value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

// How many sets of a semantic the primitive has, numbered 0..count-1 (refused otherwise).
std::uint32_t set_count(const Primitive& prim, const Where& where, std::string_view prefix) {
  std::vector<long> numbers;
  for (const Attribute& a : prim.attributes) {
    if (const long k = set_number(a.semantic, prefix); k >= 0) numbers.push_back(k);
  }
  std::sort(numbers.begin(), numbers.end());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i] != static_cast<long>(i)) {
      fail(where, std::string(prefix) + std::to_string(numbers[i]) + " without " + std::string(prefix) +
                      std::to_string(i) + " (sets are numbered 0, 1, 2, ... without gaps)");
    }
  }
  return static_cast<std::uint32_t>(numbers.size());
}

std::string set_name(std::string_view prefix, std::uint32_t set) { return std::string(prefix) + std::to_string(set); }

// "WEIGHTS_0" for one set, "WEIGHTS_0..WEIGHTS_2" for three.
std::string set_range(std::string_view prefix, std::uint32_t sets) {
  return sets <= 1 ? set_name(prefix, 0) : set_name(prefix, 0) + ".." + set_name(prefix, sets - 1);
}

// The shape of a skinned primitive's influence rows: every JOINTS_n/WEIGHTS_n set (S1), then
// ImportOptions::max_influences.
struct SkinShape {
  std::uint32_t sets = 0;
  std::uint32_t influences = 0;  // per vertex, as the layout records it
  std::size_t slots = 0;         // per row written: the influences rounded up to a multiple of 4
};

SkinShape skin_shape(const Primitive& prim, const Where& where, const PartSkinning& skinning) {
  if (prim.find("JOINTS_0") == kNone || prim.find("WEIGHTS_0") == kNone) {
    fail(where, "is skinned but lacks JOINTS_0 or WEIGHTS_0");
  }
  const std::uint32_t sets = set_count(prim, where, "JOINTS_");
  const std::uint32_t weight_sets = set_count(prim, where, "WEIGHTS_");
  if (weight_sets != sets) {
    fail(where, std::to_string(sets) + " JOINTS sets (" + set_range("JOINTS_", sets) + ") but " + std::to_string(weight_sets) +
                    " WEIGHTS " + (weight_sets == 1 ? "set (" : "sets (") + set_range("WEIGHTS_", weight_sets) +
                    "): each joint index needs its weight");
  }
  if (std::uint64_t{sets} * 4 > kMaxInfluences) {
    throw ImportError(ImportErrorCode::LimitExceeded,
                      where() + ": " + std::to_string(sets) + " JOINTS sets: " + std::to_string(std::uint64_t{sets} * 4) +
                          " influences per vertex exceed marrow's " + std::to_string(kMaxInfluences));
  }
  SkinShape shape{sets, sets * 4, std::size_t{sets} * 4};
  if (const std::uint32_t keep = skinning.max_influences; keep > 0 && keep < shape.influences) {
    shape.influences = keep;
    shape.slots = (std::size_t{keep} + 3) / 4 * 4;
  }
  return shape;
}

// Where read_skin_rows writes file vertex v: its row of shape.slots joints (uint16) at
// joints + v * stride and as many weights (float) at weights + v * stride.
struct SkinRowsOut {
  std::byte* joints;
  std::byte* weights;
  std::size_t stride;
};

// The joint indices of one JOINTS_n set: read where they lie when the buffer holds them as
// unsigned bytes or shorts (the common case), else decoded once.
class SetJoints {
 public:
  SetJoints(const GltfAsset& asset, std::uint32_t accessor, ImportBudget& budget) {
    if (const auto u16 = accessor_uint16s_in_place(asset, accessor)) {
      u16_ = u16->data();
    } else if (const auto u8 = accessor_uint8s_in_place(asset, accessor)) {
      u8_ = u8->data();
    } else {
      read_accessor_uints(asset, accessor, budget, decoded_);
    }
  }
  // Vertex v's four joints.
  void load(std::size_t v, std::uint32_t (&out)[4]) const noexcept {
    for (std::size_t c = 0; c < 4; ++c) {
      out[c] = u16_ != nullptr ? u16_[v * 4 + c] : u8_ != nullptr ? u8_[v * 4 + c] : decoded_[v * 4 + c];
    }
  }

 private:
  const std::uint16_t* u16_ = nullptr;
  const std::uint8_t* u8_ = nullptr;
  std::vector<std::uint32_t> decoded_;
};

// Every vertex's influences: joints through the palette map, negative weights repaired to 0,
// weights renormalised over all sets (as three.js does; all-zero weights ride on the first
// joint alone), then the largest max_influences kept. Read a range of vertices at a time (the
// caller writes vertices in cache-sized chunks), then report() once.
class SkinRowReader {
 public:
  SkinRowReader(const GltfAsset& asset, const Primitive& prim, const Where& where, std::uint64_t n,
                const PartSkinning& skinning, const SkinShape& shape, ImportBudget& budget)
      : where_(where), skinning_(skinning), shape_(shape) {
    const Document& doc = asset.document;
    for (std::uint32_t set = 0; set < shape.sets; ++set) {
      const std::string joints_name = set_name("JOINTS_", set), weights_name = set_name("WEIGHTS_", set);
      const std::uint32_t ja = prim.find(joints_name), wa = prim.find(weights_name);
      const Accessor& jacc = doc.accessors[ja];
      if (jacc.type != AccessorType::Vec4 || jacc.count != n) {
        fail(where, joints_name + " accessor " + std::to_string(ja) + " must be VEC4 with " + std::to_string(n) + " elements");
      }
      set_joints_.emplace_back(asset, ja, budget);
      set_weights_.push_back(read_attribute_floats(asset, where, weights_name.c_str(), wa, {AccessorType::Vec4}, n, budget));
    }
  }

  // File vertices [begin, end); throws for a joint beyond the skin.
  void read(std::size_t begin, std::size_t end, const SkinRowsOut& out) {
    if (shape_.sets == 1) {
      rows<1>(begin, end, out);
    } else {
      rows<0>(begin, end, out);
    }
    if (bad_joint_.vertex < end) {
      fail(where_, slot_name("JOINTS_", bad_joint_) + " value " + std::to_string(bad_joint_.joint) + " is beyond skin " +
                       std::to_string(skinning_.skin) + "'s " + std::to_string(skinning_.source_to_palette->size()) +
                       " joints");
    }
  }

  // The repairs made, as diagnostics.
  void report(std::vector<Diagnostic>& diagnostics) const {
    if (negative_ > 0) {
      add_diagnostic(diagnostics, DiagnosticCode::SkinWeightsNegative,
                     where_() + ": " + std::to_string(negative_) + " negative weights set to 0 (the first: " +
                         slot_name("WEIGHTS_", first_negative_) + " value " + std::to_string(first_negative_.weight) + ")",
                     static_cast<int>(negative_));
    }
    const std::string all_sets = set_range("WEIGHTS_", shape_.sets);
    if (renormalised_ > 0) {
      add_diagnostic(diagnostics, DiagnosticCode::SkinWeightsRenormalized,
                     where_() + ": " + std::to_string(renormalised_) + " vertices' weights (" + all_sets + ") did not sum to 1",
                     static_cast<int>(renormalised_));
    }
    if (zero_ > 0) {
      add_diagnostic(diagnostics, DiagnosticCode::SkinWeightsZero,
                     where_() + ": " + std::to_string(zero_) + " vertices' weights (" + all_sets + ") sum to 0 (the first: vertex " +
                         std::to_string(first_zero_.vertex) + "); each is bound to its first joint (JOINTS_0) with weight 1",
                     static_cast<int>(zero_));
    }
    if (reduced_ > 0) {
      const std::string keep = std::to_string(shape_.influences);
      add_diagnostic(diagnostics, DiagnosticCode::SkinInfluencesReduced,
                     where_() + ": " + std::to_string(reduced_) + " vertices had more than " + keep + " nonzero weights (of " +
                         std::to_string(shape_.sets * 4) + " influences, " + set_range("JOINTS_", shape_.sets) + "); the " + keep +
                         " largest are kept, renormalised (ImportOptions::max_influences)",
                     static_cast<int>(reduced_));
    }
  }

 private:
  struct Found {  // the first vertex with a bad joint, a negative weight or no weight at all
    std::size_t vertex = 0, slot = 0;
    float weight = 0.f;
    std::uint32_t joint = 0;
  };
  static std::string slot_name(std::string_view prefix, const Found& f) {
    return "vertex " + std::to_string(f.vertex) + " " + set_name(prefix, static_cast<std::uint32_t>(f.slot / 4));
  }

  // Two passes over each vertex's few source values: the first checks the joints, repairs and
  // sums the weights, the second writes the row straight to its place. One set (4 influences),
  // by far the most common, is compiled with its count known; the loop keeps to plain numbers
  // (messages are written afterwards) and builds no row on the stack, whose scalar stores a
  // vector load could not forward.
  template <std::uint32_t kSets>
  void rows(std::size_t begin, std::size_t end, const SkinRowsOut& out) noexcept {
    const std::uint32_t sets = kSets != 0 ? kSets : shape_.sets;
    const std::size_t slots = std::size_t{sets} * 4;
    const bool reduce = shape_.influences < slots;
    const int* map = skinning_.source_to_palette->data();
    const std::size_t map_size = skinning_.source_to_palette->size();
    std::size_t negative = negative_, renormalised = renormalised_, zero = zero_, reduced = reduced_;
    Found bad_joint = bad_joint_, first_negative = first_negative_, first_zero = first_zero_;
    for (std::size_t v = begin; v < end; ++v) {
      float sum = 0.f;
      for (std::uint32_t set = 0; set < sets && bad_joint.vertex != v; ++set) {
        std::uint32_t joints[4];
        set_joints_[set].load(v, joints);
        const float* weights = &set_weights_[set].values()[v * 4];
        for (std::size_t c = 0; c < 4; ++c) {
          if (joints[c] >= map_size) {
            bad_joint = {v, 4 * set + c, 0.f, joints[c]};
            break;
          }
          if (weights[c] < 0.f && negative++ == 0) first_negative = {v, 4 * set + c, weights[c]};
          sum += weights[c] < 0.f ? 0.f : weights[c];  // glTF weights are >= 0: repaired to 0 (exporters round to -1e-9)
        }
      }
      if (bad_joint.vertex == v) break;
      if (sum > 0.f) {
        if (std::fabs(sum - 1.f) > 2e-3f) ++renormalised;
      } else if (zero++ == 0) {
        first_zero.vertex = v;
      }
      std::byte* joints_out = out.joints + v * out.stride;
      std::byte* weights_out = out.weights + v * out.stride;
      std::array<std::uint16_t, kMaxInfluences> j;  // only when reducing
      std::array<float, kMaxInfluences> w;
      for (std::uint32_t set = 0; set < sets; ++set) {
        std::uint32_t joints[4];
        set_joints_[set].load(v, joints);
        const float* weights = &set_weights_[set].values()[v * 4];
        for (std::size_t c = 0; c < 4; ++c) {
          const std::size_t i = 4 * set + c;
          const std::uint16_t joint = static_cast<std::uint16_t>(map[joints[c]]);
          // Renormalised over all sets; weights that sum to 0 ride on the first joint alone.
          const float weight = sum > 0.f ? (weights[c] < 0.f ? 0.f : weights[c]) / sum : (i == 0 ? 1.f : 0.f);
          if (reduce) {
            j[i] = joint;
            w[i] = weight;
          } else {
            std::memcpy(joints_out + i * sizeof joint, &joint, sizeof joint);
            std::memcpy(weights_out + i * sizeof weight, &weight, sizeof weight);
          }
        }
      }
      if (!reduce) continue;
      if (keep_largest_influences(std::span(j.data(), slots), std::span(w.data(), slots), shape_.influences)) ++reduced;
      std::memcpy(joints_out, j.data(), shape_.slots * sizeof(std::uint16_t));
      std::memcpy(weights_out, w.data(), shape_.slots * sizeof(float));
    }
    negative_ = negative;
    renormalised_ = renormalised;
    zero_ = zero;
    reduced_ = reduced;
    bad_joint_ = bad_joint;
    first_negative_ = first_negative;
    first_zero_ = first_zero;
  }

  Where where_;
  const PartSkinning& skinning_;
  SkinShape shape_;
  std::vector<SetJoints> set_joints_;
  std::vector<AccessorFloats> set_weights_;
  std::size_t negative_ = 0, renormalised_ = 0, zero_ = 0, reduced_ = 0;
  Found bad_joint_{~std::size_t{0}}, first_negative_, first_zero_;
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
