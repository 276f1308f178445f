// The motion-matching kernels for avx2 (see motion_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS avx2
#define MARROW_SIMD_LEVEL 1
#include "motion_kernels.inl"
