#pragma once
// Private: four floats processed together (SSE2 where the target has it, which every x86-64
// does; plain loops elsewhere). Just the operations the animation kernels need, with the same
// IEEE single-precision results either way. Masks are Float4 values whose lanes are all-ones
// bits (true) or zero (false).
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The kernels are small templates called in hot loops; inlining them lets the compiler keep
// every lane in registers.
#if defined(__GNUC__)
#define MARROW_INLINE inline __attribute__((always_inline))
#else
#define MARROW_INLINE inline
#endif

// Hot loops are also compiled for AVX2 and picked at load time (ifunc), where the toolchain
// supports it: the three-operand encoding alone saves a fifth of the instructions.
// (GCC only: clang 14 does not resolve target_clones on out-of-line member functions.)
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(MARROW_NO_TARGET_CLONES)
#define MARROW_HOT_LOOP __attribute__((target_clones("avx2", "default")))
#else
#define MARROW_HOT_LOOP
#endif

namespace marrow::detail {

#if defined(__SSE2__)

struct Float4 {
  __m128 v;

  static Float4 load(const float* p) { return {_mm_loadu_ps(p)}; }
  // Three floats at p (any alignment) as (x, y, z, 0), reading no byte past them.
  static Float4 load3(const void* p) {
    const __m128 xy = _mm_castpd_ps(_mm_load_sd(static_cast<const double*>(p)));
    return {_mm_movelh_ps(xy, _mm_load_ss(static_cast<const float*>(p) + 2))};
  }
  static Float4 splat(float x) { return {_mm_set1_ps(x)}; }
  void store(float* p) const { _mm_storeu_ps(p, v); }
  // Lane i in every lane.
  template <int i>
  Float4 lane() const {
    return {_mm_shuffle_ps(v, v, _MM_SHUFFLE(i, i, i, i))};
  }
  // The first three lanes to 12 bytes at p (any alignment), without touching byte 12.
  void store3(void* p) const {
    _mm_storel_pi(static_cast<__m64*>(p), v);
    _mm_store_ss(static_cast<float*>(p) + 2, _mm_movehl_ps(v, v));
  }

  friend Float4 operator+(Float4 a, Float4 b) { return {_mm_add_ps(a.v, b.v)}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {_mm_sub_ps(a.v, b.v)}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {_mm_mul_ps(a.v, b.v)}; }
  friend Float4 operator/(Float4 a, Float4 b) { return {_mm_div_ps(a.v, b.v)}; }
  friend Float4 operator<(Float4 a, Float4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
  friend Float4 operator>=(Float4 a, Float4 b) { return {_mm_cmpge_ps(a.v, b.v)}; }
  friend Float4 operator>(Float4 a, Float4 b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
  friend Float4 operator==(Float4 a, Float4 b) { return {_mm_cmpeq_ps(a.v, b.v)}; }
  friend Float4 operator&(Float4 a, Float4 b) { return {_mm_and_ps(a.v, b.v)}; }
  friend Float4 operator^(Float4 a, Float4 b) { return {_mm_xor_ps(a.v, b.v)}; }
  friend Float4 sqrt_of(Float4 a) { return {_mm_sqrt_ps(a.v)}; }
  friend Float4 abs_of(Float4 a) { return {_mm_andnot_ps(_mm_set1_ps(-0.f), a.v)}; }
  // Bit i set where mask lane i is true.
  friend unsigned bits_of(Float4 mask) { return static_cast<unsigned>(_mm_movemask_ps(mask.v)); }
  // 1 / sqrt(a) for a > 0 to about 2 ulp: the hardware estimate and one Newton step.
  friend Float4 rsqrt_of(Float4 a) {
    const __m128 y = _mm_rsqrt_ps(a.v);
    const __m128 half_a_y2 = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), a.v), _mm_mul_ps(y, y));
    return {_mm_mul_ps(y, _mm_sub_ps(_mm_set1_ps(1.5f), half_a_y2))};
  }
  friend Float4 min_of(Float4 a, Float4 b) { return {_mm_min_ps(a.v, b.v)}; }
  friend Float4 max_of(Float4 a, Float4 b) { return {_mm_max_ps(a.v, b.v)}; }
  // x*x' + y*y' + z*z' in every lane (w ignored).
  friend Float4 dot3(Float4 a, Float4 b) {
    const __m128 m = _mm_mul_ps(a.v, b.v);
    const __m128 y = _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 1, 1, 1));
    const __m128 z = _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 2, 2, 2));
    const __m128 x = _mm_shuffle_ps(m, m, _MM_SHUFFLE(0, 0, 0, 0));
    return {_mm_add_ps(_mm_add_ps(x, y), z)};
  }
  // mask ? a : b, lane by lane.
  friend Float4 select(Float4 mask, Float4 a, Float4 b) {
    return {_mm_or_ps(_mm_and_ps(mask.v, a.v), _mm_andnot_ps(mask.v, b.v))};
  }
};

#else

struct Float4 {
  float v[4];

  static Float4 load(const float* p) {
    Float4 r;
    std::memcpy(r.v, p, sizeof r.v);
    return r;
  }
  static Float4 load3(const void* p) {
    Float4 r{};
    std::memcpy(r.v, p, 3 * sizeof(float));
    return r;
  }
  static Float4 splat(float x) { return {{x, x, x, x}}; }
  void store(float* p) const { std::memcpy(p, v, sizeof v); }
  void store3(void* p) const { std::memcpy(p, v, 3 * sizeof(float)); }
  template <int i>
  Float4 lane() const {
    return splat(v[i]);
  }

