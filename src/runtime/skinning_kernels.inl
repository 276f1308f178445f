// The skinning loops, compiled once per instruction set (see simd/lanes.hpp for the rules of
// such a file: raw floats, integers and intrinsics only, no inline functions of other headers).
// Included by skinning_kernels_sse2.cpp, _avx2.cpp and _avx512.cpp, which define MARROW_SIMD_NS
// and MARROW_SKINNING_LEVEL (0 = SSE2, 1 = AVX2 + FMA, 2 = AVX-512 F/VL/DQ/BW).
//
// Per vertex: the four joint indices are clamped to the palette (branch-free) and turned into
// byte offsets; the four matrices are blended, S = sum w_i * M_i, one register per matrix
// (AVX-512), two (AVX2) or four (SSE2); then S is applied to the position (and normal and
// tangent). On the wide levels S * v is computed as the product of S with v spread over S's
// column lanes (x x x x | y y y y | z z z z | 1 1 1 1), whose column sums four vertices reduce
// together (a transpose of 128-bit lanes). Vertices go four at a time; the last 1..3 vertices
// run the same code with the last vertex repeated and only their own outputs stored. Loads and
// stores touch exactly each element's bytes (12 for a vec3), so nothing past a span is read and
// nothing beside an output element is written. Only the stores of the last 1..3 vertices are
// masked (AVX-512): with masked loads in the loop, skinning from memory ran at half speed on
// AMD Zen 5 (plain loads, or software prefetches, restored it: the hardware prefetcher seems
// not to follow masked loads).

// GCC 12 reports its own AVX-512 intrinsics (which start from _mm512_undefined_ps) as "may be
// used uninitialized" once inlined; the pragma must precede <immintrin.h> to cover its lines.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cstddef>
#include <cstdint>

#include "simd/lanes.hpp"
#include "skinning_kernels.hpp"

#ifndef MARROW_SKINNING_LEVEL
#error "define MARROW_SKINNING_LEVEL (0 = sse2, 1 = avx2, 2 = avx512) before including skinning_kernels.inl"
#endif

namespace marrow::detail::MARROW_SIMD_NS {

namespace {

using simd::MARROW_SIMD_NS::F4;

MARROW_LANES_INLINE float load_float(const std::byte* p) {
  float f;
  __builtin_memcpy(&f, p, sizeof f);
  return f;
}

MARROW_LANES_INLINE std::uint64_t load_u64(const std::byte* p) {
  std::uint64_t u;
  __builtin_memcpy(&u, p, sizeof u);
  return u;
}

MARROW_LANES_INLINE void store_float(std::byte* p, float f) { __builtin_memcpy(p, &f, sizeof f); }

// (x, y, 0, 0) from two floats at p (8 bytes read).
MARROW_LANES_INLINE __m128 load_xy(const std::byte* p) {
  return _mm_castsi128_ps(_mm_cvtsi64_si128(static_cast<long long>(load_u64(p))));
}

MARROW_LANES_INLINE __m128 load4(const std::byte* p) { return _mm_loadu_ps(reinterpret_cast<const float*>(p)); }

MARROW_LANES_INLINE void store4(std::byte* p, __m128 v) { _mm_storeu_ps(reinterpret_cast<float*>(p), v); }

// x, y, z of v to the 12 bytes at p (the 13th to 16th untouched).
MARROW_LANES_INLINE void store3(std::byte* p, __m128 v) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_castps_si128(v));
  store_float(p + 8, _mm_cvtss_f32(_mm_movehl_ps(v, v)));
}

// The byte offsets, into the palette, of a vertex's four matrices. An index past the palette's
// end is clamped to its last matrix (a min, no branch), so nothing outside it is ever read.
// `last` holds the last index in every 16-bit lane. Done in a vector register: the clamp, the
// widening and the scale take four instructions for all four indices.
MARROW_LANES_INLINE void joint_offsets(const std::byte* joints, __m128i last, std::size_t (&offset)[4]) {
  const __m128i j = _mm_cvtsi64_si128(static_cast<long long>(load_u64(joints)));
  // min(j, last) for unsigned 16-bit lanes (SSE2 has no pminuw): j - saturate(j - last).
  const __m128i clamped = _mm_sub_epi16(j, _mm_subs_epu16(j, last));
  const __m128i bytes = _mm_slli_epi32(_mm_unpacklo_epi16(clamped, _mm_setzero_si128()), 6);
  const auto lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(bytes));
  const auto hi = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(bytes, bytes)));
  offset[0] = static_cast<std::uint32_t>(lo);
  offset[1] = static_cast<std::size_t>(lo >> 32);
  offset[2] = static_cast<std::uint32_t>(hi);
  offset[3] = static_cast<std::size_t>(hi >> 32);
}

