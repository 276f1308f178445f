#include "marrow/model/split_skin_palettes.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#include "marrow/core/import_error.hpp"

namespace marrow {

namespace {

// One primitive of a part as vertex indices: a triangle, a line or a point. A vertex that no
// primitive uses is a primitive of one vertex that draws nothing (drawn = false).
struct Primitive {
  std::array<std::uint32_t, 3> v{};
  std::uint32_t count = 0;
  std::uint32_t ordinal = 0;  // its number among the part's triangles (lines, points), for errors
  bool drawn = true;
};

PrimitiveMode list_mode(PrimitiveMode mode) {
  switch (mode) {
    case PrimitiveMode::Points: return PrimitiveMode::Points;
    case PrimitiveMode::Lines:
    case PrimitiveMode::LineLoop:
    case PrimitiveMode::LineStrip: return PrimitiveMode::Lines;
    default: return PrimitiveMode::Triangles;
  }
}

// The primitives in drawing order (glTF 2.0 3.7.2.1 for strips, fans and loops), then the
// vertices none of them uses.
std::vector<Primitive> primitives_of(const ModelMeshPart& part) {
  const std::size_t n = part.vertex_count();
  const std::size_t count = part.indices.empty() ? n : part.indices.size();
  const auto at = [&](std::size_t i) { return part.indices.empty() ? static_cast<std::uint32_t>(i) : part.indices[i]; };
  std::vector<Primitive> out;
  const auto add = [&](std::initializer_list<std::size_t> corners) {
    Primitive p;
    for (std::size_t c : corners) p.v[p.count++] = at(c);
    p.ordinal = static_cast<std::uint32_t>(out.size());
    out.push_back(p);
  };
  switch (part.mode) {
    case PrimitiveMode::Points:
      for (std::size_t i = 0; i < count; ++i) add({i});
      break;
    case PrimitiveMode::Lines:
      for (std::size_t i = 0; i + 1 < count; i += 2) add({i, i + 1});
      break;
    case PrimitiveMode::LineStrip:
    case PrimitiveMode::LineLoop:
      for (std::size_t i = 0; i + 1 < count; ++i) add({i, i + 1});
      if (part.mode == PrimitiveMode::LineLoop && count > 2) add({count - 1, 0});
      break;
    case PrimitiveMode::Triangles:
      for (std::size_t i = 0; i + 2 < count; i += 3) add({i, i + 1, i + 2});
      break;
    case PrimitiveMode::TriangleStrip:  // odd triangles swap their first two corners (winding)
      for (std::size_t i = 0; i + 2 < count; ++i) add({i + (i % 2), i + 1 - (i % 2), i + 2});
      break;
    case PrimitiveMode::TriangleFan:
      for (std::size_t i = 1; i + 1 < count; ++i) add({i, i + 1, 0});
      break;
  }
  std::vector<bool> used(n, false);
  for (const Primitive& p : out) {
    for (std::uint32_t c = 0; c < p.count; ++c) used[p.v[c]] = true;
  }
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!used[v]) out.push_back(Primitive{{v, 0, 0}, 1, v, false});
  }
  return out;
}

const char* primitive_kind(PrimitiveMode mode, const Primitive& p) {
  if (!p.drawn) return "vertex";
  switch (list_mode(mode)) {
    case PrimitiveMode::Points: return "point";
    case PrimitiveMode::Lines: return "line";
    default: return "triangle";
  }
}

// A sub-part being filled: which skin joints it uses, and its primitives.
struct Bin {
  std::vector<bool> has;
  std::size_t joints = 0;
  std::vector<std::size_t> primitives;
};

class PartSplitter {
 public:
  PartSplitter(const ModelMeshPart& part, std::size_t skin_joints, int max_palette)
      : part_(part), skin_joints_(skin_joints), max_(static_cast<std::size_t>(max_palette)) {}

