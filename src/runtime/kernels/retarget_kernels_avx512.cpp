// The retarget kernel for avx512 (see retarget_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS avx512
#define MARROW_SIMD_LEVEL 2
#include "retarget_kernels.inl"
