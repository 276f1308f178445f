#include "blend_kernels.hpp"

#include "kernel_choice.hpp"

namespace marrow::detail {

const BlendKernels& blend_kernels(SimdChoice choice) noexcept {
  return kernel_table(choice, sse2::kBlendKernels, avx2::kBlendKernels, avx512::kBlendKernels, MARROW_EMULATED_TABLES(kBlendKernels));
}

}  // namespace marrow::detail
