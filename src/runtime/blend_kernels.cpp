#include "blend_kernels.hpp"

namespace marrow::detail {

const BlendKernels& blend_kernels(SimdLevel level) noexcept {
#if defined(__x86_64__)
  switch (level) {
    case SimdLevel::Avx512: return avx512::kBlendKernels;
    case SimdLevel::Avx2: return avx2::kBlendKernels;
    case SimdLevel::Sse2: break;
  }
#else
  (void)level;
#endif
  return sse2::kBlendKernels;
}

}  // namespace marrow::detail