// 1 / sqrt(a) for a > 0 (four lanes): the estimate and one Newton step.
MARROW_LANES_INLINE __m128 rsqrt4(__m128 a) {
  const __m128 y = _mm_rsqrt_ps(a);
  const __m128 half_a_y2 = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), a), _mm_mul_ps(y, y));
  return _mm_mul_ps(y, _mm_sub_ps(_mm_set1_ps(1.5f), half_a_y2));
}

#if MARROW_SKINNING_LEVEL == 2
// ---------------------------------------------------------------------------------------------
// AVX-512: a blended matrix is one register; a Quad (four vertices' results, x y z w each) too.

using simd::MARROW_SIMD_NS::F16;

struct Blend {
  __m512 m;
};
struct Quad {
  __m512 v;
};
using Partial = __m512;  // S * spread(v): four column products whose lanes sum to S * v

MARROW_LANES_INLINE __m512 load_matrix(const std::byte* palette, std::size_t offset) {
  return _mm512_loadu_ps(palette + offset);
}

MARROW_LANES_INLINE Blend blend(const std::byte* palette, const std::size_t (&o)[4], const std::byte* w) {
  __m512 s = _mm512_mul_ps(load_matrix(palette, o[0]), _mm512_set1_ps(load_float(w)));
  s = _mm512_fmadd_ps(load_matrix(palette, o[1]), _mm512_set1_ps(load_float(w + 4)), s);
  s = _mm512_fmadd_ps(load_matrix(palette, o[2]), _mm512_set1_ps(load_float(w + 8)), s);
  s = _mm512_fmadd_ps(load_matrix(palette, o[3]), _mm512_set1_ps(load_float(w + 12)), s);
  return {s};
}

// v's x, y, z spread over the column lanes (x x x x | y y y y | z z z z | ? ? ? ?).
MARROW_LANES_INLINE __m512 spread3(const std::byte* p) {
  // Not a masked load (see the top of this file).
  const __m128 v = _mm_insert_ps(load_xy(p), _mm_set_ss(load_float(p + 8)), 0x20);
  return _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
                               _mm512_castps128_ps512(v));
}

// Columns 0..2 times x, y, z; column 3 (the translation) times 1.
MARROW_LANES_INLINE Partial point_partial(const Blend& s, const std::byte* p) {
  return _mm512_mask_mul_ps(s.m, 0x0FFF, s.m, spread3(p));
}
// Columns 0..2 times x, y, z; column 3 dropped.
MARROW_LANES_INLINE Partial vector_partial(const Blend& s, const std::byte* p) {
  return _mm512_maskz_mul_ps(0x0FFF, s.m, spread3(p));
}

// Two vertices' partials half summed: (p0 + p1 | p2 + p3 of q0 | the same of q1), 128-bit lanes.
using Half = __m512;
MARROW_LANES_INLINE Half reduce_half(Partial q0, Partial q1) {
  return _mm512_add_ps(_mm512_shuffle_f32x4(q0, q1, _MM_SHUFFLE(2, 0, 2, 0)),
                       _mm512_shuffle_f32x4(q0, q1, _MM_SHUFFLE(3, 1, 3, 1)));
}
// Lane k of the result = the sum of vertex k's four column products.
MARROW_LANES_INLINE Quad reduce(Half a, Half b) {
  return {_mm512_add_ps(_mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(2, 0, 2, 0)),
                        _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(3, 1, 3, 1)))};
}

