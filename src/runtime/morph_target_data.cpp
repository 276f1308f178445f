#include "marrow/runtime/morph_target_data.hpp"

#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"

namespace marrow {

namespace {

void check_deltas(const char* field, const std::vector<std::vector<glm::vec3>>& deltas, std::size_t targets,
                  std::size_t vertices, bool layout_has_slot, bool outer_may_be_empty) {
  if (deltas.empty() && outer_may_be_empty) return;
  if (deltas.size() != targets) {
    throw std::invalid_argument(std::string("MorphTargetData: ") + field + " has " + std::to_string(deltas.size()) +
                                " targets, position_deltas has " + std::to_string(targets));
  }
  for (std::size_t t = 0; t < deltas.size(); ++t) {
    const std::vector<glm::vec3>& d = deltas[t];
    if (d.empty()) continue;
    if (!layout_has_slot) {
      throw std::invalid_argument(std::string("MorphTargetData: ") + field + "[" + std::to_string(t) +
                                  "] is given but the vertex layout has no slot for it");
    }
    if (d.size() != vertices) {
      throw std::invalid_argument(std::string("MorphTargetData: ") + field + "[" + std::to_string(t) + "] has " +
                                  std::to_string(d.size()) + " deltas, the part has " + std::to_string(vertices) +
                                  " vertices");
    }
    for (std::size_t v = 0; v < d.size(); ++v) {
      if (!is_finite(d[v])) {
        throw std::invalid_argument(std::string("MorphTargetData: ") + field + "[" + std::to_string(t) + "][" +
                                    std::to_string(v) + "] is not finite");
      }
    }
  }
}

}  // namespace

void validate(const MorphTargetData& morph) {
  if (std::string problem = morph.layout.problem(); !problem.empty()) {
    throw std::invalid_argument("MorphTargetData: " + problem);
  }
  if (morph.base_vertex_bytes.size() % morph.layout.stride != 0) {
    throw std::invalid_argument("MorphTargetData: base_vertex_bytes has " +
                                std::to_string(morph.base_vertex_bytes.size()) + " bytes, not a multiple of stride " +
                                std::to_string(morph.layout.stride));
  }
  const std::size_t targets = morph.target_count();
  const std::size_t vertices = morph.vertex_count();
  check_deltas("position_deltas", morph.position_deltas, targets, vertices, true, false);
  check_deltas("normal_deltas", morph.normal_deltas, targets, vertices, morph.layout.has(VertexAttribute::Normal), true);
  check_deltas("tangent_deltas", morph.tangent_deltas, targets, vertices, morph.layout.has(VertexAttribute::Tangent),
               true);
  if (morph.recompute_flat_normals) {
    if (!morph.layout.has(VertexAttribute::Normal)) {
      throw std::invalid_argument("MorphTargetData: recompute_flat_normals needs a normal slot in the layout");
    }
    if (morph.triangle_indices.size() % 3 != 0) {
      throw std::invalid_argument("MorphTargetData: triangle_indices has " +
                                  std::to_string(morph.triangle_indices.size()) + " entries, not a multiple of 3");
    }
    for (std::size_t i = 0; i < morph.triangle_indices.size(); ++i) {
      if (morph.triangle_indices[i] >= vertices) {
        throw std::invalid_argument("MorphTargetData: triangle_indices[" + std::to_string(i) + "] = " +
                                    std::to_string(morph.triangle_indices[i]) + " is not below the vertex count " +
                                    std::to_string(vertices));
      }
    }
  }
}

}  // namespace marrow
