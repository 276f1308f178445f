#include "retarget_kernels.hpp"

#include "kernel_choice.hpp"

namespace marrow::detail {

const RetargetKernels& retarget_kernels(SimdChoice choice) noexcept {
  return kernel_table(choice, sse2::kRetargetKernels, avx2::kRetargetKernels, avx512::kRetargetKernels,
                      MARROW_EMULATED_TABLES(kRetargetKernels));
}

}  // namespace marrow::detail
