// The motion-matching kernels, compiled once per instruction set (see lanes.hpp for the rules of
// such a file). Included by motion_kernels_sse2.cpp, _avx2.cpp, _avx512.cpp and the emulated
// copies. Every level sums the same tree (motion_kernels.hpp) in registers of its own width.
#include <cstddef>

#include "lanes.hpp"
#include "motion_kernels.hpp"

namespace marrow::detail::MARROW_SIMD_NS {

namespace {

// GCC 12's AVX-512 intrinsics start from undefined registers they then fully overwrite.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// One register of the level: kWidth floats; a row is kParts of them.
#if MARROW_SIMD_LEVEL >= 2
using V = __m512;
constexpr std::size_t kWidth = 16;
MARROW_LANES_INLINE V load(const float* p) { return _mm512_loadu_ps(p); }
MARROW_LANES_INLINE V sub(V a, V b) { return _mm512_sub_ps(a, b); }
MARROW_LANES_INLINE V mul(V a, V b) { return _mm512_mul_ps(a, b); }
MARROW_LANES_INLINE V max(V a, V b) { return _mm512_max_ps(a, b); }
MARROW_LANES_INLINE V zero() { return _mm512_setzero_ps(); }
#elif MARROW_SIMD_LEVEL >= 1
using V = __m256;
constexpr std::size_t kWidth = 8;
MARROW_LANES_INLINE V load(const float* p) { return _mm256_loadu_ps(p); }
MARROW_LANES_INLINE V sub(V a, V b) { return _mm256_sub_ps(a, b); }
MARROW_LANES_INLINE V mul(V a, V b) { return _mm256_mul_ps(a, b); }
MARROW_LANES_INLINE V max(V a, V b) { return _mm256_max_ps(a, b); }
MARROW_LANES_INLINE V zero() { return _mm256_setzero_ps(); }
#else
using V = __m128;
constexpr std::size_t kWidth = 4;
MARROW_LANES_INLINE V load(const float* p) { return _mm_loadu_ps(p); }
MARROW_LANES_INLINE V sub(V a, V b) { return _mm_sub_ps(a, b); }
MARROW_LANES_INLINE V mul(V a, V b) { return _mm_mul_ps(a, b); }
MARROW_LANES_INLINE V max(V a, V b) { return _mm_max_ps(a, b); }
MARROW_LANES_INLINE V zero() { return _mm_setzero_ps(); }
#endif
constexpr std::size_t kParts = kMotionRowFloats / kWidth;

// x * x as rounded. Without the barrier GCC fuses the product into the addition after it (an FMA
// at the AVX levels), and the levels would no longer sum the same floats. The emulated copies are
// compiled without FMA.
MARROW_LANES_INLINE V square(V x) {
  V product = mul(x, x);
#if MARROW_SIMD_LEVEL >= 1 && !defined(MARROW_SIMD_EMULATED)
  __asm__("" : "+v"(product));
#endif
  return product;
}

// Four lanes to one: (s[0] + s[2]) + (s[1] + s[3]).
MARROW_LANES_INLINE float total4(__m128 s4) {
  const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
  return _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps(s2, s2, _MM_SHUFFLE(1, 1, 1, 1))));
}

// The 32 squared terms (part k: columns k * kWidth on) summed in the tree of motion_kernels.hpp:
// lane c + 16 onto lane c, then c + 8, c + 4, c + 2 and c + 1. Each level's parts cover those
// lanes in its own registers, in the same order.
MARROW_LANES_INLINE float tree(const V (&t)[kParts]) {
#if MARROW_SIMD_LEVEL >= 2
  const __m512 s16 = _mm512_add_ps(t[0], t[1]);
  const __m256 s8 = _mm256_add_ps(_mm512_castps512_ps256(s16), _mm512_extractf32x8_ps(s16, 1));
  return total4(_mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1)));
#elif MARROW_SIMD_LEVEL >= 1
  const __m256 s8 = _mm256_add_ps(_mm256_add_ps(t[0], t[2]), _mm256_add_ps(t[1], t[3]));
  return total4(_mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1)));
#else
  const __m128 low = _mm_add_ps(_mm_add_ps(t[0], t[4]), _mm_add_ps(t[2], t[6]));   // s8's lanes 0-3
  const __m128 high = _mm_add_ps(_mm_add_ps(t[1], t[5]), _mm_add_ps(t[3], t[7]));  // s8's lanes 4-7
  return total4(_mm_add_ps(low, high));
#endif
}

void row_costs(const float* query, const float* rows, std::size_t count, float* costs) {
  V q[kParts];
  for (std::size_t k = 0; k < kParts; ++k) q[k] = load(query + k * kWidth);
  for (std::size_t i = 0; i < count; ++i) {
    const float* r = rows + i * kMotionRowFloats;
    V t[kParts];
    for (std::size_t k = 0; k < kParts; ++k) {
      const V d = sub(q[k], load(r + k * kWidth));
      t[k] = square(d);
    }
    costs[i] = tree(t);
  }
}

void box_costs(const float* query, const float* lo, const float* hi, std::size_t count, float* costs) {
  V q[kParts];
  for (std::size_t k = 0; k < kParts; ++k) q[k] = load(query + k * kWidth);
  for (std::size_t i = 0; i < count; ++i) {
    const float* l = lo + i * kMotionRowFloats;
    const float* h = hi + i * kMotionRowFloats;
    V t[kParts];
    for (std::size_t k = 0; k < kParts; ++k) {
      // Below the box, above it, or inside (0): never more than |q - row| for a row inside.
      const V e = max(max(sub(load(l + k * kWidth), q[k]), sub(q[k], load(h + k * kWidth))), zero());
      t[k] = square(e);
    }
    costs[i] = tree(t);
  }
}

#pragma GCC diagnostic pop

}  // namespace

extern const MotionKernels kMotionKernels{row_costs, box_costs};

}  // namespace marrow::detail::MARROW_SIMD_NS