  std::vector<ModelMeshPart> split(const std::string& where) {
    const VertexLayout& l = part_.layout;
    if (!l.has(VertexAttribute::Joints0) || !l.has(VertexAttribute::Weights0)) {
      throw std::invalid_argument("split_skin_palettes: " + where + " is skinned but has no joints0/weights0");
    }
    collect_vertex_joints();
    const std::vector<Primitive> primitives = primitives_of(part_);
    std::vector<Bin> bins;
    std::vector<std::uint32_t> mine;
    for (std::size_t i = 0; i < primitives.size(); ++i) {
      const Primitive& p = primitives[i];
      mine.clear();
      for (std::uint32_t c = 0; c < p.count; ++c) {
        for (std::uint32_t k = first_[p.v[c]]; k < first_[p.v[c] + 1]; ++k) {
          if (std::find(mine.begin(), mine.end(), joints_[k]) == mine.end()) mine.push_back(joints_[k]);
        }
      }
      if (mine.size() > max_) {
        throw ImportError(ImportErrorCode::PaletteLimit,
                          where + ": " + primitive_kind(part_.mode, p) + " " + std::to_string(p.ordinal) + " uses " +
                              std::to_string(mine.size()) + " joints, more than the palette limit of " +
                              std::to_string(max_) + ", so the part cannot be split (ImportOptions::max_palette lifts it)");
      }
      Bin* fit = nullptr;
      for (Bin& bin : bins) {  // first fit
        std::size_t extra = 0;
        for (std::uint32_t j : mine) extra += bin.has[j] ? 0 : 1;
        if (bin.joints + extra <= max_) {
          fit = &bin;
          break;
        }
      }
      if (fit == nullptr) {
        bins.push_back(Bin{std::vector<bool>(skin_joints_, false), 0, {}});
        fit = &bins.back();
      }
      for (std::uint32_t j : mine) {
        if (!fit->has[j]) {
          fit->has[j] = true;
          ++fit->joints;
        }
      }
      fit->primitives.push_back(i);
    }
    if (bins.empty()) bins.push_back(Bin{std::vector<bool>(skin_joints_, false), 0, {}});
    std::vector<ModelMeshPart> out;
    out.reserve(bins.size());
    for (const Bin& bin : bins) out.push_back(make_part(bin, primitives));
    return out;
  }

 private:
  // The skin joint of influence i of vertex v (through the part's own map if it has one).
  std::uint32_t joint(std::size_t v, std::size_t i) const {
    std::uint16_t j;
    std::memcpy(&j, part_.vertex_bytes.data() + v * part_.layout.stride + part_.layout.offset(VertexAttribute::Joints0) + 2 * i,
                sizeof j);
    return part_.palette_joints.empty() ? j : part_.palette_joints[j];
  }
  float weight(std::size_t v, std::size_t i) const {
    float w;
    std::memcpy(&w, part_.vertex_bytes.data() + v * part_.layout.stride + part_.layout.offset(VertexAttribute::Weights0) + 4 * i,
                sizeof w);
    return w;
  }

  // Per vertex, its distinct joints of nonzero weight (joints_[first_[v] .. first_[v + 1])).
  void collect_vertex_joints() {
    const std::size_t n = part_.vertex_count();
    first_.assign(n + 1, 0);
    joints_.clear();
    for (std::size_t v = 0; v < n; ++v) {
      for (std::size_t i = 0; i < part_.layout.influences; ++i) {
        if (weight(v, i) == 0.f) continue;
        const std::uint32_t j = joint(v, i);
        if (j >= skin_joints_) {
          throw std::invalid_argument("split_skin_palettes: vertex " + std::to_string(v) + " joint " + std::to_string(j) +
                                      " is not below the skin's " + std::to_string(skin_joints_) + " joints");
        }
        if (std::find(joints_.begin() + static_cast<std::ptrdiff_t>(first_[v]), joints_.end(), j) == joints_.end()) {
          joints_.push_back(j);
        }
      }
      first_[v + 1] = static_cast<std::uint32_t>(joints_.size());
    }
  }

  ModelMeshPart make_part(const Bin& bin, const std::vector<Primitive>& primitives) {
    const VertexLayout& l = part_.layout;
    ModelMeshPart out;
    out.layout = l;
    out.mode = list_mode(part_.mode);
    out.material = part_.material;
    out.skinning = part_.skinning;
    out.revision = part_.revision;
    out.source_primitive = part_.source_primitive;
    out.flat_normals = part_.flat_normals;
    out.source_vertex_count =
        part_.source_vertex_count != 0 ? part_.source_vertex_count : static_cast<std::uint32_t>(part_.vertex_count());
    // The sub-palette: the skin joints it uses, in palette order (one entry even when no vertex
    // has a weight, so the map is never mistaken for "the whole skin").
    local_joint_.resize(skin_joints_);
    for (std::uint32_t j = 0; j < skin_joints_; ++j) {
      if (!bin.has[j]) continue;
      local_joint_[j] = static_cast<std::uint32_t>(out.palette_joints.size());
      out.palette_joints.push_back(j);
    }
    if (out.palette_joints.empty()) out.palette_joints.push_back(0);
    out.skinned_material = std::make_shared<SkinnedMaterial>(static_cast<int>(max_));

    // Its vertices in the part's order; a vertex of several sub-parts is copied into each.
    std::vector<std::uint32_t> vertices;
    for (std::size_t i : bin.primitives) {
      for (std::uint32_t c = 0; c < primitives[i].count; ++c) vertices.push_back(primitives[i].v[c]);
    }
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
    local_vertex_.resize(part_.vertex_count());
    for (std::size_t i = 0; i < vertices.size(); ++i) local_vertex_[vertices[i]] = static_cast<std::uint32_t>(i);
    for (std::size_t i : bin.primitives) {
      if (!primitives[i].drawn) continue;
      for (std::uint32_t c = 0; c < primitives[i].count; ++c) out.indices.push_back(local_vertex_[primitives[i].v[c]]);
    }

    out.vertex_bytes.resize(vertices.size() * l.stride);
    out.source_vertices.resize(vertices.size());
    const std::size_t joint_bytes = l.size(VertexAttribute::Joints0);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
      const std::uint32_t v = vertices[i];
      std::byte* row = out.vertex_bytes.data() + i * l.stride;
      std::memcpy(row, part_.vertex_bytes.data() + v * l.stride, l.stride);
      // Every slot of every set: a weighted joint by its sub-palette index, the rest entry 0.
      std::byte* joints = row + l.offset(VertexAttribute::Joints0);
      std::memset(joints, 0, joint_bytes);
      for (std::size_t k = 0; k < l.influences; ++k) {
        if (weight(v, k) == 0.f) continue;
        const auto local = static_cast<std::uint16_t>(local_joint_[joint(v, k)]);
        std::memcpy(joints + 2 * k, &local, sizeof local);
      }
      out.source_vertices[i] = part_.source_vertices.empty() ? v : part_.source_vertices[v];
    }