// x, y, z of every vertex scaled to unit length (zero stays zero); w is left as garbage.
MARROW_LANES_INLINE Quad normalized(Quad r) {
  const __m512 sq = _mm512_maskz_mul_ps(0x7777, r.v, r.v);
  const __m512 t = _mm512_add_ps(sq, _mm512_permute_ps(sq, _MM_SHUFFLE(1, 0, 3, 2)));
  const __m512 u = _mm512_add_ps(t, _mm512_permute_ps(t, _MM_SHUFFLE(2, 3, 0, 1)));
  const F16 inv = rsqrt_of(simd::MARROW_SIMD_NS::max_of(F16{u}, F16::splat(1e-30f)));
  return {_mm512_mul_ps(r.v, inv.v)};
}

// w of vertex k from lane 3 of the four floats at in[k].
MARROW_LANES_INLINE Quad with_w(Quad r, const std::byte* const (&in)[4]) {
  __m512 w = _mm512_castps128_ps512(load4(in[0]));
  w = _mm512_insertf32x4(w, load4(in[1]), 1);
  w = _mm512_insertf32x4(w, load4(in[2]), 2);
  w = _mm512_insertf32x4(w, load4(in[3]), 3);
  return {_mm512_mask_blend_ps(0x8888, r.v, w)};
}

template <int k>
MARROW_LANES_INLINE __m128 lane(Quad r) {
  if constexpr (k == 0) {
    return _mm512_castps512_ps128(r.v);
  } else {
    return _mm512_extractf32x4_ps(r.v, k);
  }
}

MARROW_LANES_INLINE __mmask16 low_bits(std::size_t n) { return static_cast<__mmask16>((1u << n) - 1u); }

// x, y, z of the first `count` vertices into a tightly packed vec3 array.
MARROW_LANES_INLINE void store3_packed(std::byte* out, Quad r, std::size_t count) {
  const __m512 packed = _mm512_permutexvar_ps(
      _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 15, 15, 15), r.v);
  if (count == 4) {  // plain stores (see the top of this file); masked ones for the last vertices
    _mm256_storeu_ps(reinterpret_cast<float*>(out), _mm512_castps512_ps256(packed));
    _mm_storeu_ps(reinterpret_cast<float*>(out + 32), _mm512_extractf32x4_ps(packed, 2));
    return;
  }
  _mm512_mask_storeu_ps(out, low_bits(3 * count), packed);
}

MARROW_LANES_INLINE void store4_packed(std::byte* out, Quad r, std::size_t count) {
  if (count == 4) {
    _mm512_storeu_ps(out, r.v);
  } else {
    _mm512_mask_storeu_ps(out, low_bits(4 * count), r.v);
  }
}

MARROW_LANES_INLINE void store3_lane(std::byte* out, __m128 v) { store3(out, v); }

#elif MARROW_SKINNING_LEVEL == 1
// ---------------------------------------------------------------------------------------------
// AVX2 + FMA: a blended matrix is two registers (columns 0, 1 and 2, 3); a Quad two (vertices
// 0, 1 and 2, 3).

struct Blend {
  __m256 lo, hi;
};
struct Quad {
  __m256 ab, cd;
};
using Partial = __m256;  // (c0 * x + c2 * z | c1 * y + c3 * w)

MARROW_LANES_INLINE Blend blend(const std::byte* palette, const std::size_t (&o)[4], const std::byte* w) {
  const auto column_pair = [palette](std::size_t offset, int half) {
    return _mm256_loadu_ps(reinterpret_cast<const float*>(palette + offset) + 8 * half);
  };
  const __m256 w0 = _mm256_set1_ps(load_float(w)), w1 = _mm256_set1_ps(load_float(w + 4));
  const __m256 w2 = _mm256_set1_ps(load_float(w + 8)), w3 = _mm256_set1_ps(load_float(w + 12));
  __m256 lo = _mm256_mul_ps(column_pair(o[0], 0), w0);
  __m256 hi = _mm256_mul_ps(column_pair(o[0], 1), w0);
  lo = _mm256_fmadd_ps(column_pair(o[1], 0), w1, lo);
  hi = _mm256_fmadd_ps(column_pair(o[1], 1), w1, hi);
  lo = _mm256_fmadd_ps(column_pair(o[2], 0), w2, lo);
  hi = _mm256_fmadd_ps(column_pair(o[2], 1), w2, hi);
  lo = _mm256_fmadd_ps(column_pair(o[3], 0), w3, lo);
  hi = _mm256_fmadd_ps(column_pair(o[3], 1), w3, hi);
  return {lo, hi};
}

