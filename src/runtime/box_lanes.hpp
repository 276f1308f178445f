#pragma once
// Private: the few four-lane operations per-frame bounds need (S5), on SSE2 (every x86-64) or
// plain floats elsewhere. Lanes are x, y, z and an unused fourth; matrices are glm's column-major
// mat4 as 16 floats.
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace marrow::detail {

#if defined(__SSE2__)

struct Lanes {
  __m128 v;
};

inline Lanes add(Lanes a, Lanes b) { return {_mm_add_ps(a.v, b.v)}; }
inline Lanes sub(Lanes a, Lanes b) { return {_mm_sub_ps(a.v, b.v)}; }

// m * (x, y, z, 1).
inline Lanes transform_point(const float* m, float x, float y, float z) {
  const __m128 r = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(m), _mm_set1_ps(x)), _mm_mul_ps(_mm_loadu_ps(m + 4), _mm_set1_ps(y)));
  return {_mm_add_ps(_mm_add_ps(r, _mm_mul_ps(_mm_loadu_ps(m + 8), _mm_set1_ps(z))), _mm_loadu_ps(m + 12))};
}

// |m's 3x3| * (x, y, z): how far a box of half extent (x, y, z) reaches once moved by m.
inline Lanes transform_extent(const float* m, float x, float y, float z) {
  const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
  const __m128 r = _mm_add_ps(_mm_mul_ps(_mm_and_ps(_mm_loadu_ps(m), magnitude), _mm_set1_ps(x)),
                              _mm_mul_ps(_mm_and_ps(_mm_loadu_ps(m + 4), magnitude), _mm_set1_ps(y)));
  return {_mm_add_ps(r, _mm_mul_ps(_mm_and_ps(_mm_loadu_ps(m + 8), magnitude), _mm_set1_ps(z)))};
}

// [lo, hi] (four floats each) grown to hold [a, b].
inline void widen(float* lo, float* hi, Lanes a, Lanes b) {
  _mm_storeu_ps(lo, _mm_min_ps(_mm_loadu_ps(lo), a.v));
  _mm_storeu_ps(hi, _mm_max_ps(_mm_loadu_ps(hi), b.v));
}

#else

struct Lanes {
  float v[4];
};

inline Lanes add(Lanes a, Lanes b) { return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}}; }
inline Lanes sub(Lanes a, Lanes b) { return {{a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2], a.v[3] - b.v[3]}}; }

inline Lanes transform_point(const float* m, float x, float y, float z) {
  Lanes r;
  for (int i = 0; i < 4; ++i) r.v[i] = m[i] * x + m[4 + i] * y + m[8 + i] * z + m[12 + i];
  return r;
}

inline Lanes transform_extent(const float* m, float x, float y, float z) {
  Lanes r;
  for (int i = 0; i < 4; ++i) r.v[i] = std::fabs(m[i]) * x + std::fabs(m[4 + i]) * y + std::fabs(m[8 + i]) * z;
  return r;
}

inline void widen(float* lo, float* hi, Lanes a, Lanes b) {
  for (int i = 0; i < 4; ++i) {
    lo[i] = a.v[i] < lo[i] ? a.v[i] : lo[i];
    hi[i] = b.v[i] > hi[i] ? b.v[i] : hi[i];
  }
}

#endif

}  // namespace marrow::detail
