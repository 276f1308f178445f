#pragma once
// Private: the retarget job's fast path over whole target pose blocks (retarget_job.hpp: local =
// normalize(L * q_s * offset) for the one-step mapped joints, the rest pose elsewhere), one
// table per instruction set (retarget_kernels.inl compiled by retarget_kernels_sse2/avx2/avx512.cpp).
// Plain pointers only: the job has checked the rig and the sizes.
#include <cstddef>

#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/retarget_job.hpp"
#include "marrow/runtime/simd_level.hpp"

namespace marrow::detail {

struct RetargetKernels {
  // For each of `count` blocks: target[block] = rest[block] with the rotations of its mapped
  // lanes replaced from source (RetargetRig::Block).
  void (*turn)(const RetargetRig::Block* blocks, std::size_t count, const TrsBlock* rest, const TrsBlock* source,
               TrsBlock* target);
};

const RetargetKernels& retarget_kernels(SimdChoice choice) noexcept;

namespace sse2 { extern const RetargetKernels kRetargetKernels; }
namespace avx2 { extern const RetargetKernels kRetargetKernels; }
namespace avx512 { extern const RetargetKernels kRetargetKernels; }
namespace avx2_emulated { extern const RetargetKernels kRetargetKernels; }
namespace avx512_emulated { extern const RetargetKernels kRetargetKernels; }

}  // namespace marrow::detail
