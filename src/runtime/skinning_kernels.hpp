#pragma once
// Private: the loops of the skinning job, one table per instruction set (skinning_kernels.inl
// compiled by skinning_kernels_sse2/avx2/avx512.cpp). Raw pointers and byte strides only; the
// job has checked every size, stride and pairing before a kernel runs.
#include <cstddef>
#include <cstdint>

#include "marrow/runtime/simd_level.hpp"

namespace marrow::detail {

struct SkinningArgs {
  const float* palette;          // 16 floats per matrix, column-major (glm's layout)
  std::uint32_t last_joint;      // joint indices are clamped to this (palette size - 1)
  std::size_t count;             // vertices
  const std::byte* joints;       // 4 x uint16 per vertex
  std::size_t joints_stride;
  const std::byte* weights;      // 4 x float per vertex
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
};

using SkinningKernel = void (*)(const SkinningArgs& args) noexcept;

// One loop per attribute set; "unit" ones renormalise the skinned normals and tangents.
struct SkinningKernels {
  SkinningKernel positions;
  SkinningKernel positions_normals;
  SkinningKernel positions_normals_unit;
  SkinningKernel positions_tangents;
  SkinningKernel positions_tangents_unit;
  SkinningKernel positions_normals_tangents;
  SkinningKernel positions_normals_tangents_unit;
};

const SkinningKernels& skinning_kernels(SimdLevel level) noexcept;

namespace sse2 { extern const SkinningKernels kSkinningKernels; }
namespace avx2 { extern const SkinningKernels kSkinningKernels; }
namespace avx512 { extern const SkinningKernels kSkinningKernels; }

}  // namespace marrow::detail
