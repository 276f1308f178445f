#pragma once
// Private, emulated kernel copies only (lanes.hpp): the intrinsics the kernels use that SIMDe
// 0.7.4 (Debian 12's libsimde-dev) does not provide, written on SIMDe's own loads and stores,
// element by element as Intel's reference describes them. Speed does not matter here; these
// copies exist so that tests run every level's logic on every processor.
//
// The two estimates (rcp14, rsqrt14) are computed exactly: the hardware's tables are not
// specified beyond a relative error under 2^-14, so no emulation can give its bits. Kernels
// follow each estimate with a Newton step, and tests compare levels within tolerances.
#include <cmath>
#include <cstdint>
#include <cstring>

#ifndef SIMDE_ENABLE_NATIVE_ALIASES
#error "include through lanes.hpp (an emulated copy)"
#endif

typedef simde__mmask8 __mmask8;
typedef simde__mmask16 __mmask16;

namespace marrow::simd::gaps {

struct F16Lanes {
  alignas(64) float f[16];
};
struct I16Lanes {
  alignas(64) std::int32_t i[16];
};

inline F16Lanes lanes_of(__m512 a) {
  F16Lanes x;
  _mm512_storeu_ps(x.f, a);
  return x;
}

}  // namespace marrow::simd::gaps

static inline __m512 _mm512_undefined_ps() { return _mm512_setzero_ps(); }

static inline __m512 _mm512_rcp14_ps(__m512 a) {
  marrow::simd::gaps::F16Lanes x = marrow::simd::gaps::lanes_of(a);
  for (float& v : x.f) v = 1.f / v;
  return _mm512_loadu_ps(x.f);
}

static inline __m512 _mm512_rsqrt14_ps(__m512 a) {
  marrow::simd::gaps::F16Lanes x = marrow::simd::gaps::lanes_of(a);
  for (float& v : x.f) v = 1.f / std::sqrt(v);
  return _mm512_loadu_ps(x.f);
}

// Within each 128-bit lane: element i takes element (imm >> 2i) & 3 of the same lane.
static inline __m512 _mm512_permute_ps(__m512 a, int imm) {
  const marrow::simd::gaps::F16Lanes x = marrow::simd::gaps::lanes_of(a);
  marrow::simd::gaps::F16Lanes r;
  for (int lane = 0; lane < 4; ++lane) {
    for (int i = 0; i < 4; ++i) r.f[4 * lane + i] = x.f[4 * lane + ((imm >> (2 * i)) & 3)];
  }
  return _mm512_loadu_ps(r.f);
}

// 128-bit lanes: 0 and 1 from a, 2 and 3 from b, each chosen by two bits of imm.
static inline __m512 _mm512_shuffle_f32x4(__m512 a, __m512 b, int imm) {
  const marrow::simd::gaps::F16Lanes x = marrow::simd::gaps::lanes_of(a), y = marrow::simd::gaps::lanes_of(b);
  marrow::simd::gaps::F16Lanes r;
  for (int lane = 0; lane < 4; ++lane) {
    const float* from = (lane < 2 ? x.f : y.f) + 4 * ((imm >> (2 * lane)) & 3);
    std::memcpy(r.f + 4 * lane, from, 4 * sizeof(float));
  }
  return _mm512_loadu_ps(r.f);
}

// Eight floats, the low (imm 0) or high (imm 1) half.
static inline __m256 _mm512_extractf32x8_ps(__m512 a, int imm) {
  const marrow::simd::gaps::F16Lanes x = marrow::simd::gaps::lanes_of(a);
  return _mm256_loadu_ps(x.f + 8 * (imm & 1));
}

// Writes the elements whose mask bit is set; touches no other byte.
static inline void _mm512_mask_storeu_ps(void* p, __mmask16 k, __m512 a) {
  const marrow::simd::gaps::F16Lanes x = marrow::simd::gaps::lanes_of(a);
  for (int i = 0; i < 16; ++i) {
    if ((k >> i) & 1) std::memcpy(static_cast<char*>(p) + 4 * i, &x.f[i], sizeof(float));
  }
}

// Zero extensions: sixteen u16 to u32, eight u32 to u64, the low eight u8 to u64.
static inline __m512i _mm512_cvtepu16_epi32(__m256i a) {
  std::uint16_t in[16];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(in), a);
  marrow::simd::gaps::I16Lanes r;
  for (int i = 0; i < 16; ++i) r.i[i] = in[i];
  return _mm512_loadu_si512(r.i);
}

static inline __m512i _mm512_cvtepu32_epi64(__m256i a) {
  std::uint32_t in[8];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(in), a);
  alignas(64) std::uint64_t r[8];
  for (int i = 0; i < 8; ++i) r[i] = in[i];
  return _mm512_loadu_si512(r);
}

static inline __m512i _mm512_cvtepu8_epi64(__m128i a) {
  std::uint8_t in[16];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(in), a);
  alignas(64) std::uint64_t r[8];
  for (int i = 0; i < 8; ++i) r[i] = in[i];
  return _mm512_loadu_si512(r);
}
