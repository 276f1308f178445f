#pragma once
// Private: the vector types of the runtime's kernels, compiled once per instruction set.
//
// A kernel source (e.g. pose_kernels.inl) is included by one .cpp per level
// (pose_kernels_sse2.cpp, _avx2.cpp, _avx512.cpp, and the emulated _avx2_emulated.cpp,
// _avx512_emulated.cpp); each defines MARROW_SIMD_NS and MARROW_SIMD_LEVEL before including
// this header, so every inline function here lives in a namespace of its own copy and the linker
// can never merge an AVX-512 copy into SSE2 code. Kernel sources must not call inline functions
// of other headers (glm, std algorithms) for the same reason: plain floats in, plain floats out.
//
// Kernel sources test MARROW_SIMD_LEVEL (0 SSE2, 1 AVX2 + FMA, 2 AVX-512 F/VL/DQ/BW), never the
// compiler's __AVX2__ or __AVX512F__: an emulated copy (MARROW_SIMD_EMULATED) is compiled for
// SSE2 only and gets the wider intrinsics, with the same names and types, from SIMDe's portable
// versions (simde_gaps.hpp adds the few SIMDe 0.7.4 lacks). It runs the level's logic on any
// x86-64 processor (simd_level.hpp).
//
//   F8  eight floats: one AVX register, or two SSE registers (two dependency chains)
//   F4  four floats (one SSE register; VEX/EVEX-encoded with FMA at the higher levels)
#ifndef MARROW_SIMD_NS
#error "define MARROW_SIMD_NS (sse2, avx2, avx512, avx2_emulated, avx512_emulated) before including lanes.hpp"
#endif
#ifndef MARROW_SIMD_LEVEL
#error "define MARROW_SIMD_LEVEL (0 = sse2, 1 = avx2, 2 = avx512) before including lanes.hpp"
#endif

#include <cstdint>

#if defined(MARROW_SIMD_EMULATED)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include "simde_gaps.hpp"
#else
#include <immintrin.h>
#if MARROW_SIMD_LEVEL >= 1 && !(defined(__AVX2__) && defined(__FMA__))
#error "this file's level needs -mavx2 -mfma (src/CMakeLists.txt)"
#endif
#if MARROW_SIMD_LEVEL >= 2 && !(defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512DQ__) && defined(__AVX512BW__))
#error "this file's level needs -mavx512f -mavx512vl -mavx512dq -mavx512bw (src/CMakeLists.txt)"
#endif
#endif

// Forced inlining keeps the kernels' lanes in registers. Instrumented builds (sanitizers, fuzzing)
// and the emulated copies (tests only) leave the choice to the compiler: the same code, compiled
// in minutes instead of tens of them.
#if defined(MARROW_INSTRUMENTED) || defined(MARROW_SIMD_EMULATED)
#define MARROW_LANES_INLINE inline
#else
#define MARROW_LANES_INLINE inline __attribute__((always_inline))
#endif

