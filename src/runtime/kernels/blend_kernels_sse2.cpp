// The blending kernels for sse2 (see blend_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS sse2
#define MARROW_SIMD_LEVEL 0
#include "blend_kernels.inl"
