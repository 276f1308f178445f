#pragma once
// S3: a palette made ready for dual-quaternion skinning, once per frame per palette (O(joints)).
//
// Each palette matrix M = [A | t] (A its 3x3 part) is split into a rigid part and the rest, as
// Kavan, Collins, Zara and O'Sullivan propose for joints that scale ("Geometric skinning with
// approximate dual quaternion blending", ACM TOG 27(4), 2008: the scale/shear parts are blended
// linearly and applied first, the rigid parts by dual-quaternion blending):
//
//   R = the rotation nearest to sign(det A) * A (its polar decomposition's orthogonal factor,
//       the rotation that maximises trace(R^T A'); found in double precision by the iteration
//       of Mueller, Bender, Chentanez and Macklin, "A robust method to extract the rotational
//       part of deformations" (2016), from the Gram-Schmidt frame of A's columns, which it
//       already is when A is a rotation times one scale factor)
//   S = R^T * A, the scale/shear part (symmetric; negative definite for a mirroring matrix, so
//       a mirror is carried by S, never by the rotation)
//   real = R as a unit quaternion (w >= 0), dual = 0.5 * (t, 0) * real
//
// so that M * v = R * (S * v) + t exactly (up to rounding). SkinningJob in DualQuaternion mode
// reads `out_dual_quaternions` and, unless the palette is rigid (S = identity everywhere), the
// S matrices from `out_scale_shear`.
//
// X3: validate() names the field; run() never throws or allocates and writes nothing when
// validate() fails. A matrix with NaN or infinite values gives NaN entries (no error).
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "marrow/runtime/job_status.hpp"

namespace marrow {

struct SkinDualQuaternion {
  glm::vec4 real{0.f, 0.f, 0.f, 1.f};  // the rotation (x, y, z, w)
  glm::vec4 dual{0.f};                 // 0.5 * (translation, 0) * real, as a quaternion product
};
static_assert(sizeof(SkinDualQuaternion) == 32, "the kernels read 32 bytes per joint");

struct DualQuaternionPaletteJob {
  std::span<const glm::mat4> palette;                   // e.g. SkinPaletteJob's output
  std::span<SkinDualQuaternion> out_dual_quaternions;   // at least palette.size() elements
  std::span<glm::mat4> out_scale_shear;                 // empty (nothing written), or at least
                                                        // palette.size(): S in columns 0-2,
                                                        // column 3 = (0, 0, 0, 1)

  // out_dual_quaternions / out_scale_shear "has fewer elements than palette".
  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
