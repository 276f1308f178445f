// The dual-quaternion skinning kernels for avx512 (see dual_quaternion_kernels.inl; CMake sets this
// file's instruction set).
#define MARROW_SIMD_NS avx512
#define MARROW_SIMD_LEVEL 2
#include "dual_quaternion_kernels.inl"
