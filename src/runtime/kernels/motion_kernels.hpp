#pragma once
// Private: the distances of motion matching's search (model/motion_database.hpp), one table per
// instruction set (motion_kernels.inl compiled by motion_kernels_sse2/avx2/avx512.cpp).
//
// Rows, boxes and the query are 32 floats (27 features, then zeros). A distance is the sum of 32
// squared terms in one fixed tree: term c plus term c + 16, those sixteen sums halved the same
// way down to one (c + 8, c + 4, c + 2, c + 1), with no fused multiply-add. Every level, emulated
// or not, computes that tree, so each distance is the same float on every level; and a box's
// terms are each no larger than any of its rows' in the same place, so its distance never exceeds
// theirs in floating point (rounding is monotone). Plain pointers: the database checked sizes.
#include <cstddef>

#include "marrow/runtime/simd_level.hpp"

namespace marrow::detail {

inline constexpr std::size_t kMotionRowFloats = 32;

struct MotionKernels {
  // costs[i] = the squared distance from query to row i of rows (kMotionRowFloats apart).
  void (*row_costs)(const float* query, const float* rows, std::size_t count, float* costs);
  // costs[i] = the squared distance from query to box i (corners lo and hi, kMotionRowFloats
  // apart): the sum over columns of max(lo - q, 0, q - hi)^2.
  void (*box_costs)(const float* query, const float* lo, const float* hi, std::size_t count, float* costs);
};

const MotionKernels& motion_kernels(SimdChoice choice) noexcept;

namespace sse2 { extern const MotionKernels kMotionKernels; }
namespace avx2 { extern const MotionKernels kMotionKernels; }
namespace avx512 { extern const MotionKernels kMotionKernels; }
namespace avx2_emulated { extern const MotionKernels kMotionKernels; }
namespace avx512_emulated { extern const MotionKernels kMotionKernels; }

}  // namespace marrow::detail
