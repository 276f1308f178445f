#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/morph_blend_job.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include <glm/geometric.hpp>
#include <glm/vec4.hpp>

#include "marrow/core/vertex_access.hpp"

namespace marrow {

void blend_morph_targets(const MorphTargetData& morph, std::span<const float> weights, std::span<std::byte> out) {
  const MorphBlendJob job{&morph, weights, out};
  const JobStatus status = job.validate();
  if (!status && std::string_view(status.field) == "weights") {
    // G12: the seed's weight-count rule is a runtime_error.
    throw std::runtime_error("blend_morph_targets: " + std::to_string(weights.size()) + " weights for " +
                             std::to_string(morph.target_count()) + " morph targets");
  }
  if (!status) {
    throw std::invalid_argument("blend_morph_targets: output has " + std::to_string(out.size()) +
                                " bytes, the base vertices have " + std::to_string(morph.base_vertex_bytes.size()));
  }
  job.run();
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
