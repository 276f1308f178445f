#include "marrow/asset/mesh.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/runtime/offline/skin_influences.hpp"
#include "marrow/runtime/skinning_job.hpp"

namespace marrow::asset {

namespace {

// Per skin palette index: the mesh bone it is (the inverse of the mesh's bone -> joint map).
std::vector<int> bones_of_joints(const Mesh& mesh) {
  std::vector<int> out(mesh.model().skins[static_cast<std::size_t>(mesh.skin())].data.inverse_bind_pose.size(), 0);
  for (std::size_t b = 0; b < mesh.bone_count(); ++b) out[static_cast<std::size_t>(mesh.bone_joints()[b])] = static_cast<int>(b);
  return out;
}

// Per JOINTS value of a part: the mesh bone it moves with (S4: a split part's JOINTS index its
// palette_joints map of the skin's palette).
std::vector<int> part_bones(const ModelMeshPart& part, const std::vector<int>& joint_bones) {
  if (part.palette_joints.empty()) return joint_bones;
  std::vector<int> out(part.palette_joints.size());
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = joint_bones[part.palette_joints[j]];
  return out;
}

MeshVertexSkeletal vertex_of(std::span<const std::byte> bytes, const VertexLayout& l, std::size_t v,
                             const std::vector<int>& bones) {
  using A = VertexAttribute;
  MeshVertexSkeletal out;
  out.location = read_attribute<glm::vec3>(bytes, l, v, A::Position);
  if (l.has(A::Normal)) out.normal = read_attribute<glm::vec3>(bytes, l, v, A::Normal);
  if (l.has(A::Tangent)) {
    const glm::vec4 t = read_attribute<glm::vec4>(bytes, l, v, A::Tangent);
    out.tangent = glm::vec3(t);
    out.bitangent = glm::cross(out.normal, out.tangent) * (t.w < 0.f ? -1.f : 1.f);
  }
  if (l.has(A::TexCoord0)) out.texture_coords = read_attribute<glm::vec2>(bytes, l, v, A::TexCoord0);
  if (!bones.empty() && l.has(A::Joints0) && l.has(A::Weights0)) {
    // T16: four influences per vertex; a model with more (S1) gives its four largest,
    // renormalised (keep_largest_influences).
    std::array<std::uint16_t, kMaxInfluences> j{};
    std::array<float, kMaxInfluences> w{};
    const std::size_t n = std::min<std::size_t>(l.influences, kMaxInfluences);
    std::memcpy(j.data(), bytes.data() + v * l.stride + l.offset(A::Joints0), n * sizeof(std::uint16_t));
    std::memcpy(w.data(), bytes.data() + v * l.stride + l.offset(A::Weights0), n * sizeof(float));
    keep_largest_influences(std::span(j).first(n), std::span(w).first(n), 4);
    out.bone_weights = {0, 0, 0, 0};
    for (std::size_t c = 0; c < 4 && c < n; ++c) {
      out.bone_indices[c] = static_cast<std::uint8_t>(bones[j[c]]);
      out.bone_weights[c] = w[c];
    }
  }
  return out;
}

// Every part of a static mesh at rest, in model space, in order.
void pose_at_rest(const Mesh& mesh, std::span<glm::vec3> positions, std::span<glm::vec3> normals) {
  Animator rest(mesh.shared().compiled);
  std::size_t at = 0;
  for (int m : mesh.model_meshes()) {
    const auto& parts = mesh.model().meshes[static_cast<std::size_t>(m)].parts;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const std::size_t count = parts[p].vertex_count();
      const bool with_normals = !normals.empty() && parts[p].layout.has(VertexAttribute::Normal);
      rest.pose_part(static_cast<std::size_t>(m), p, positions.subspan(at, count),
                     with_normals ? normals.subspan(at, count) : std::span<glm::vec3>());
      at += count;
    }
  }
}

// The palette in its skin's order (bone b is entry bone_joints[b]; entries no bone is stay
// identity). A loaded mesh's bones are its skin's entries in order: the palette itself.
std::span<const glm::mat4> in_skin_order(const Mesh& mesh, std::span<const glm::mat4> palette,
                                         std::vector<glm::mat4>& scratch) {
  const std::span<const int> joints = mesh.bone_joints();
  const std::size_t entries = mesh.model().skins[static_cast<std::size_t>(mesh.skin())].data.inverse_bind_pose.size();
  bool same = entries == joints.size();
  for (std::size_t b = 0; same && b < joints.size(); ++b) same = joints[b] == static_cast<int>(b);
  if (same) return palette;
  scratch.assign(entries, glm::mat4(1.f));
  for (std::size_t b = 0; b < joints.size(); ++b) scratch[static_cast<std::size_t>(joints[b])] = palette[b];
  return scratch;
}

}  // namespace

std::size_t Mesh::vertex_count() const noexcept {
  std::size_t n = 0;
  for (int m : meshes_) {
    for (const ModelMeshPart& part : model().meshes[static_cast<std::size_t>(m)].parts) n += part.vertex_count();
  }
  return n;
}