// (x x x x | y y y y) from the 8 bytes at p.
MARROW_LANES_INLINE __m256 spread_xy(const std::byte* p) {
  return _mm256_permutevar8x32_ps(_mm256_castps128_ps256(load_xy(p)), _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
}

MARROW_LANES_INLINE Partial point_partial(const Blend& s, const std::byte* p) {
  const __m256 z1 = _mm256_blend_ps(_mm256_set1_ps(load_float(p + 8)), _mm256_set1_ps(1.f), 0xF0);
  return _mm256_fmadd_ps(s.lo, spread_xy(p), _mm256_mul_ps(s.hi, z1));
}
MARROW_LANES_INLINE Partial vector_partial(const Blend& s, const std::byte* p) {
  const __m256 z0 = _mm256_blend_ps(_mm256_set1_ps(load_float(p + 8)), _mm256_setzero_ps(), 0xF0);
  return _mm256_fmadd_ps(s.lo, spread_xy(p), _mm256_mul_ps(s.hi, z0));
}

// Two vertices finished: (vertex 0's x y z w | vertex 1's).
using Half = __m256;
MARROW_LANES_INLINE Half reduce_half(Partial q0, Partial q1) {
  return _mm256_add_ps(_mm256_permute2f128_ps(q0, q1, 0x20), _mm256_permute2f128_ps(q0, q1, 0x31));
}
MARROW_LANES_INLINE Quad reduce(Half a, Half b) { return {a, b}; }

MARROW_LANES_INLINE __m256 normalized8(__m256 r) {
  const __m256 x = _mm256_blend_ps(r, _mm256_setzero_ps(), 0x88);
  const __m256 sq = _mm256_mul_ps(x, x);
  const __m256 t = _mm256_add_ps(sq, _mm256_permute_ps(sq, _MM_SHUFFLE(1, 0, 3, 2)));
  const __m256 u = _mm256_add_ps(t, _mm256_permute_ps(t, _MM_SHUFFLE(2, 3, 0, 1)));
  const simd::MARROW_SIMD_NS::F8 inv = rsqrt_of(simd::MARROW_SIMD_NS::F8{_mm256_max_ps(u, _mm256_set1_ps(1e-30f))});
  return _mm256_mul_ps(r, inv.v);
}
MARROW_LANES_INLINE Quad normalized(Quad r) { return {normalized8(r.ab), normalized8(r.cd)}; }

MARROW_LANES_INLINE Quad with_w(Quad r, const std::byte* const (&in)[4]) {
  return {_mm256_blend_ps(r.ab, _mm256_set_m128(load4(in[1]), load4(in[0])), 0x88),
          _mm256_blend_ps(r.cd, _mm256_set_m128(load4(in[3]), load4(in[2])), 0x88)};
}

template <int k>
MARROW_LANES_INLINE __m128 lane(Quad r) {
  const __m256 pair = k < 2 ? r.ab : r.cd;
  if constexpr (k % 2 == 0) {
    return _mm256_castps256_ps128(pair);
  } else {
    return _mm256_extractf128_ps(pair, 1);
  }
}

MARROW_LANES_INLINE void store3_lane(std::byte* out, __m128 v) { store3(out, v); }

// The 48 bytes of four packed vec3 (count 4 only).
MARROW_LANES_INLINE void store3_packed4(std::byte* out, Quad r) {
  const __m256 ab = _mm256_permutevar8x32_ps(r.ab, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7));
  const __m256 cd = _mm256_permutevar8x32_ps(r.cd, _mm256_setr_epi32(2, 4, 5, 6, 7, 7, 0, 1));
  _mm256_storeu_ps(reinterpret_cast<float*>(out), _mm256_blend_ps(ab, cd, 0xC0));
  store4(out + 32, _mm256_castps256_ps128(cd));
}

MARROW_LANES_INLINE void store4_packed4(std::byte* out, Quad r) {
  _mm256_storeu_ps(reinterpret_cast<float*>(out), r.ab);
  _mm256_storeu_ps(reinterpret_cast<float*>(out + 32), r.cd);
}

#else
// ---------------------------------------------------------------------------------------------
// SSE2: a blended matrix is four registers (one per column); each vertex is finished alone.

