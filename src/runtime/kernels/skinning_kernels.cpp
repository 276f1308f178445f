#include "skinning_kernels.hpp"

#include "kernel_choice.hpp"

namespace marrow::detail {

const SkinningKernels& skinning_kernels(SimdChoice choice) noexcept {
  return kernel_table(choice, sse2::kSkinningKernels, avx2::kSkinningKernels, avx512::kSkinningKernels,
                      MARROW_EMULATED_TABLES(kSkinningKernels));
}

const DualQuaternionKernels& dual_quaternion_kernels(SimdChoice choice) noexcept {
  return kernel_table(choice, sse2::kDualQuaternionKernels, avx2::kDualQuaternionKernels, avx512::kDualQuaternionKernels,
                      MARROW_EMULATED_TABLES(kDualQuaternionKernels));
}

}  // namespace marrow::detail
