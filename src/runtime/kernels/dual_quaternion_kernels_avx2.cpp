// The dual-quaternion skinning kernels for avx2 (see dual_quaternion_kernels.inl; CMake sets this
// file's instruction set).
#define MARROW_SIMD_NS avx2
#define MARROW_SIMD_LEVEL 1
#include "dual_quaternion_kernels.inl"
