#pragma once
// Private: the loops of the skinning job, one table per instruction set: linear blending
// (skinning_kernels.inl, compiled by skinning_kernels_sse2/avx2/avx512.cpp) and dual-quaternion
// blending (dual_quaternion_kernels.inl, by dual_quaternion_kernels_*.cpp). Raw pointers and
// byte strides only; the job has checked every size, stride and pairing before a kernel runs.
#include <array>
#include <cstddef>
#include <cstdint>

#include "marrow/runtime/simd_level.hpp"

namespace marrow::detail {

struct SkinningArgs {
  const float* palette;          // Linear: 16 floats per matrix, column-major (glm's layout);
                                 // DualQuaternion: 8 floats per joint (real xyzw, dual xyzw)
  const float* scale_shear;      // DualQuaternion: 16 floats per joint (not read by the rigid loops)
  std::uint32_t last_joint;      // joint indices are clamped to this (palette size - 1)
  std::uint32_t influences;      // per vertex, >= 1 (the kernels for 1, 2, 4, 8 assume theirs)
  std::size_t count;             // vertices
  const std::byte* joints;       // rows of `influences` uint16
  std::size_t joints_stride;
  const std::byte* weights;      // rows of `influences` float
  std::size_t weights_stride;
  const std::byte* in_positions;  // 3 x float per vertex
  std::size_t in_positions_stride;
  std::byte* out_positions;
  std::size_t out_positions_stride;
  const std::byte* in_normals;    // 3 x float, or null for the kernels without normals
  std::size_t in_normals_stride;
  std::byte* out_normals;
  std::size_t out_normals_stride;
  const std::byte* in_tangents;   // 4 x float, or null for the kernels without tangents
  std::size_t in_tangents_stride;
  std::byte* out_tangents;
  std::size_t out_tangents_stride;
  // The optional root: every result through it after skinning (positions by root, normals by
  // root_normals, tangents by root's 3x3), 16 floats each, column-major; null: none.
  const float* root;
  const float* root_normals;
};

using SkinningKernel = void (*)(const SkinningArgs& args) noexcept;

// One loop per attribute set: "unit" ones renormalise the skinned normals and tangents,
// "cofactor" ones skin normals with the blended matrix's cofactor (S2).
enum SkinningAttributes : int {
  kPositions,
  kPositionsNormals,
  kPositionsNormalsUnit,
  kPositionsTangents,
  kPositionsTangentsUnit,
  kPositionsNormalsTangents,
  kPositionsNormalsTangentsUnit,
  kPositionsNormalsCofactor,
  kPositionsNormalsUnitCofactor,
  kPositionsNormalsTangentsCofactor,
  kPositionsNormalsTangentsUnitCofactor,
  kSkinningAttributeSets
};

// Influence counts with loops of their own; kAnyInfluences reads args.influences.
enum SkinningInfluences : int { kOneInfluence, kTwoInfluences, kFourInfluences, kEightInfluences, kAnyInfluences,
                                kSkinningInfluenceClasses };

struct SkinningKernels {
  using Row = std::array<SkinningKernel, kSkinningAttributeSets>;
  std::array<Row, kSkinningInfluenceClasses> linear;
};

// Dual-quaternion loops for four influences and for any count, each for a rigid palette (no
// scale/shear phase; args.scale_shear unused), uniform scales (each scale/shear matrix s I: only
// s is blended) and any scale/shear.
enum DualQuaternionInfluences : int { kDualQuaternionFour, kDualQuaternionAny, kDualQuaternionInfluenceClasses };
enum DualQuaternionScale : int { kDualQuaternionRigid, kDualQuaternionUniform, kDualQuaternionScaleShear,
                                 kDualQuaternionScales };

struct DualQuaternionKernels {
  using Row = std::array<SkinningKernel, kSkinningAttributeSets>;
  using Rows = std::array<Row, kDualQuaternionScales>;
  std::array<Rows, kDualQuaternionInfluenceClasses> blend;
};

const SkinningKernels& skinning_kernels(SimdChoice choice) noexcept;
const DualQuaternionKernels& dual_quaternion_kernels(SimdChoice choice) noexcept;

namespace sse2 {
extern const SkinningKernels kSkinningKernels;
extern const DualQuaternionKernels kDualQuaternionKernels;
}  // namespace sse2
namespace avx2 {
extern const SkinningKernels kSkinningKernels;
extern const DualQuaternionKernels kDualQuaternionKernels;
}  // namespace avx2
namespace avx512 {
extern const SkinningKernels kSkinningKernels;
extern const DualQuaternionKernels kDualQuaternionKernels;
}  // namespace avx512
namespace avx2_emulated {
extern const SkinningKernels kSkinningKernels;
extern const DualQuaternionKernels kDualQuaternionKernels;
}  // namespace avx2_emulated
namespace avx512_emulated {
extern const SkinningKernels kSkinningKernels;
extern const DualQuaternionKernels kDualQuaternionKernels;
}  // namespace avx512_emulated

}  // namespace marrow::detail
