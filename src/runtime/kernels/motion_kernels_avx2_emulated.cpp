// The motion-matching kernels' avx2 copy through SIMDe, for processors without avx2
// (lanes.hpp; CMake compiles this file for SSE2 only).
#define MARROW_SIMD_NS avx2_emulated
#define MARROW_SIMD_LEVEL 1
#define MARROW_SIMD_EMULATED 1
#include "motion_kernels.inl"
