#pragma once
// The skinning job: CPU linear-blend skinning (G19: four joint indices and weights per vertex)
// over strided spans, so it runs on interleaved vertex bytes and on separate arrays alike.
//
//   S         = sum_i w_i * palette[j_i]                  (i = 0..3; weights used as given)
//   position' = S * (position, 1)                         (xyz)
//   normal'   = normalize(mat3(S) * normal)               (mat3(S) * normal when !normalize)
//   tangent'  = (normalize(mat3(S) * tangent.xyz), tangent.w)   (w, the handedness, copied)
//
// normalize() keeps a zero vector zero. Pass palette matrices that map to the space you want
// out: the skin transforms give model space; pre-multiplied by the mesh node's world matrix
// (draw * palette) they give world space. The fourth row of the palette matrices is not read
// (affine matrices).
//
// X3: validate() checks everything once and names the field at fault; run() repeats only the
// O(1) checks (sizes, strides, pairing), returns false and writes nothing when they fail, and
// otherwise skins every vertex. run() never throws and never allocates. A joint index outside
// the palette is NOT checked by run(): it is skinned with the last palette matrix (the index is
// clamped, so nothing outside the palette is ever read); validate() reports it as
// ("joints", "has an index outside the palette").
//
// Sizes: in_positions.size() vertices are skinned; every other given span needs at least that
// many elements (only the first in_positions.size() are read or written). Normals and tangents
// are optional, each as an in/out pair (both empty to skip). An output may be the very memory of
// its own input (in place: same pointer and stride); no other overlap is allowed. Each output
// element's bytes are the only ones written (a vec3 output writes 12 bytes per vertex, so
// outputs may be interleaved with other attributes). Elements need no alignment.
//
// The loops are compiled for SSE2, AVX2+FMA and AVX-512 and picked at run time
// (simd_level.hpp); every level gives the same results to float rounding.
//
//   SkinningJob job;
//   job.palette = palette;                       // e.g. SkinPaletteJob's output
//   job.joints = joints; job.weights = weights;
//   job.in_positions = in; job.out_positions = out;
//   if (const JobStatus s = job.validate(); !s) log(s.message("SkinningJob"));  // once, at load
//   job.run();                                   // every frame
#include <cstddef>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <glm/gtc/type_precision.hpp>

#include "marrow/core/strided_span.hpp"
#include "marrow/runtime/job_status.hpp"

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
  bool normalize = true;                     // renormalise the skinned normals and tangents

  // Every check, including one pass over the joint indices (O(vertices)). The problems, by field:
  //   in_positions / out_positions / joints / weights / in_normals / out_normals / in_tangents /
  //   out_tangents: "has fewer elements than in_positions", "has a stride smaller than its
  //   element", "has no data" (null with elements);
  //   out_positions "is given without in_positions";
  //   out_normals "is given without in_normals", "is empty while in_normals is given" (and the
  //   same for tangents);
  //   palette "is empty while vertices are given";
  //   joints "has an index outside the palette".
  JobStatus validate() const noexcept;

  // The O(1) checks of validate(); false (nothing written) when they fail, else skins every
  // vertex and returns true.
  bool run() const noexcept;

  // For callers that keep exceptions: validate() (all of it), then run(). Throws
  // std::out_of_range naming the first vertex whose joint index is outside the palette, and
  // std::invalid_argument with validate()'s message (and the sizes) for everything else;
  // nothing is written when it throws.
  void run_or_throw() const;
};

}  // namespace marrow
