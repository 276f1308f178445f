// The retarget kernel for avx2 (see retarget_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS avx2
#define MARROW_SIMD_LEVEL 1
#include "retarget_kernels.inl"
