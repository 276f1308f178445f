// The motion-matching kernels for avx512 (see motion_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS avx512
#define MARROW_SIMD_LEVEL 2
#include "motion_kernels.inl"