    if (part_.morph) {
      const MorphTargetData& from = *part_.morph;
      MorphTargetData morph;
      morph.layout = from.layout;
      morph.base_vertex_bytes.resize(out.vertex_bytes.size());
      for (std::size_t i = 0; i < vertices.size(); ++i) {
        std::byte* row = morph.base_vertex_bytes.data() + i * l.stride;
        std::memcpy(row, from.base_vertex_bytes.data() + vertices[i] * l.stride, l.stride);
        // The base rows hold the same joints as the part's (morphing never changes them).
        std::memcpy(row + l.offset(VertexAttribute::Joints0),
                    out.vertex_bytes.data() + i * l.stride + l.offset(VertexAttribute::Joints0), joint_bytes);
      }
      const auto gather = [&](const std::vector<std::vector<glm::vec3>>& deltas) {
        std::vector<std::vector<glm::vec3>> result(deltas.size());
        for (std::size_t t = 0; t < deltas.size(); ++t) {
          if (deltas[t].empty()) continue;
          result[t].resize(vertices.size());
          for (std::size_t i = 0; i < vertices.size(); ++i) result[t][i] = deltas[t][vertices[i]];
        }
        return result;
      };
      morph.position_deltas = gather(from.position_deltas);
      morph.normal_deltas = gather(from.normal_deltas);
      morph.tangent_deltas = gather(from.tangent_deltas);
      morph.weights = from.weights;
      morph.weight_track = from.weight_track;
      morph.recompute_flat_normals = from.recompute_flat_normals;
      // Flat normals are recomputed over the sub-part's own triangles (a flat part has no seams).
      if (from.recompute_flat_normals && out.mode == PrimitiveMode::Triangles) morph.triangle_indices = out.indices;
      out.morph = std::move(morph);
    }
    return out;
  }

  const ModelMeshPart& part_;
  std::size_t skin_joints_;
  std::size_t max_;
  std::vector<std::uint32_t> first_, joints_;
  std::vector<std::uint32_t> local_joint_, local_vertex_;
};

}  // namespace

std::size_t split_skin_palettes(Model& model, int max_palette) {
  if (max_palette < 1) {
    throw std::invalid_argument("split_skin_palettes: max_palette " + std::to_string(max_palette) + " is not positive");
  }
  // Every mesh's new parts first, so a refusal leaves the model as it was.
  std::vector<std::pair<std::size_t, std::vector<ModelMeshPart>>> replaced;
  std::size_t made = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    if (mesh.skin < 0 || static_cast<std::size_t>(mesh.skin) >= model.skins.size()) continue;
    const auto joints = static_cast<std::size_t>(std::max(model.skins[static_cast<std::size_t>(mesh.skin)].data.bone_count, 0));
    if (joints <= static_cast<std::size_t>(max_palette)) continue;
    std::vector<ModelMeshPart> parts;
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      const int primitive = part.source_primitive >= 0 ? part.source_primitive : static_cast<int>(p);
      const std::string where = "mesh " + std::to_string(mesh.source_mesh >= 0 ? mesh.source_mesh : static_cast<int>(m)) +
                                " '" + mesh.name + "' primitive " + std::to_string(primitive);
      std::vector<ModelMeshPart> sub = PartSplitter(part, joints, max_palette).split(where);
      made += sub.size();
      for (ModelMeshPart& s : sub) parts.push_back(std::move(s));
    }
    replaced.emplace_back(m, std::move(parts));
  }
  for (auto& [m, parts] : replaced) model.meshes[m].parts = std::move(parts);
  return made;
}

}  // namespace marrow