struct Blend {
  F4 c[4];
};
struct Quad {
  __m128 v[4];
};
using Partial = __m128;  // the finished x y z w

MARROW_LANES_INLINE Blend blend(const std::byte* palette, const std::size_t (&o)[4], const std::byte* w) {
  const F4 wv{load4(w)};
  const F4 ws[4] = {simd::MARROW_SIMD_NS::broadcast<0>(wv), simd::MARROW_SIMD_NS::broadcast<1>(wv),
                    simd::MARROW_SIMD_NS::broadcast<2>(wv), simd::MARROW_SIMD_NS::broadcast<3>(wv)};
  Blend s;
  for (int c = 0; c < 4; ++c) {
    const auto column = [&](int i) { return F4{load4(palette + o[i] + 4 * sizeof(float) * static_cast<unsigned>(c))}; };
    s.c[c] = fma(column(3), ws[3], fma(column(2), ws[2], fma(column(1), ws[1], column(0) * ws[0])));
  }
  return s;
}

MARROW_LANES_INLINE F4 times_xyz(const Blend& s, const std::byte* p) {
  const F4 xy{load_xy(p)};
  const F4 z = F4::splat(load_float(p + 8));
  return fma(s.c[2], z, fma(s.c[1], simd::MARROW_SIMD_NS::broadcast<1>(xy), s.c[0] * simd::MARROW_SIMD_NS::broadcast<0>(xy)));
}
MARROW_LANES_INLINE Partial point_partial(const Blend& s, const std::byte* p) { return (times_xyz(s, p) + s.c[3]).v; }
MARROW_LANES_INLINE Partial vector_partial(const Blend& s, const std::byte* p) { return times_xyz(s, p).v; }

struct Half {
  __m128 v[2];
};
MARROW_LANES_INLINE Half reduce_half(Partial q0, Partial q1) { return {{q0, q1}}; }
MARROW_LANES_INLINE Quad reduce(Half a, Half b) { return {{a.v[0], a.v[1], b.v[0], b.v[1]}}; }

MARROW_LANES_INLINE __m128 xyz_mask() { return _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)); }

MARROW_LANES_INLINE __m128 normalized4(__m128 r) {
  const __m128 x = _mm_and_ps(r, xyz_mask());
  const __m128 sq = _mm_mul_ps(x, x);
  const __m128 t = _mm_add_ps(sq, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(1, 0, 3, 2)));
  const __m128 u = _mm_add_ps(t, _mm_shuffle_ps(t, t, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_mul_ps(r, rsqrt4(_mm_max_ps(u, _mm_set1_ps(1e-30f))));
}
MARROW_LANES_INLINE Quad normalized(Quad r) {
  return {{normalized4(r.v[0]), normalized4(r.v[1]), normalized4(r.v[2]), normalized4(r.v[3])}};
}

MARROW_LANES_INLINE Quad with_w(Quad r, const std::byte* const (&in)[4]) {
  const __m128 m = xyz_mask();
  Quad out;
  for (int k = 0; k < 4; ++k) out.v[k] = _mm_or_ps(_mm_and_ps(m, r.v[k]), _mm_andnot_ps(m, load4(in[k])));
  return out;
}

template <int k>
MARROW_LANES_INLINE __m128 lane(Quad r) {
  return r.v[k];
}

MARROW_LANES_INLINE void store3_lane(std::byte* out, __m128 v) { store3(out, v); }

MARROW_LANES_INLINE void store3_packed4(std::byte* out, Quad r) {
  const __m128 a = r.v[0], b = r.v[1], c = r.v[2], d = r.v[3];
  // (a.x a.y a.z b.x), (b.y b.z c.x c.y), (c.z d.x d.y d.z)
  const __m128 az_bx = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 2, 2));
  store4(out, _mm_shuffle_ps(a, az_bx, _MM_SHUFFLE(2, 0, 1, 0)));
  store4(out + 16, _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 0, 2, 1)));
  const __m128 cz_dx = _mm_shuffle_ps(c, d, _MM_SHUFFLE(0, 0, 2, 2));
  store4(out + 32, _mm_shuffle_ps(cz_dx, d, _MM_SHUFFLE(2, 1, 2, 0)));
}