std::vector<MeshVertexSkeletal> Mesh::vertices() const {
  std::vector<MeshVertexSkeletal> out;
  out.reserve(vertex_count());
  const std::vector<int> joint_bones = is_skeletal() ? bones_of_joints(*this) : std::vector<int>();
  for (int m : meshes_) {
    for (const ModelMeshPart& part : model().meshes[static_cast<std::size_t>(m)].parts) {
      const std::vector<int> bones = is_skeletal() ? part_bones(part, joint_bones) : std::vector<int>();
      for (std::size_t v = 0; v < part.vertex_count(); ++v) out.push_back(vertex_of(part.vertex_bytes, part.layout, v, bones));
    }
  }
  if (!is_skeletal()) {
    std::vector<glm::vec3> positions(out.size()), normals(out.size());
    pose_at_rest(*this, positions, normals);
    std::size_t at = 0;
    for (int m : meshes_) {
      for (const ModelMeshPart& part : model().meshes[static_cast<std::size_t>(m)].parts) {
        const bool with_normals = part.layout.has(VertexAttribute::Normal);
        for (std::size_t v = 0; v < part.vertex_count(); ++v, ++at) {
          out[at].location = positions[at];
          if (with_normals) out[at].normal = normals[at];
        }
      }
    }
  }
  return out;
}

std::vector<VertexTriangle> Mesh::triangles() const {
  std::vector<VertexTriangle> out;
  std::uint32_t base = 0;
  for (int m : meshes_) {
    for (const ModelMeshPart& part : model().meshes[static_cast<std::size_t>(m)].parts) {
      const auto n = static_cast<std::uint32_t>(part.vertex_count());
      if (part.mode == PrimitiveMode::Triangles) {
        if (part.indices.empty()) {
          for (std::uint32_t i = 0; i + 2 < n; i += 3) out.push_back(VertexTriangle{base + i, base + i + 1, base + i + 2});
        }
        for (std::size_t i = 0; i + 2 < part.indices.size(); i += 3) {
          out.push_back(VertexTriangle{base + part.indices[i], base + part.indices[i + 1], base + part.indices[i + 2]});
        }
      }
      base += n;
    }
  }
  return out;
}

void pose_mesh_vertices(const Mesh& mesh, std::span<const glm::mat4> palette, std::span<glm::vec3> positions,
                        std::span<glm::vec3> normals) {
  const std::size_t n = mesh.vertex_count();
  if (positions.size() != n || (!normals.empty() && normals.size() != n)) {
    throw std::invalid_argument("pose_mesh_vertices: " + std::to_string(positions.size()) + " positions and " +
                                std::to_string(normals.size()) + " normals for " + std::to_string(n) + " vertices");
  }
  if (!mesh.is_skeletal()) {
    pose_at_rest(mesh, positions, normals);
    return;
  }
  if (palette.size() != mesh.bone_count()) {
    throw std::invalid_argument("pose_mesh_vertices: a palette of " + std::to_string(palette.size()) + " for " +
                                std::to_string(mesh.bone_count()) + " bones");
  }
  // Allocates only for a built mesh whose bones are not its skin's order, or a split part (S4).
  std::vector<glm::mat4> ordered, split;
  const std::span<const glm::mat4> skin_palette = in_skin_order(mesh, palette, ordered);
  std::size_t at = 0;
  for (int m : mesh.model_meshes()) {
    for (const ModelMeshPart& part : mesh.model().meshes[static_cast<std::size_t>(m)].parts) {
      const std::size_t count = part.vertex_count();
      std::span<const glm::mat4> part_palette = skin_palette;
      if (!part.palette_joints.empty()) {  // a split part's JOINTS index its map of the skin's entries
        split.resize(part.palette_joints.size());
        for (std::size_t j = 0; j < split.size(); ++j) split[j] = skin_palette[part.palette_joints[j]];
        part_palette = split;
      }
      const VertexLayout& layout = part.layout;
      if (!layout.has(VertexAttribute::Joints0) || !layout.has(VertexAttribute::Weights0)) {
        throw std::invalid_argument("pose_mesh_vertices: a part of model mesh " + std::to_string(m) +
                                    " has no skin influences");
      }
      const bool with_normals = !normals.empty() && layout.has(VertexAttribute::Normal);
      SkinningJob job;
      job.palette = part_palette;
      job.influences = layout.influences;  // S1: every set of the part
      job.joints = attribute_view<glm::u16vec4>(part.vertex_bytes, layout, VertexAttribute::Joints0);
      job.weights = attribute_view<glm::vec4>(part.vertex_bytes, layout, VertexAttribute::Weights0);
      job.in_positions = attribute_view<glm::vec3>(part.vertex_bytes, layout, VertexAttribute::Position);
      job.out_positions = positions.subspan(at, count);
      if (with_normals) {
        job.in_normals = attribute_view<glm::vec3>(part.vertex_bytes, layout, VertexAttribute::Normal);
        job.out_normals = normals.subspan(at, count);
      }
      job.run_or_throw();
      at += count;
    }
  }
}

}  // namespace marrow::asset
