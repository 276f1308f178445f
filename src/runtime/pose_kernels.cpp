#include "pose_kernels.hpp"

namespace marrow::detail {

const PoseKernels& pose_kernels(SimdLevel level) noexcept {
#if defined(__x86_64__)
  switch (level) {
    case SimdLevel::Avx512: return avx512::kPoseKernels;
    case SimdLevel::Avx2: return avx2::kPoseKernels;
    case SimdLevel::Sse2: break;
  }
#else
  (void)level;
#endif
  return sse2::kPoseKernels;
}

}  // namespace marrow::detail