MARROW_LANES_INLINE void store4_packed4(std::byte* out, Quad r) {
  for (int k = 0; k < 4; ++k) store4(out + 16 * k, r.v[k]);
}

#endif

// ---------------------------------------------------------------------------------------------
// The loops, the same for every level.

// The first `count` (1..4) vertices of r to out, `stride` bytes apart, 12 bytes each.
MARROW_LANES_INLINE void store3_quad(std::byte* out, std::size_t stride, Quad r, std::size_t count) {
#if MARROW_SKINNING_LEVEL == 2
  if (stride == 3 * sizeof(float)) {
    store3_packed(out, r, count);
    return;
  }
#else
  if (stride == 3 * sizeof(float) && count == 4) {
    store3_packed4(out, r);
    return;
  }
#endif
  store3_lane(out, lane<0>(r));
  if (count > 1) store3_lane(out + stride, lane<1>(r));
  if (count > 2) store3_lane(out + 2 * stride, lane<2>(r));
  if (count > 3) store3_lane(out + 3 * stride, lane<3>(r));
}

MARROW_LANES_INLINE void store4_quad(std::byte* out, std::size_t stride, Quad r, std::size_t count) {
#if MARROW_SKINNING_LEVEL == 2
  if (stride == 4 * sizeof(float)) {
    store4_packed(out, r, count);
    return;
  }
#else
  if (stride == 4 * sizeof(float) && count == 4) {
    store4_packed4(out, r);
    return;
  }
#endif
  store4(out, lane<0>(r));
  if (count > 1) store4(out + stride, lane<1>(r));
  if (count > 2) store4(out + 2 * stride, lane<2>(r));
  if (count > 3) store4(out + 3 * stride, lane<3>(r));
}

// The kernel's copy of the arguments: the pointers advance by four vertices per step. A local
// copy (not the caller's struct) so that the compiler knows the outputs cannot overwrite it and
// keeps it in registers; kPacked: every span tightly packed (strides known at compile time).
template <bool kPacked>
struct Streams {
  const std::byte* palette;
  __m128i last_joint;  // in every 16-bit lane
  const std::byte *joints, *weights, *in_positions, *in_normals, *in_tangents;
  std::byte *out_positions, *out_normals, *out_tangents;
  std::size_t joints_stride, weights_stride, in_positions_stride, in_normals_stride, in_tangents_stride;
  std::size_t out_positions_stride, out_normals_stride, out_tangents_stride;

  explicit Streams(const SkinningArgs& a)
      : palette(reinterpret_cast<const std::byte*>(a.palette)),
        last_joint(_mm_set1_epi16(static_cast<short>(a.last_joint))),
        joints(a.joints),
        weights(a.weights),
        in_positions(a.in_positions),
        in_normals(a.in_normals),
        in_tangents(a.in_tangents),
        out_positions(a.out_positions),
        out_normals(a.out_normals),
        out_tangents(a.out_tangents),
        joints_stride(kPacked ? 4 * sizeof(std::uint16_t) : a.joints_stride),
        weights_stride(kPacked ? 4 * sizeof(float) : a.weights_stride),
        in_positions_stride(kPacked ? 3 * sizeof(float) : a.in_positions_stride),
        in_normals_stride(kPacked ? 3 * sizeof(float) : a.in_normals_stride),
        in_tangents_stride(kPacked ? 4 * sizeof(float) : a.in_tangents_stride),
        out_positions_stride(kPacked ? 3 * sizeof(float) : a.out_positions_stride),
        out_normals_stride(kPacked ? 3 * sizeof(float) : a.out_normals_stride),
        out_tangents_stride(kPacked ? 4 * sizeof(float) : a.out_tangents_stride) {}

  template <bool kNormals, bool kTangents>
  MARROW_LANES_INLINE void advance4() {
    joints += 4 * joints_stride;
    weights += 4 * weights_stride;
    in_positions += 4 * in_positions_stride;
    out_positions += 4 * out_positions_stride;
    if constexpr (kNormals) {
      in_normals += 4 * in_normals_stride;
      out_normals += 4 * out_normals_stride;
    }
    if constexpr (kTangents) {
      in_tangents += 4 * in_tangents_stride;
      out_tangents += 4 * out_tangents_stride;
    }
  }
};