  template <class F>
  static Float4 map(Float4 a, Float4 b, F f) {
    Float4 r;
    for (int i = 0; i < 4; ++i) r.v[i] = f(a.v[i], b.v[i]);
    return r;
  }
  static float bits(bool b) {
    const unsigned u = b ? 0xffffffffu : 0u;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  static unsigned as_bits(float f) {
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  }
  static float from_bits(unsigned u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }

  friend Float4 operator+(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x + y; }); }
  friend Float4 operator-(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x - y; }); }
  friend Float4 operator*(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x * y; }); }
  friend Float4 operator/(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x / y; }); }
  friend Float4 operator<(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return bits(x < y); }); }
  friend Float4 operator>=(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return bits(x >= y); }); }
  friend Float4 operator>(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return bits(x > y); }); }
  friend Float4 operator==(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return bits(x == y); }); }
  friend Float4 operator&(Float4 a, Float4 b) {
    return map(a, b, [](float x, float y) { return from_bits(as_bits(x) & as_bits(y)); });
  }
  friend Float4 operator^(Float4 a, Float4 b) {
    return map(a, b, [](float x, float y) { return from_bits(as_bits(x) ^ as_bits(y)); });
  }
  friend Float4 sqrt_of(Float4 a) { return map(a, a, [](float x, float) { return std::sqrt(x); }); }
  friend Float4 abs_of(Float4 a) { return map(a, a, [](float x, float) { return std::fabs(x); }); }
  friend unsigned bits_of(Float4 mask) {
    unsigned out = 0;
    for (int i = 0; i < 4; ++i) out |= static_cast<unsigned>(as_bits(mask.v[i]) != 0) << i;
    return out;
  }
  friend Float4 rsqrt_of(Float4 a) { return map(a, a, [](float x, float) { return 1.f / std::sqrt(x); }); }
  friend Float4 min_of(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return y < x ? y : x; }); }
  friend Float4 max_of(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return y > x ? y : x; }); }
  friend Float4 dot3(Float4 a, Float4 b) { return splat(a.v[0] * b.v[0] + a.v[1] * b.v[1] + a.v[2] * b.v[2]); }
  friend Float4 select(Float4 mask, Float4 a, Float4 b) {
    Float4 r;
    for (int i = 0; i < 4; ++i) r.v[i] = as_bits(mask.v[i]) ? a.v[i] : b.v[i];
    return r;
  }
};

#endif

// Eight lanes as two independent Float4: the same arithmetic with two dependency chains in
// flight, which keeps a long latency-bound kernel (the slerp) busy.
struct Float8 {
  Float4 lo, hi;

  static Float8 load(const float* p) { return {Float4::load(p), Float4::load(p + 4)}; }
  static Float8 splat(float x) { return {Float4::splat(x), Float4::splat(x)}; }
  void store(float* p) const {
    lo.store(p);
    hi.store(p + 4);
  }
  friend Float8 operator+(Float8 a, Float8 b) { return {a.lo + b.lo, a.hi + b.hi}; }
  friend Float8 operator-(Float8 a, Float8 b) { return {a.lo - b.lo, a.hi - b.hi}; }
  friend Float8 operator*(Float8 a, Float8 b) { return {a.lo * b.lo, a.hi * b.hi}; }
  friend Float8 operator/(Float8 a, Float8 b) { return {a.lo / b.lo, a.hi / b.hi}; }
  friend Float8 operator<(Float8 a, Float8 b) { return {a.lo < b.lo, a.hi < b.hi}; }
  friend Float8 operator>=(Float8 a, Float8 b) { return {a.lo >= b.lo, a.hi >= b.hi}; }
  friend Float8 operator>(Float8 a, Float8 b) { return {a.lo > b.lo, a.hi > b.hi}; }
  friend Float8 operator==(Float8 a, Float8 b) { return {a.lo == b.lo, a.hi == b.hi}; }
  friend Float8 operator&(Float8 a, Float8 b) { return {a.lo & b.lo, a.hi & b.hi}; }
  friend Float8 operator^(Float8 a, Float8 b) { return {a.lo ^ b.lo, a.hi ^ b.hi}; }
  friend Float8 sqrt_of(Float8 a) { return {sqrt_of(a.lo), sqrt_of(a.hi)}; }
  friend Float8 rsqrt_of(Float8 a) { return {rsqrt_of(a.lo), rsqrt_of(a.hi)}; }
  friend Float8 min_of(Float8 a, Float8 b) { return {min_of(a.lo, b.lo), min_of(a.hi, b.hi)}; }
  friend Float8 max_of(Float8 a, Float8 b) { return {max_of(a.lo, b.lo), max_of(a.hi, b.hi)}; }
  friend Float8 select(Float8 m, Float8 a, Float8 b) { return {select(m.lo, a.lo, b.lo), select(m.hi, a.hi, b.hi)}; }
};

// A constant as float or as equal lanes.
template <class V>
V constant(float x) {
  if constexpr (sizeof(V) == sizeof(float)) {
    return x;
  } else {
    return V::splat(x);
  }
}

// The scalar counterparts, so templates written once serve float and Float4 alike.
inline float sqrt_of(float a) { return std::sqrt(a); }
inline float min_of(float a, float b) { return b < a ? b : a; }
inline float select(bool mask, float a, float b) { return mask ? a : b; }

}  // namespace marrow::detail
