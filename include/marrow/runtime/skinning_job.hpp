#pragma once
// CPU linear-blend skinning (G19: four joint indices and weights per vertex) over strided spans,
// so it runs on interleaved vertex bytes and on separate arrays alike.
//
//   position' = sum_i w_i * palette[j_i] * (position, 1)
//   normal'   = normalize(sum_i w_i * mat3(palette[j_i]) * normal)
//   tangent'  = (normalize(sum_i w_i * mat3(palette[j_i]) * tangent.xyz), tangent.w)
//
// Pass palette matrices that map to the space you want out: the skin transforms give model
// space; pre-multiplied by the mesh node's world matrix (draw * palette) they give world space.
// Usage, in the style of a job: fill the fields, then run(). Nothing is allocated.
#include <cstddef>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <glm/gtc/type_precision.hpp>

#include "marrow/core/strided_span.hpp"

namespace marrow {

struct SkinningJob {
  std::span<const glm::mat4> palette;
  StridedSpan<const glm::u16vec4> joints;    // palette indices
  StridedSpan<const glm::vec4> weights;
  StridedSpan<const glm::vec3> in_positions;
  StridedSpan<glm::vec3> out_positions;
  StridedSpan<const glm::vec3> in_normals;   // optional: leave both normal spans empty to skip
  StridedSpan<glm::vec3> out_normals;
  StridedSpan<const glm::vec4> in_tangents;  // optional: xyz skinned, w copied
  StridedSpan<glm::vec4> out_tangents;

  // Throws std::invalid_argument naming the span whose size differs from in_positions, or an
  // input given without its output (or the reverse).
  void validate() const;

  // validate(), then skins every vertex. A joint index outside the palette throws
  // std::out_of_range naming the vertex and index (vertices before it are already written).
  void run() const;
};

}  // namespace marrow
