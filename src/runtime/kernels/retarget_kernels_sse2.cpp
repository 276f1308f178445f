// The retarget kernel for sse2 (see retarget_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS sse2
#define MARROW_SIMD_LEVEL 0
#include "retarget_kernels.inl"
