#include "motion_kernels.hpp"

#include "kernel_choice.hpp"

namespace marrow::detail {

const MotionKernels& motion_kernels(SimdChoice choice) noexcept {
  return kernel_table(choice, sse2::kMotionKernels, avx2::kMotionKernels, avx512::kMotionKernels,
                      MARROW_EMULATED_TABLES(kMotionKernels));
}

}  // namespace marrow::detail
