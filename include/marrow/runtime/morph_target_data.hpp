#pragma once
// The CPU morph-target carrier of one mesh part: the zero-weight vertex bytes, their layout,
// per-target deltas and the current weights (G12-G16).
//
// Thread safety: immutable once loaded except `weights`, which the seed-style route
// (set_morph_weights on a part) updates; per-instance playback keeps its own weights instead.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "marrow/core/vertex_layout.hpp"
#include "marrow/runtime/morph_weight_track.hpp"

namespace marrow {

struct MorphTargetData {
  std::vector<std::byte> base_vertex_bytes;              // vertex_count() * layout.stride bytes
  VertexLayout layout;
  std::vector<std::vector<glm::vec3>> position_deltas;   // [target][vertex]; defines the target count
  std::vector<std::vector<glm::vec3>> normal_deltas;     // empty, or one per target (inner empty = none)
  std::vector<std::vector<glm::vec3>> tangent_deltas;    // same; xyz deltas, handedness is never blended
  std::vector<float> weights;                            // current weights, one per target
  std::optional<MorphWeightTrack> weight_track;          // the default animated weights, if any
  bool recompute_flat_normals = false;                   // the primitive authored no normals
  std::vector<std::uint32_t> triangle_indices;           // used when recompute_flat_normals is set

  std::size_t target_count() const noexcept { return position_deltas.size(); }
  std::size_t vertex_count() const noexcept {
    return layout.stride == 0 ? 0 : base_vertex_bytes.size() / layout.stride;
  }
};

// G14: throws std::invalid_argument naming the field, target and sizes when the carrier is
// inconsistent: a bad layout, base bytes not a whole number of vertices, a normal/tangent
// outer array that is neither empty nor one per target, an inner array that is neither empty
// nor one per vertex, deltas for an attribute the layout lacks, non-finite deltas, or triangle
// indices out of range.
void validate(const MorphTargetData& morph);

}  // namespace marrow
