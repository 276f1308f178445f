#include "marrow/runtime/blend_morph_targets.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include <glm/geometric.hpp>
#include <glm/vec4.hpp>

#include "marrow/core/vertex_access.hpp"

namespace marrow {

namespace {

// Adds w * delta into the vec3 at each vertex's slot (the xyz of a vec4 slot for tangents).
void accumulate(StridedSpan<glm::vec3> slot, std::span<const glm::vec3> delta, float w) {
  const std::size_t n = slot.size();
  for (std::size_t v = 0; v < n; ++v) slot.store(v, slot.load(v) + delta[v] * w);
}

void renormalize(StridedSpan<glm::vec3> slot) {
  const std::size_t n = slot.size();
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec3 d = slot.load(v);
    const float len2 = glm::dot(d, d);
    if (len2 > 0.f) slot.store(v, d * (1.f / std::sqrt(len2)));
  }
}

// Applies every target with a non-zero weight that has deltas of this kind; true if any did.
bool blend_kind(const std::vector<std::vector<glm::vec3>>& deltas, std::span<const float> weights,
                StridedSpan<glm::vec3> slot) {
  bool any = false;
  for (std::size_t t = 0; t < deltas.size() && t < weights.size(); ++t) {
    if (weights[t] == 0.f || deltas[t].empty()) continue;
    accumulate(slot, deltas[t], weights[t]);
    any = true;
  }
  return any;
}

}  // namespace

void blend_morph_targets(const MorphTargetData& morph, std::span<const float> weights, std::span<std::byte> out) {
  if (weights.size() != morph.target_count()) {
    throw std::runtime_error("blend_morph_targets: " + std::to_string(weights.size()) + " weights for " +
                             std::to_string(morph.target_count()) + " morph targets");
  }
  if (out.size() != morph.base_vertex_bytes.size()) {
    throw std::invalid_argument("blend_morph_targets: output has " + std::to_string(out.size()) +
                                " bytes, the base vertices have " + std::to_string(morph.base_vertex_bytes.size()));
  }
  if (out.empty()) return;
  std::memcpy(out.data(), morph.base_vertex_bytes.data(), out.size());
  const VertexLayout& layout = morph.layout;

  blend_kind(morph.position_deltas, weights, attribute_view<glm::vec3>(out, layout, VertexAttribute::Position));
  if (layout.has(VertexAttribute::Normal)) {
    const auto normals = attribute_view<glm::vec3>(out, layout, VertexAttribute::Normal);
    if (blend_kind(morph.normal_deltas, weights, normals)) renormalize(normals);
  }
  if (layout.has(VertexAttribute::Tangent)) {
    // The tangent's xyz are its first 12 bytes; w (handedness) is left as copied.
    const auto tangents = attribute_view<glm::vec3>(out, layout, VertexAttribute::Tangent);
    if (blend_kind(morph.tangent_deltas, weights, tangents)) renormalize(tangents);
  }
  if (morph.recompute_flat_normals) recompute_flat_normals(out, layout, morph.triangle_indices);
}

void recompute_flat_normals(std::span<std::byte> vertex_bytes, const VertexLayout& layout,
                            std::span<const std::uint32_t> triangle_indices) {
  if (!layout.has(VertexAttribute::Normal) || layout.stride == 0) return;
  const auto positions = attribute_view<glm::vec3>(vertex_bytes, layout, VertexAttribute::Position);
  const auto normals = attribute_view<glm::vec3>(vertex_bytes, layout, VertexAttribute::Normal);
  const bool has_tangents = layout.has(VertexAttribute::Tangent);
  const auto tangents =
      has_tangents ? attribute_view<glm::vec4>(vertex_bytes, layout, VertexAttribute::Tangent) : StridedSpan<glm::vec4>();
  const std::size_t n = positions.size();
  // A primitive without authored normals is fully split at import, so every vertex belongs to
  // one face and takes exactly that face's normal.
  const std::size_t end = triangle_indices.size() - triangle_indices.size() % 3;
  for (std::size_t i = 0; i < end; i += 3) {
    const std::uint32_t corner[3] = {triangle_indices[i], triangle_indices[i + 1], triangle_indices[i + 2]};
    if (corner[0] >= n || corner[1] >= n || corner[2] >= n) continue;
    const glm::vec3 pa = positions.load(corner[0]);
    const glm::vec3 face = glm::cross(positions.load(corner[1]) - pa, positions.load(corner[2]) - pa);
    const float len2 = glm::dot(face, face);
    if (!(len2 > 0.f) || !std::isfinite(len2)) continue;  // degenerate: the vertices keep their normals
    const glm::vec3 nrm = face * (1.f / std::sqrt(len2));
    for (std::uint32_t v : corner) {
      normals.store(v, nrm);
      if (!has_tangents) continue;
      const glm::vec4 t = tangents.load(v);
      glm::vec3 ortho = glm::vec3(t) - nrm * glm::dot(nrm, glm::vec3(t));
      const float tl2 = glm::dot(ortho, ortho);
      if (tl2 > 0.f) tangents.store(v, glm::vec4(ortho * (1.f / std::sqrt(tl2)), t.w));
    }
  }
}

}  // namespace marrow
