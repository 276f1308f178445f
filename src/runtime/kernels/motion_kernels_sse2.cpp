// The motion-matching kernels for sse2 (see motion_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS sse2
#define MARROW_SIMD_LEVEL 0
#include "motion_kernels.inl"
