#pragma once
// The skinning job: CPU skinning of positions, normals and tangents over strided spans, so it
// runs on interleaved vertex bytes and on separate arrays alike. Every vertex has `influences`
// (joint, weight) pairs (S1; G19's four by default).
//
// Linear (linear-blend skinning, the default):
//   S         = sum_i w_i * palette[j_i]                  (i < influences; weights used as given)
//   position' = S * (position, 1)                         (xyz)
//   normal'   = normalize(N * normal)                     (N * normal when !normalize)
//   tangent'  = (normalize(mat3(S) * tangent.xyz), tangent.w)   (w, the handedness, copied)
// with N = mat3(S) when every palette matrix is a rotation (or mirror) times one scale factor,
// and N = sign(det S) * cofactor(mat3(S)) = |det S| * inverse(transpose(mat3(S))) when some
// matrix scales unevenly or shears (S2: the inverse transpose, up to a positive factor that
// normalising removes; finite even when S is singular). Tangents are surface directions and
// follow mat3(S) in both cases, which keeps them perpendicular to the normals.
//
// DualQuaternion (S3; palette from DualQuaternionPaletteJob: per joint the rigid part as a unit
// dual quaternion q_j and the scale/shear part S_j):
//   q   = sum_i s_i * w_i * q_{j_i}, s_i = +1 or -1 so that each real part lies in the first
//         influence's hemisphere (dot(real_i, real_0) >= 0; the antipodality fix)
//   q  /= |real(q)|;  R, t = q's rotation and translation;  Ss = sum_i w_i S_{j_i} / sum_i w_i
//   M   = [R * Ss | t]                                     (Ss = identity for a rigid palette)
//   position', normal', tangent' = as above with S = M (normals through the cofactor when the
//         scale/shear parts are not all multiples of the identity)
// On a vertex with a single influence this is the palette matrix itself, as linear blending
// gives (to rounding). The weights' sum does not scale the vertex (it does in Linear mode).
//
// normalize() keeps a zero vector zero. Pass palette matrices that map to the space you want
// out: the skin transforms give model space. The optional root (an affine matrix, e.g. the mesh
// node's world: draw * palette gives world space) applies after the blend, without a palette
// copy:
//   position'' = root * position',  tangent'' = mat3(root) * tangent' (before normalising)
//   normal''   = R * normal' (before normalising), R = mat3(root), or sign(det) * cofactor of it
//               when root scales unevenly (S2)
// The fourth row of the palette matrices and of root is not read (affine matrices).
//
// X3: validate() checks everything once and names the field at fault; run() repeats only the
// O(1) checks (sizes, strides, pairing, influences) and the O(palette) classification of
// Detect, returns false and writes nothing when they fail, and otherwise skins every vertex.
// run() never throws and never allocates. A joint index outside the palette is NOT checked by
// run(): it is skinned with the last palette entry (the index is clamped, so nothing outside
// the palette is ever read); validate() reports it as ("joints", "has an index outside the
// palette").
//
// Sizes: in_positions.size() vertices are skinned; every other given span needs at least that
// many elements (only the first in_positions.size() are read or written). Joints and weights are
// rows: vertex v's `influences` indices (uint16) start at joints.data() + v * joints.stride(),
// its weights (float) likewise; a span of glm::u16vec4 / glm::vec4 converts to such rows (four
// per vertex). Normals and tangents are optional, each as an in/out pair (both empty to skip).
// An output may be the very memory of its own input (in place: same pointer and stride); no
// other overlap is allowed. Each output element's bytes are the only ones written (a vec3 output
// writes 12 bytes per vertex, so outputs may be interleaved with other attributes), and only
// each row's own bytes are read. Elements need no alignment.
//
// The loops are compiled for SSE2, AVX2+FMA and AVX-512 and picked at run time
// (simd_level.hpp); every level gives the same results to float rounding. Linear has loops for
// 1, 2, 4 and 8 influences and one for any count; DualQuaternion for 4 and for any count.
//
//   SkinningJob job;
//   job.palette = palette;                       // e.g. SkinPaletteJob's output
//   job.joints = joints; job.weights = weights;
//   job.in_positions = in; job.out_positions = out;
//   if (const JobStatus s = job.validate(); !s) log(s.message("SkinningJob"));  // once, at load
//   job.run();                                   // every frame
#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <glm/gtc/type_precision.hpp>

#include "marrow/core/strided_span.hpp"
#include "marrow/runtime/dual_quaternion_palette_job.hpp"
#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/palette_scale.hpp"

namespace marrow {

enum class SkinningMode : std::uint8_t { Linear, DualQuaternion };

struct SkinningJob {
  std::span<const glm::mat4> palette;        // Linear: the joint matrices
  StridedSpan<const std::uint16_t> joints;   // rows of `influences` palette indices
  StridedSpan<const float> weights;          // rows of `influences` weights
  StridedSpan<const glm::vec3> in_positions;
  StridedSpan<glm::vec3> out_positions;
  StridedSpan<const glm::vec3> in_normals;   // optional: leave both normal spans empty to skip
  StridedSpan<glm::vec3> out_normals;
  StridedSpan<const glm::vec4> in_tangents;  // optional: xyz skinned, w copied
  StridedSpan<glm::vec4> out_tangents;
  bool normalize = true;                     // renormalise the skinned normals and tangents
  std::uint32_t influences = 4;              // (joint, weight) pairs per vertex, >= 1 (S1)
  // S2: what the palette's matrices do (palette_scale.hpp). Detect classifies it in run();
  // Rigid and Uniform skin normals with the blended matrix, NonUniform with its cofactor.
  PaletteScale palette_scale = PaletteScale::Detect;
  SkinningMode mode = SkinningMode::Linear;  // S3
  // DualQuaternion mode (palette is then not read): DualQuaternionPaletteJob's outputs. Leave
  // scale_shear empty for a rigid palette; with palette_scale Detect it is classified in run().
  std::span<const SkinDualQuaternion> dual_quaternions;
  std::span<const glm::mat4> scale_shear;
  const glm::mat4* root = nullptr;           // optional: every result through it (above)

  // Every check, including one pass over the joint indices (O(vertices x influences)). The
  // problems, by field:
  //   in_positions / out_positions / joints / weights / in_normals / out_normals / in_tangents /
  //   out_tangents: "has fewer elements than in_positions", "has a stride smaller than its
  //   element" (joints and weights: than a row of `influences`), "has no data" (null with
  //   elements);
  //   influences "is 0";
  //   out_positions "is given without in_positions";
  //   out_normals "is given without in_normals", "is empty while in_normals is given" (and the
  //   same for tangents);
  //   palette "is empty while vertices are given" (Linear);
  //   dual_quaternions "is empty while vertices are given" (DualQuaternion);
  //   scale_shear "has fewer elements than dual_quaternions" (when given), "is empty while
  //   palette_scale is Uniform or NonUniform" (DualQuaternion);
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