namespace marrow::simd::MARROW_SIMD_NS {

struct F4 {
  __m128 v;
  static MARROW_LANES_INLINE F4 load(const float* p) { return {_mm_loadu_ps(p)}; }
  static MARROW_LANES_INLINE F4 splat(float x) { return {_mm_set1_ps(x)}; }
  MARROW_LANES_INLINE void store(float* p) const { _mm_storeu_ps(p, v); }
  friend MARROW_LANES_INLINE F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F4 operator-(F4 a, F4 b) { return {_mm_sub_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F4 operator*(F4 a, F4 b) { return {_mm_mul_ps(a.v, b.v)}; }
};

// a * b + c, fused where the level has FMA.
MARROW_LANES_INLINE F4 fma(F4 a, F4 b, F4 c) {
#if MARROW_SIMD_LEVEL >= 1
  return {_mm_fmadd_ps(a.v, b.v, c.v)};
#else
  return {_mm_add_ps(_mm_mul_ps(a.v, b.v), c.v)};
#endif
}

// Lane k of a broadcast to all four lanes.
template <int k>
MARROW_LANES_INLINE F4 broadcast(F4 a) {
  return {_mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(k, k, k, k))};
}

#if MARROW_SIMD_LEVEL >= 1

struct F8 {
  __m256 v;
  static MARROW_LANES_INLINE F8 load(const float* p) { return {_mm256_loadu_ps(p)}; }
  static MARROW_LANES_INLINE F8 splat(float x) { return {_mm256_set1_ps(x)}; }
  MARROW_LANES_INLINE void store(float* p) const { _mm256_storeu_ps(p, v); }
  friend MARROW_LANES_INLINE F8 operator+(F8 a, F8 b) { return {_mm256_add_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F8 operator-(F8 a, F8 b) { return {_mm256_sub_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F8 operator*(F8 a, F8 b) { return {_mm256_mul_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F8 operator/(F8 a, F8 b) { return {_mm256_div_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F8 operator&(F8 a, F8 b) { return {_mm256_and_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F8 operator|(F8 a, F8 b) { return {_mm256_or_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F8 operator^(F8 a, F8 b) { return {_mm256_xor_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F8 operator==(F8 a, F8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ)}; }
  friend MARROW_LANES_INLINE F8 operator<(F8 a, F8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ)}; }
  friend MARROW_LANES_INLINE F8 operator>=(F8 a, F8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OQ)}; }
};
MARROW_LANES_INLINE F8 fma(F8 a, F8 b, F8 c) {
  return {_mm256_fmadd_ps(a.v, b.v, c.v)};
}
MARROW_LANES_INLINE F8 min_of(F8 a, F8 b) { return {_mm256_min_ps(a.v, b.v)}; }
MARROW_LANES_INLINE F8 max_of(F8 a, F8 b) { return {_mm256_max_ps(a.v, b.v)}; }
MARROW_LANES_INLINE F8 sqrt_of(F8 a) { return {_mm256_sqrt_ps(a.v)}; }
MARROW_LANES_INLINE F8 rsqrt_estimate(F8 a) { return {_mm256_rsqrt_ps(a.v)}; }
// mask ? a : b (mask lanes all ones or all zeros).
MARROW_LANES_INLINE F8 select(F8 mask, F8 a, F8 b) { return {_mm256_blendv_ps(b.v, a.v, mask.v)}; }
// True when any lane of the mask is set.
MARROW_LANES_INLINE bool any(F8 mask) { return _mm256_movemask_ps(mask.v) != 0; }

#else

struct F8 {
  __m128 lo, hi;
  static MARROW_LANES_INLINE F8 load(const float* p) { return {_mm_loadu_ps(p), _mm_loadu_ps(p + 4)}; }
  static MARROW_LANES_INLINE F8 splat(float x) { return {_mm_set1_ps(x), _mm_set1_ps(x)}; }
  MARROW_LANES_INLINE void store(float* p) const {
    _mm_storeu_ps(p, lo);
    _mm_storeu_ps(p + 4, hi);
  }
#define MARROW_F8_BINARY(op, fn) \
  friend MARROW_LANES_INLINE F8 operator op(F8 a, F8 b) { return {fn(a.lo, b.lo), fn(a.hi, b.hi)}; }
  MARROW_F8_BINARY(+, _mm_add_ps)
  MARROW_F8_BINARY(-, _mm_sub_ps)
  MARROW_F8_BINARY(*, _mm_mul_ps)
  MARROW_F8_BINARY(/, _mm_div_ps)
  MARROW_F8_BINARY(&, _mm_and_ps)
  MARROW_F8_BINARY(|, _mm_or_ps)
  MARROW_F8_BINARY(^, _mm_xor_ps)
  MARROW_F8_BINARY(==, _mm_cmpeq_ps)
  MARROW_F8_BINARY(<, _mm_cmplt_ps)
  MARROW_F8_BINARY(>=, _mm_cmpge_ps)
#undef MARROW_F8_BINARY
};
MARROW_LANES_INLINE F8 fma(F8 a, F8 b, F8 c) { return a * b + c; }
MARROW_LANES_INLINE F8 min_of(F8 a, F8 b) { return {_mm_min_ps(a.lo, b.lo), _mm_min_ps(a.hi, b.hi)}; }
MARROW_LANES_INLINE F8 max_of(F8 a, F8 b) { return {_mm_max_ps(a.lo, b.lo), _mm_max_ps(a.hi, b.hi)}; }
MARROW_LANES_INLINE F8 sqrt_of(F8 a) { return {_mm_sqrt_ps(a.lo), _mm_sqrt_ps(a.hi)}; }
MARROW_LANES_INLINE F8 rsqrt_estimate(F8 a) { return {_mm_rsqrt_ps(a.lo), _mm_rsqrt_ps(a.hi)}; }
MARROW_LANES_INLINE F8 select(F8 m, F8 a, F8 b) {
  return {_mm_or_ps(_mm_and_ps(m.lo, a.lo), _mm_andnot_ps(m.lo, b.lo)),
          _mm_or_ps(_mm_and_ps(m.hi, a.hi), _mm_andnot_ps(m.hi, b.hi))};
}
MARROW_LANES_INLINE bool any(F8 mask) { return (_mm_movemask_ps(mask.lo) | _mm_movemask_ps(mask.hi)) != 0; }

#endif

// 1 / sqrt(a) for a > 0, to about 2 ulp: the hardware estimate and one Newton step.
MARROW_LANES_INLINE F8 rsqrt_of(F8 a) {
  const F8 y = rsqrt_estimate(a);
  const F8 half_a = a * F8::splat(0.5f);
  return y * (F8::splat(1.5f) - half_a * y * y);
}

#if MARROW_SIMD_LEVEL >= 2

// Sixteen floats: one AVX-512 register (the avx512 level only).
struct F16 {
  __m512 v;
  static MARROW_LANES_INLINE F16 load(const float* p) { return {_mm512_loadu_ps(p)}; }
  static MARROW_LANES_INLINE F16 splat(float x) { return {_mm512_set1_ps(x)}; }
  MARROW_LANES_INLINE void store(float* p) const { _mm512_storeu_ps(p, v); }
  friend MARROW_LANES_INLINE F16 operator+(F16 a, F16 b) { return {_mm512_add_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F16 operator-(F16 a, F16 b) { return {_mm512_sub_ps(a.v, b.v)}; }
  friend MARROW_LANES_INLINE F16 operator*(F16 a, F16 b) { return {_mm512_mul_ps(a.v, b.v)}; }
};
MARROW_LANES_INLINE F16 fma(F16 a, F16 b, F16 c) { return {_mm512_fmadd_ps(a.v, b.v, c.v)}; }
MARROW_LANES_INLINE F16 min_of(F16 a, F16 b) { return {_mm512_min_ps(a.v, b.v)}; }
MARROW_LANES_INLINE F16 max_of(F16 a, F16 b) { return {_mm512_max_ps(a.v, b.v)}; }
// 1 / sqrt(a) for a > 0, to about 1 ulp: the 14-bit estimate and one Newton step.
MARROW_LANES_INLINE F16 rsqrt_of(F16 a) {
  const __m512 y = _mm512_rsqrt14_ps(a.v);
  const __m512 half_a = _mm512_mul_ps(a.v, _mm512_set1_ps(0.5f));
  return {_mm512_mul_ps(y, _mm512_fnmadd_ps(_mm512_mul_ps(half_a, y), y, _mm512_set1_ps(1.5f)))};
}

#endif

}  // namespace marrow::simd::MARROW_SIMD_NS
