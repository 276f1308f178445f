// The dual-quaternion skinning kernels for sse2 (see dual_quaternion_kernels.inl; CMake sets this
// file's instruction set).
#define MARROW_SIMD_NS sse2
#define MARROW_SIMD_LEVEL 0
#include "dual_quaternion_kernels.inl"
