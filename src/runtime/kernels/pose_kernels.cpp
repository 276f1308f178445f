#include "pose_kernels.hpp"

#include "kernel_choice.hpp"

namespace marrow::detail {

const PoseKernels& pose_kernels(SimdChoice choice) noexcept {
  return kernel_table(choice, sse2::kPoseKernels, avx2::kPoseKernels, avx512::kPoseKernels, MARROW_EMULATED_TABLES(kPoseKernels));
}

}  // namespace marrow::detail
