#pragma once
// The CPU morph blend (G12, G13, G15):
//   position = base + sum_t w_t * dP_t
//   normal   = normalize(base + sum_t w_t * dN_t)      (only when some normal delta applies)
//   tangent  = (normalize(base.xyz + sum_t w_t * dT_t), base.w)   handedness never blended
// Every other attribute (texture coordinates, colours, joints, weights) is copied unchanged.
// With recompute_flat_normals, each face's normal is recomputed from the morphed positions and
// tangents are re-orthogonalised against it.
#include <cstddef>
#include <span>

#include "marrow/runtime/morph_target_data.hpp"

namespace marrow {

// Blends into out (exactly base_vertex_bytes.size() bytes): MorphBlendJob with the seed's
// exceptions. Throws std::runtime_error unless
// weights has exactly target_count() entries (no padding, no truncation), and
// std::invalid_argument when out has the wrong size. The carrier is assumed valid (validate()
// once after building it); nothing here allocates.
void blend_morph_targets(const MorphTargetData& morph, std::span<const float> weights, std::span<std::byte> out);

// Writes each triangle's face normal (from the positions in vertex_bytes) into the normal slot
// of its three vertices and re-orthogonalises their tangents. Meant for fully split primitives,
// where every vertex belongs to one face; a degenerate face leaves its vertices unchanged.
void recompute_flat_normals(std::span<std::byte> vertex_bytes, const VertexLayout& layout,
                            std::span<const std::uint32_t> triangle_indices);

}  // namespace marrow
