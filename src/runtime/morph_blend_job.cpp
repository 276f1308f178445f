#include "marrow/runtime/morph_blend_job.hpp"

#include <cmath>
#include <cstring>

#include <glm/geometric.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"

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

JobStatus MorphBlendJob::validate() const noexcept {
  if (morph == nullptr) return job_error("morph", "is null");
  if (weights.size() != morph->target_count()) return job_error("weights", "does not have one weight per morph target");
  if (output.size() != morph->base_vertex_bytes.size()) return job_error("output", "is not the size of the base vertices");
  return kJobOk;
}

bool MorphBlendJob::run() const noexcept {
  if (!validate()) return false;
  if (output.empty()) return true;
  std::memcpy(output.data(), morph->base_vertex_bytes.data(), output.size());
  const VertexLayout& layout = morph->layout;
  blend_kind(morph->position_deltas, weights, attribute_view<glm::vec3>(output, layout, VertexAttribute::Position));
  if (layout.has(VertexAttribute::Normal)) {
    const auto normals = attribute_view<glm::vec3>(output, layout, VertexAttribute::Normal);
    if (blend_kind(morph->normal_deltas, weights, normals)) renormalize(normals);
  }
  if (layout.has(VertexAttribute::Tangent)) {
    // The tangent's xyz are its first 12 bytes; w (handedness) is left as copied.
    const auto tangents = attribute_view<glm::vec3>(output, layout, VertexAttribute::Tangent);
    if (blend_kind(morph->tangent_deltas, weights, tangents)) renormalize(tangents);
  }
  if (morph->recompute_flat_normals) recompute_flat_normals(output, layout, morph->triangle_indices);
  return true;
}

}  // namespace marrow
