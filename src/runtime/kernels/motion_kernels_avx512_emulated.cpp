// The motion-matching kernels' avx512 copy through SIMDe, for processors without avx512
// (lanes.hpp; CMake compiles this file for SSE2 only).
#define MARROW_SIMD_NS avx512_emulated
#define MARROW_SIMD_LEVEL 2
#define MARROW_SIMD_EMULATED 1
#include "motion_kernels.inl"