// The next `count` (1..4) vertices; missing ones repeat the last vertex, computed and not
// stored. Every input of the four vertices is read before any output is written, so an output
// may be its own input (in place). Two vertices at a time are summed as far as they go before
// the next two start (fewer registers live: no spills with positions, normals and tangents).
template <bool kNormals, bool kTangents, bool kUnit, bool kPacked>
MARROW_LANES_INLINE void skin_quad(const Streams<kPacked>& a, std::size_t count) {
  Half hp[2], hn[2], ht[2];
  const std::byte* tangent_in[4];
#pragma GCC unroll 2
  for (std::size_t h = 0; h < 2; ++h) {
    Partial qp[2], qn[2], qt[2];
#pragma GCC unroll 2
    for (std::size_t i = 0; i < 2; ++i) {
      const std::size_t k = 2 * h + i;
      const std::size_t v = k < count ? k : count - 1;
      std::size_t offset[4];
      joint_offsets(a.joints + v * a.joints_stride, a.last_joint, offset);
      const Blend s = blend(a.palette, offset, a.weights + v * a.weights_stride);
      qp[i] = point_partial(s, a.in_positions + v * a.in_positions_stride);
      if constexpr (kNormals) qn[i] = vector_partial(s, a.in_normals + v * a.in_normals_stride);
      if constexpr (kTangents) {
        tangent_in[k] = a.in_tangents + v * a.in_tangents_stride;
        qt[i] = vector_partial(s, tangent_in[k]);
      }
    }
    hp[h] = reduce_half(qp[0], qp[1]);
    if constexpr (kNormals) hn[h] = reduce_half(qn[0], qn[1]);
    if constexpr (kTangents) ht[h] = reduce_half(qt[0], qt[1]);
  }
  store3_quad(a.out_positions, a.out_positions_stride, reduce(hp[0], hp[1]), count);
  if constexpr (kNormals) {
    Quad n = reduce(hn[0], hn[1]);
    if constexpr (kUnit) n = normalized(n);
    store3_quad(a.out_normals, a.out_normals_stride, n, count);
  }
  if constexpr (kTangents) {
    Quad t = reduce(ht[0], ht[1]);
    if constexpr (kUnit) t = normalized(t);
    // The handedness read again from the input (not kept in registers across the quad); this
    // is still before the quad's tangents are stored, so in place works.
    store4_quad(a.out_tangents, a.out_tangents_stride, with_w(t, tangent_in), count);
  } else {
    (void)ht;
    (void)tangent_in;
  }
  if constexpr (!kNormals) (void)hn;
}

template <bool kNormals, bool kTangents, bool kUnit, bool kPacked>
void skin(const SkinningArgs& args) noexcept {
  Streams<kPacked> a(args);
  std::size_t left = args.count;
  for (; left >= 4; left -= 4) {
    skin_quad<kNormals, kTangents, kUnit>(a, 4);
    a.template advance4<kNormals, kTangents>();
  }
  if (left > 0) skin_quad<kNormals, kTangents, kUnit>(a, left);
}

template <bool kNormals, bool kTangents, bool kUnit>
void skin_any(const SkinningArgs& args) noexcept {
  const bool packed = args.joints_stride == 4 * sizeof(std::uint16_t) && args.weights_stride == 4 * sizeof(float) &&
                      args.in_positions_stride == 3 * sizeof(float) && args.out_positions_stride == 3 * sizeof(float) &&
                      (!kNormals || (args.in_normals_stride == 3 * sizeof(float) &&
                                     args.out_normals_stride == 3 * sizeof(float))) &&
                      (!kTangents || (args.in_tangents_stride == 4 * sizeof(float) &&
                                      args.out_tangents_stride == 4 * sizeof(float)));
  if (packed) {
    skin<kNormals, kTangents, kUnit, true>(args);
  } else {
    skin<kNormals, kTangents, kUnit, false>(args);
  }
}

}  // namespace

extern const SkinningKernels kSkinningKernels;
const SkinningKernels kSkinningKernels{
    skin_any<false, false, false>, skin_any<true, false, false>, skin_any<true, false, true>,
    skin_any<false, true, false>,  skin_any<false, true, true>,  skin_any<true, true, false>,
    skin_any<true, true, true>,
};

}  // namespace marrow::detail::MARROW_SIMD_NS
