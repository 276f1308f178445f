// The skinning kernels' building blocks for one instruction set: loads and stores of exactly an
// element's bytes, joint offsets, blended matrices, the products with a vertex and the results
// of four vertices. Included by skinning_kernels.inl (linear blending) and
// dual_quaternion_kernels.inl, each compiled once per level (see simd/lanes.hpp for the rules of
// such a file: raw floats, integers and intrinsics only, no inline functions of other headers);
// the including .cpp defines MARROW_SIMD_NS and MARROW_SKINNING_LEVEL (0 = SSE2, 1 = AVX2 + FMA,
// 2 = AVX-512 F/VL/DQ/BW).
//
// Two layouts of matrices meet here:
//   Blend  one vertex's blended matrix: one register (AVX-512), two (AVX2) or four (SSE2)
//          holding its columns c0 | c1 | c2 | c3. Linear blending forms it with one FMA per
//          influence. S * v is the product of S with v spread over the column lanes
//          (x x x x | y y y y | z z z z | 1 1 1 1), whose column sums four vertices reduce
//          together (a transpose of 128-bit lanes): a Partial, then a Quad.
//   Quad   four vertices, one 128-bit lane each (x y z w): the results, and in the
//          dual-quaternion kernels every intermediate (quaternions, matrix columns), computed
//          with in-lane operations for the four vertices at once.
// Loads and stores touch exactly each element's bytes (12 for a vec3; a row of n joints 2n),
// so nothing past a span is read and nothing beside an output element is written. Only the
// stores of the last 1..3 vertices are masked (AVX-512): with masked loads in the loop, skinning
// from memory ran at half speed on AMD Zen 5 (plain loads, or software prefetches, restored it:
// the hardware prefetcher seems not to follow masked loads).

// GCC 12 reports its own AVX-512 intrinsics (which start from _mm512_undefined_ps) as "may be
// used uninitialized", or "used uninitialized", once inlined; the pragmas must precede
// <immintrin.h> to cover its lines.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <cstddef>
#include <cstdint>

#include "simd/lanes.hpp"
#include "skinning_kernels.hpp"

#ifndef MARROW_SKINNING_LEVEL
#error "define MARROW_SKINNING_LEVEL (0 = sse2, 1 = avx2, 2 = avx512) before including skinning_lanes.inl"
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

MARROW_LANES_INLINE std::uint16_t load_u16(const std::byte* p) {
  std::uint16_t u;
  __builtin_memcpy(&u, p, sizeof u);
  return u;
}

MARROW_LANES_INLINE void store_float(std::byte* p, float f) { __builtin_memcpy(p, &f, sizeof f); }

// (x, y, 0, 0) from two floats at p (8 bytes read).
MARROW_LANES_INLINE __m128 load_xy(const std::byte* p) {
  return _mm_castsi128_ps(_mm_cvtsi64_si128(static_cast<long long>(load_u64(p))));
}

// (x, y, z, 0) from three floats at p (12 bytes read).
MARROW_LANES_INLINE __m128 load_xyz(const std::byte* p) { return _mm_movelh_ps(load_xy(p), _mm_set_ss(load_float(p + 8))); }

MARROW_LANES_INLINE __m128 load4(const std::byte* p) { return _mm_loadu_ps(reinterpret_cast<const float*>(p)); }

MARROW_LANES_INLINE void store4(std::byte* p, __m128 v) { _mm_storeu_ps(reinterpret_cast<float*>(p), v); }

// x, y, z of v to the 12 bytes at p (the 13th to 16th untouched).
MARROW_LANES_INLINE void store3(std::byte* p, __m128 v) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_castps_si128(v));
  store_float(p + 8, _mm_cvtss_f32(_mm_movehl_ps(v, v)));
}

// The byte offsets, into the palette, of a vertex's four entries (kShift 6: 64-byte matrices;
// 5: 32-byte dual quaternions). An index past the palette's end is clamped to its last entry (a
// min, no branch), so nothing outside it is ever read. `last` holds the last index in every
// 16-bit lane. Done in a vector register: the clamp, the widening and the scale take four
// instructions for all four indices.
template <int kShift = 6>
MARROW_LANES_INLINE void joint_offsets(const std::byte* joints, __m128i last, std::size_t (&offset)[4]) {
  const __m128i j = _mm_cvtsi64_si128(static_cast<long long>(load_u64(joints)));
  // min(j, last) for unsigned 16-bit lanes (SSE2 has no pminuw): j - saturate(j - last).
  const __m128i clamped = _mm_sub_epi16(j, _mm_subs_epu16(j, last));
  const __m128i bytes = _mm_slli_epi32(_mm_unpacklo_epi16(clamped, _mm_setzero_si128()), kShift);
  const auto lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(bytes));
  const auto hi = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(bytes, bytes)));
  offset[0] = static_cast<std::uint32_t>(lo);
  offset[1] = static_cast<std::size_t>(lo >> 32);
  offset[2] = static_cast<std::uint32_t>(hi);
  offset[3] = static_cast<std::size_t>(hi >> 32);
}

// Eight indices (16 bytes), the same way.
template <int kShift = 6>
MARROW_LANES_INLINE void joint_offsets8(const std::byte* joints, __m128i last, std::size_t (&offset)[8]) {
  const __m128i j = _mm_loadu_si128(reinterpret_cast<const __m128i*>(joints));
  const __m128i clamped = _mm_sub_epi16(j, _mm_subs_epu16(j, last));
  const __m128i low = _mm_slli_epi32(_mm_unpacklo_epi16(clamped, _mm_setzero_si128()), kShift);
  const __m128i high = _mm_slli_epi32(_mm_unpackhi_epi16(clamped, _mm_setzero_si128()), kShift);
  const auto a = static_cast<std::uint64_t>(_mm_cvtsi128_si64(low));
  const auto b = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(low, low)));
  const auto c = static_cast<std::uint64_t>(_mm_cvtsi128_si64(high));
  const auto d = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(high, high)));
  offset[0] = static_cast<std::uint32_t>(a);
  offset[1] = static_cast<std::size_t>(a >> 32);
  offset[2] = static_cast<std::uint32_t>(b);
  offset[3] = static_cast<std::size_t>(b >> 32);
  offset[4] = static_cast<std::uint32_t>(c);
  offset[5] = static_cast<std::size_t>(c >> 32);
  offset[6] = static_cast<std::uint32_t>(d);
  offset[7] = static_cast<std::size_t>(d >> 32);
}

// One index (2 bytes), clamped to `last`.
template <int kShift = 6>
MARROW_LANES_INLINE std::size_t joint_offset(const std::byte* joint, std::uint32_t last) {
  const std::uint32_t j = load_u16(joint);
  return static_cast<std::size_t>(j < last ? j : last) << kShift;
}

// 1 / sqrt(a) for a > 0 (four lanes): the estimate and one Newton step.
MARROW_LANES_INLINE __m128 rsqrt4(__m128 a) {
  const __m128 y = _mm_rsqrt_ps(a);
  const __m128 half_a_y2 = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), a), _mm_mul_ps(y, y));
  return _mm_mul_ps(y, _mm_sub_ps(_mm_set1_ps(1.5f), half_a_y2));
}

// Lane selectors of the in-lane permutes (a, b, c, d: the source lanes of lanes 0, 1, 2, 3).
#define MARROW_PERM(a, b, c, d) _MM_SHUFFLE(d, c, b, a)

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

// Four influences: the G19 loop of before S1, kept exactly.
MARROW_LANES_INLINE Blend blend4(const std::byte* palette, const std::size_t (&o)[4], const std::byte* w) {
  __m512 s = _mm512_mul_ps(load_matrix(palette, o[0]), _mm512_set1_ps(load_float(w)));
  s = _mm512_fmadd_ps(load_matrix(palette, o[1]), _mm512_set1_ps(load_float(w + 4)), s);
  s = _mm512_fmadd_ps(load_matrix(palette, o[2]), _mm512_set1_ps(load_float(w + 8)), s);
  s = _mm512_fmadd_ps(load_matrix(palette, o[3]), _mm512_set1_ps(load_float(w + 12)), s);
  return {s};
}
// s = M * w, s += M * w (M the 64 bytes at m, w the float at w), s += t, s *= k.
MARROW_LANES_INLINE void blend_first(Blend& s, const std::byte* m, const std::byte* w) {
  s.m = _mm512_mul_ps(_mm512_loadu_ps(m), _mm512_set1_ps(load_float(w)));
}
MARROW_LANES_INLINE void blend_next(Blend& s, const std::byte* m, const std::byte* w) {
  s.m = _mm512_fmadd_ps(_mm512_loadu_ps(m), _mm512_set1_ps(load_float(w)), s.m);
}
MARROW_LANES_INLINE void blend_join(Blend& s, const Blend& t) { s.m = _mm512_add_ps(s.m, t.m); }

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

// S2: sign(det) * cofactor of the 3x3 part: columns (c1 x c2, c2 x c0, c0 x c1), the inverse
// transpose times |det|. Column 3 is left as (nearly) zero; vector_partial drops it anyway.
MARROW_LANES_INLINE Blend cofactor(const Blend& s) {
  const __m512 m = s.m;
  const __m512 r = _mm512_shuffle_f32x4(m, m, _MM_SHUFFLE(3, 0, 2, 1));  // c1 | c2 | c0 | c3
  // Lane by lane cross products: c0 x c1 | c1 x c2 | c2 x c0 | c3 x c3.
  const __m512 x = _mm512_fmsub_ps(_mm512_permute_ps(m, MARROW_PERM(1, 2, 0, 3)), _mm512_permute_ps(r, MARROW_PERM(2, 0, 1, 3)),
                                   _mm512_mul_ps(_mm512_permute_ps(m, MARROW_PERM(2, 0, 1, 3)),
                                                 _mm512_permute_ps(r, MARROW_PERM(1, 2, 0, 3))));
  const __m512 cof = _mm512_shuffle_f32x4(x, x, _MM_SHUFFLE(3, 0, 2, 1));  // c1 x c2 | c2 x c0 | c0 x c1
  // det = c0 . (c1 x c2), summed in lane group 0 and copied everywhere; its sign bit flips cof.
  const __m512 d = _mm512_maskz_mul_ps(0x0007, m, cof);
  const __m512 t = _mm512_add_ps(d, _mm512_permute_ps(d, MARROW_PERM(1, 0, 3, 2)));
  const __m512 u = _mm512_add_ps(t, _mm512_permute_ps(t, MARROW_PERM(2, 3, 0, 1)));
  const __m512 det = _mm512_shuffle_f32x4(u, u, 0);
  // cof ^ (det & sign bit)
  return {_mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(cof), _mm512_castps_si512(det),
                                                        _mm512_set1_epi32(static_cast<int>(0x80000000u)), 0x78))};
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

// Four 16-byte rows (row k into lane group k).
MARROW_LANES_INLINE Quad quad_of_rows(const std::byte* const (&in)[4]) {
  __m512 w = _mm512_castps128_ps512(load4(in[0]));
  w = _mm512_insertf32x4(w, load4(in[1]), 1);
  w = _mm512_insertf32x4(w, load4(in[2]), 2);
  w = _mm512_insertf32x4(w, load4(in[3]), 3);
  return {w};
}
// 64 contiguous bytes (four packed 16-byte rows).
MARROW_LANES_INLINE Quad quad_of_packed_rows(const std::byte* p) { return {_mm512_loadu_ps(p)}; }

// w of vertex k from lane 3 of the four floats at in[k].
MARROW_LANES_INLINE Quad with_w(Quad r, const std::byte* const (&in)[4]) {
  return {_mm512_mask_blend_ps(0x8888, r.v, quad_of_rows(in).v)};
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

// In-lane arithmetic on Quads (every operation acts on the four vertices at once).
MARROW_LANES_INLINE Quad operator+(Quad a, Quad b) { return {_mm512_add_ps(a.v, b.v)}; }
MARROW_LANES_INLINE Quad operator*(Quad a, Quad b) { return {_mm512_mul_ps(a.v, b.v)}; }
MARROW_LANES_INLINE Quad fma(Quad a, Quad b, Quad c) { return {_mm512_fmadd_ps(a.v, b.v, c.v)}; }   // a b + c
MARROW_LANES_INLINE Quad fnma(Quad a, Quad b, Quad c) { return {_mm512_fnmadd_ps(a.v, b.v, c.v)}; }  // c - a b
MARROW_LANES_INLINE Quad splat(float x) { return {_mm512_set1_ps(x)}; }
template <int a, int b, int c, int d>
MARROW_LANES_INLINE Quad perm(Quad q) {
  return {_mm512_permute_ps(q.v, MARROW_PERM(a, b, c, d))};
}
// x ^ (sign bit of s), lane by lane.
MARROW_LANES_INLINE Quad flip_by_sign(Quad x, Quad s) {
  return {_mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(x.v), _mm512_castps_si512(s.v),
                                                        _mm512_set1_epi32(static_cast<int>(0x80000000u)), 0x78))};
}
// The sum of each lane group's four products, in all four of its lanes.
MARROW_LANES_INLINE Quad dot4(Quad a, Quad b) {
  const __m512 m = _mm512_mul_ps(a.v, b.v);
  const __m512 t = _mm512_add_ps(m, _mm512_permute_ps(m, MARROW_PERM(1, 0, 3, 2)));
  return {_mm512_add_ps(t, _mm512_permute_ps(t, MARROW_PERM(2, 3, 0, 1)))};
}
// The same of lanes 0..2 only.
MARROW_LANES_INLINE Quad dot3(Quad a, Quad b) {
  const __m512 m = _mm512_maskz_mul_ps(0x7777, a.v, b.v);
  const __m512 t = _mm512_add_ps(m, _mm512_permute_ps(m, MARROW_PERM(1, 0, 3, 2)));
  return {_mm512_add_ps(t, _mm512_permute_ps(t, MARROW_PERM(2, 3, 0, 1)))};
}
// 1 / max(a, smallest): the 14-bit estimate and one Newton step (about 1 ulp).
MARROW_LANES_INLINE Quad reciprocal_at_least(Quad a, float smallest) {
  const __m512 x = _mm512_max_ps(a.v, _mm512_set1_ps(smallest));
  const __m512 y = _mm512_rcp14_ps(x);
  return {_mm512_mul_ps(y, _mm512_fnmadd_ps(x, y, _mm512_set1_ps(2.f)))};
}
// Lanes 0..2 of each group picked from a (0..3) or b (4..7); lane 3 undefined.
template <int s0, int s1, int s2>
MARROW_LANES_INLINE Quad mix(Quad a, Quad b) {
  const auto pick = [](int s) { return s < 4 ? s : 16 + s - 4; };
  const __m512i index = _mm512_add_epi32(_mm512_broadcast_i32x4(_mm_setr_epi32(pick(s0), pick(s1), pick(s2), 3)),
                                         _mm512_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12));
  return {_mm512_permutex2var_ps(a.v, index, b.v)};
}
// a with lane k of each group taken from b.
template <int k>
MARROW_LANES_INLINE Quad with_lane(Quad a, Quad b) {
  return {_mm512_mask_mov_ps(a.v, static_cast<__mmask16>(0x1111u << k), b.v)};
}

// The dual quaternions (real | dual, 32 bytes) at four offsets: real parts and dual parts. Two
// vertices' 32 bytes per register (a load and a masked 32-byte broadcast), then two shuffles
// part them: half the loads of gathering 16 bytes at a time.
MARROW_LANES_INLINE void gather_dual_quaternions(const std::byte* palette, const std::size_t (&o)[4], Quad& real,
                                                 Quad& dual) {
  const auto at = [palette](std::size_t offset) { return _mm256_loadu_ps(reinterpret_cast<const float*>(palette + offset)); };
  const __m512 a = _mm512_mask_broadcast_f32x8(_mm512_castps256_ps512(at(o[0])), 0xFF00, at(o[1]));
  const __m512 b = _mm512_mask_broadcast_f32x8(_mm512_castps256_ps512(at(o[2])), 0xFF00, at(o[3]));
  real.v = _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(2, 0, 2, 0));
  dual.v = _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(3, 1, 3, 1));
}

// Four scalars, scalar k in every lane of lane group k.
MARROW_LANES_INLINE Quad quad_of_scalars(float a, float b, float c, float d) {
  return {_mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
                                _mm512_castps128_ps512(_mm_setr_ps(a, b, c, d)))};
}

// Four vertices' matrices in Quad layout: column j of every vertex in c[j].
MARROW_LANES_INLINE void columns_of(const Blend (&s)[4], Quad (&c)[4]) {
  const __m512 t0 = _mm512_shuffle_f32x4(s[0].m, s[1].m, _MM_SHUFFLE(1, 0, 1, 0));
  const __m512 t1 = _mm512_shuffle_f32x4(s[0].m, s[1].m, _MM_SHUFFLE(3, 2, 3, 2));
  const __m512 t2 = _mm512_shuffle_f32x4(s[2].m, s[3].m, _MM_SHUFFLE(1, 0, 1, 0));
  const __m512 t3 = _mm512_shuffle_f32x4(s[2].m, s[3].m, _MM_SHUFFLE(3, 2, 3, 2));
  c[0].v = _mm512_shuffle_f32x4(t0, t2, _MM_SHUFFLE(2, 0, 2, 0));
  c[1].v = _mm512_shuffle_f32x4(t0, t2, _MM_SHUFFLE(3, 1, 3, 1));
  c[2].v = _mm512_shuffle_f32x4(t1, t3, _MM_SHUFFLE(2, 0, 2, 0));
  c[3].v = _mm512_shuffle_f32x4(t1, t3, _MM_SHUFFLE(3, 1, 3, 1));
}

// Four packed vec3 (48 bytes): x, y and z of each vertex in every lane of its group.
MARROW_LANES_INLINE void spread_packed_xyz(const std::byte* p, Quad& x, Quad& y, Quad& z) {
  const __m512 v = _mm512_insertf32x4(_mm512_castps256_ps512(_mm256_loadu_ps(reinterpret_cast<const float*>(p))),
                                      load4(p + 32), 2);
  x.v = _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 6, 6, 6, 6, 9, 9, 9, 9), v);
  y.v = _mm512_permutexvar_ps(_mm512_setr_epi32(1, 1, 1, 1, 4, 4, 4, 4, 7, 7, 7, 7, 10, 10, 10, 10), v);
  z.v = _mm512_permutexvar_ps(_mm512_setr_epi32(2, 2, 2, 2, 5, 5, 5, 5, 8, 8, 8, 8, 11, 11, 11, 11), v);
}

// Four (x, y, z) from 12 bytes each.
MARROW_LANES_INLINE Quad quad_of_xyz(const std::byte* const (&in)[4]) {
  const auto xyz = [](const std::byte* p) { return _mm_insert_ps(load_xy(p), _mm_set_ss(load_float(p + 8)), 0x20); };
  __m512 w = _mm512_castps128_ps512(xyz(in[0]));
  w = _mm512_insertf32x4(w, xyz(in[1]), 1);
  w = _mm512_insertf32x4(w, xyz(in[2]), 2);
  w = _mm512_insertf32x4(w, xyz(in[3]), 3);
  return {w};
}

// The offsets of four vertices' four entries, o[vertex][influence]: the four rows of four
// indices (8 bytes each; `contiguous`: 32 packed bytes at rows[0]) clamped and scaled in one
// vector, then read back from memory (cheaper than moving sixteen lanes to registers one by one).
template <int kShift>
MARROW_LANES_INLINE void quad_joint_offsets(const std::byte* const (&rows)[4], bool contiguous, __m128i last,
                                            std::size_t (&o)[4][4]) {
  __m256i j;
  if (contiguous) {
    j = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[0]));
  } else {
    const auto u = [](const std::byte* p) { return static_cast<long long>(load_u64(p)); };
    j = _mm256_set_epi64x(u(rows[3]), u(rows[2]), u(rows[1]), u(rows[0]));
  }
  const __m256i clamped = _mm256_min_epu16(j, _mm256_broadcastsi128_si256(last));
  alignas(64) std::uint32_t bytes[16];
#if MARROW_SKINNING_LEVEL == 2
  _mm512_store_si512(bytes, _mm512_slli_epi32(_mm512_cvtepu16_epi32(clamped), kShift));
#else
  _mm256_store_si256(reinterpret_cast<__m256i*>(bytes), _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(clamped)), kShift));
  _mm256_store_si256(reinterpret_cast<__m256i*>(bytes + 8),
                     _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(clamped, 1)), kShift));
#endif
  // Without this the compiler extracts the lanes with shuffles after all (sixteen of them, on
  // the ports the dual-quaternion kernels are short of); loads of the stored bytes are cheap.
  __asm__("" : "+m"(bytes));
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < 4; ++i) o[k][i] = bytes[4 * k + i];
  }
}



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

MARROW_LANES_INLINE Blend blend4(const std::byte* palette, const std::size_t (&o)[4], const std::byte* w) {
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
MARROW_LANES_INLINE void blend_first(Blend& s, const std::byte* m, const std::byte* w) {
  const __m256 k = _mm256_set1_ps(load_float(w));
  s.lo = _mm256_mul_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(m)), k);
  s.hi = _mm256_mul_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(m) + 8), k);
}
MARROW_LANES_INLINE void blend_next(Blend& s, const std::byte* m, const std::byte* w) {
  const __m256 k = _mm256_set1_ps(load_float(w));
  s.lo = _mm256_fmadd_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(m)), k, s.lo);
  s.hi = _mm256_fmadd_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(m) + 8), k, s.hi);
}
MARROW_LANES_INLINE void blend_join(Blend& s, const Blend& t) {
  s.lo = _mm256_add_ps(s.lo, t.lo);
  s.hi = _mm256_add_ps(s.hi, t.hi);
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

// Lane by lane a x b of two pairs of vectors.
MARROW_LANES_INLINE __m256 cross8(__m256 a, __m256 b) {
  return _mm256_fmsub_ps(_mm256_permute_ps(a, MARROW_PERM(1, 2, 0, 3)), _mm256_permute_ps(b, MARROW_PERM(2, 0, 1, 3)),
                         _mm256_mul_ps(_mm256_permute_ps(a, MARROW_PERM(2, 0, 1, 3)), _mm256_permute_ps(b, MARROW_PERM(1, 2, 0, 3))));
}

// S2: sign(det) * cofactor (see the AVX-512 version).
MARROW_LANES_INLINE Blend cofactor(const Blend& s) {
  const __m256 c12 = _mm256_permute2f128_ps(s.lo, s.hi, 0x21);  // c1 | c2
  const __m256 c20 = _mm256_permute2f128_ps(s.hi, s.lo, 0x20);  // c2 | c0
  const __m256 lo = cross8(c12, c20);                             // c1 x c2 | c2 x c0
  const __m256 c10 = _mm256_permute2f128_ps(s.lo, s.lo, 0x01);  // c1 | c0
  const __m256 hi = _mm256_permute2f128_ps(cross8(s.lo, c10), cross8(s.lo, c10), 0x80);  // c0 x c1 | 0
  const __m128 d = _mm_and_ps(_mm_mul_ps(_mm256_castps256_ps128(s.lo), _mm256_castps256_ps128(lo)),
                              _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)));
  const __m128 t = _mm_add_ps(d, _mm_permute_ps(d, MARROW_PERM(1, 0, 3, 2)));
  const __m128 u = _mm_add_ps(t, _mm_permute_ps(t, MARROW_PERM(2, 3, 0, 1)));
  const __m256 sign = _mm256_and_ps(_mm256_set_m128(u, u), _mm256_set1_ps(-0.f));
  return {_mm256_xor_ps(lo, sign), _mm256_xor_ps(hi, sign)};
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

MARROW_LANES_INLINE Quad quad_of_rows(const std::byte* const (&in)[4]) {
  return {_mm256_set_m128(load4(in[1]), load4(in[0])), _mm256_set_m128(load4(in[3]), load4(in[2]))};
}
MARROW_LANES_INLINE Quad quad_of_packed_rows(const std::byte* p) {
  return {_mm256_loadu_ps(reinterpret_cast<const float*>(p)), _mm256_loadu_ps(reinterpret_cast<const float*>(p + 32))};
}

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

MARROW_LANES_INLINE Quad operator+(Quad a, Quad b) { return {_mm256_add_ps(a.ab, b.ab), _mm256_add_ps(a.cd, b.cd)}; }
MARROW_LANES_INLINE Quad operator*(Quad a, Quad b) { return {_mm256_mul_ps(a.ab, b.ab), _mm256_mul_ps(a.cd, b.cd)}; }
MARROW_LANES_INLINE Quad fma(Quad a, Quad b, Quad c) {
  return {_mm256_fmadd_ps(a.ab, b.ab, c.ab), _mm256_fmadd_ps(a.cd, b.cd, c.cd)};
}
MARROW_LANES_INLINE Quad fnma(Quad a, Quad b, Quad c) {
  return {_mm256_fnmadd_ps(a.ab, b.ab, c.ab), _mm256_fnmadd_ps(a.cd, b.cd, c.cd)};
}
MARROW_LANES_INLINE Quad splat(float x) { return {_mm256_set1_ps(x), _mm256_set1_ps(x)}; }
template <int a, int b, int c, int d>
MARROW_LANES_INLINE Quad perm(Quad q) {
  return {_mm256_permute_ps(q.ab, MARROW_PERM(a, b, c, d)), _mm256_permute_ps(q.cd, MARROW_PERM(a, b, c, d))};
}
MARROW_LANES_INLINE Quad flip_by_sign(Quad x, Quad s) {
  const __m256 sign = _mm256_set1_ps(-0.f);
  return {_mm256_xor_ps(x.ab, _mm256_and_ps(s.ab, sign)), _mm256_xor_ps(x.cd, _mm256_and_ps(s.cd, sign))};
}
MARROW_LANES_INLINE __m256 lane_sums8(__m256 m) {
  const __m256 t = _mm256_add_ps(m, _mm256_permute_ps(m, MARROW_PERM(1, 0, 3, 2)));
  return _mm256_add_ps(t, _mm256_permute_ps(t, MARROW_PERM(2, 3, 0, 1)));
}
MARROW_LANES_INLINE Quad dot4(Quad a, Quad b) {
  return {lane_sums8(_mm256_mul_ps(a.ab, b.ab)), lane_sums8(_mm256_mul_ps(a.cd, b.cd))};
}
MARROW_LANES_INLINE Quad dot3(Quad a, Quad b) {
  const __m256 xyz = _mm256_castsi256_ps(_mm256_setr_epi32(-1, -1, -1, 0, -1, -1, -1, 0));
  return {lane_sums8(_mm256_and_ps(_mm256_mul_ps(a.ab, b.ab), xyz)), lane_sums8(_mm256_and_ps(_mm256_mul_ps(a.cd, b.cd), xyz))};
}
// 1 / max(a, smallest): the 12-bit estimate and one Newton step.
MARROW_LANES_INLINE Quad reciprocal_at_least(Quad a, float smallest) {
  const auto one_over = [smallest](__m256 v) {
    const __m256 x = _mm256_max_ps(v, _mm256_set1_ps(smallest));
    const __m256 y = _mm256_rcp_ps(x);
    return _mm256_mul_ps(y, _mm256_fnmadd_ps(x, y, _mm256_set1_ps(2.f)));
  };
  return {one_over(a.ab), one_over(a.cd)};
}
template <int s0, int s1, int s2>
MARROW_LANES_INLINE Quad mix(Quad a, Quad b) {
  const Quad pa = perm<s0 % 4, s1 % 4, s2 % 4, 3>(a), pb = perm<s0 % 4, s1 % 4, s2 % 4, 3>(b);
  constexpr int from_b = (s0 >= 4 ? 1 : 0) | (s1 >= 4 ? 2 : 0) | (s2 >= 4 ? 4 : 0);
  return {_mm256_blend_ps(pa.ab, pb.ab, from_b | from_b << 4), _mm256_blend_ps(pa.cd, pb.cd, from_b | from_b << 4)};
}
template <int k>
MARROW_LANES_INLINE Quad with_lane(Quad a, Quad b) {
  return {_mm256_blend_ps(a.ab, b.ab, 0x11 << k), _mm256_blend_ps(a.cd, b.cd, 0x11 << k)};
}

MARROW_LANES_INLINE void gather_dual_quaternions(const std::byte* palette, const std::size_t (&o)[4], Quad& real,
                                                 Quad& dual) {
  const auto at = [palette](std::size_t offset) { return _mm256_loadu_ps(reinterpret_cast<const float*>(palette + offset)); };
  const __m256 a = at(o[0]), b = at(o[1]), c = at(o[2]), d = at(o[3]);
  real = {_mm256_permute2f128_ps(a, b, 0x20), _mm256_permute2f128_ps(c, d, 0x20)};
  dual = {_mm256_permute2f128_ps(a, b, 0x31), _mm256_permute2f128_ps(c, d, 0x31)};
}

MARROW_LANES_INLINE Quad quad_of_scalars(float a, float b, float c, float d) {
  return {_mm256_set_m128(_mm_set1_ps(b), _mm_set1_ps(a)), _mm256_set_m128(_mm_set1_ps(d), _mm_set1_ps(c))};
}

MARROW_LANES_INLINE void columns_of(const Blend (&s)[4], Quad (&c)[4]) {
  c[0] = {_mm256_permute2f128_ps(s[0].lo, s[1].lo, 0x20), _mm256_permute2f128_ps(s[2].lo, s[3].lo, 0x20)};
  c[1] = {_mm256_permute2f128_ps(s[0].lo, s[1].lo, 0x31), _mm256_permute2f128_ps(s[2].lo, s[3].lo, 0x31)};
  c[2] = {_mm256_permute2f128_ps(s[0].hi, s[1].hi, 0x20), _mm256_permute2f128_ps(s[2].hi, s[3].hi, 0x20)};
  c[3] = {_mm256_permute2f128_ps(s[0].hi, s[1].hi, 0x31), _mm256_permute2f128_ps(s[2].hi, s[3].hi, 0x31)};
}

MARROW_LANES_INLINE Quad quad_of_xyz(const std::byte* const (&in)[4]) {
  return {_mm256_set_m128(load_xyz(in[1]), load_xyz(in[0])), _mm256_set_m128(load_xyz(in[3]), load_xyz(in[2]))};
}

// The offsets of four vertices' four entries, o[vertex][influence]: the four rows of four
// indices (8 bytes each; `contiguous`: 32 packed bytes at rows[0]) clamped and scaled in one
// vector, then read back from memory (cheaper than moving sixteen lanes to registers one by one).
template <int kShift>
MARROW_LANES_INLINE void quad_joint_offsets(const std::byte* const (&rows)[4], bool contiguous, __m128i last,
                                            std::size_t (&o)[4][4]) {
  __m256i j;
  if (contiguous) {
    j = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[0]));
  } else {
    const auto u = [](const std::byte* p) { return static_cast<long long>(load_u64(p)); };
    j = _mm256_set_epi64x(u(rows[3]), u(rows[2]), u(rows[1]), u(rows[0]));
  }
  const __m256i clamped = _mm256_min_epu16(j, _mm256_broadcastsi128_si256(last));
  alignas(64) std::uint32_t bytes[16];
#if MARROW_SKINNING_LEVEL == 2
  _mm512_store_si512(bytes, _mm512_slli_epi32(_mm512_cvtepu16_epi32(clamped), kShift));
#else
  _mm256_store_si256(reinterpret_cast<__m256i*>(bytes), _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(clamped)), kShift));
  _mm256_store_si256(reinterpret_cast<__m256i*>(bytes + 8),
                     _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(clamped, 1)), kShift));
#endif
  // Without this the compiler extracts the lanes with shuffles after all (sixteen of them, on
  // the ports the dual-quaternion kernels are short of); loads of the stored bytes are cheap.
  __asm__("" : "+m"(bytes));
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < 4; ++i) o[k][i] = bytes[4 * k + i];
  }
}


MARROW_LANES_INLINE void spread_packed_xyz(const std::byte* p, Quad& x, Quad& y, Quad& z) {
  const std::byte* const in[4] = {p, p + 12, p + 24, p + 36};
  const Quad v = quad_of_xyz(in);
  x = perm<0, 0, 0, 0>(v);
  y = perm<1, 1, 1, 1>(v);
  z = perm<2, 2, 2, 2>(v);
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

MARROW_LANES_INLINE Blend blend4(const std::byte* palette, const std::size_t (&o)[4], const std::byte* w) {
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
MARROW_LANES_INLINE void blend_first(Blend& s, const std::byte* m, const std::byte* w) {
  const F4 k = F4::splat(load_float(w));
  for (int c = 0; c < 4; ++c) s.c[c] = F4{load4(m + 16 * c)} * k;
}
MARROW_LANES_INLINE void blend_next(Blend& s, const std::byte* m, const std::byte* w) {
  const F4 k = F4::splat(load_float(w));
  for (int c = 0; c < 4; ++c) s.c[c] = fma(F4{load4(m + 16 * c)}, k, s.c[c]);
}
MARROW_LANES_INLINE void blend_join(Blend& s, const Blend& t) {
  for (int c = 0; c < 4; ++c) s.c[c] = s.c[c] + t.c[c];
}

MARROW_LANES_INLINE F4 times_xyz(const Blend& s, const std::byte* p) {
  const F4 xy{load_xy(p)};
  const F4 z = F4::splat(load_float(p + 8));
  return fma(s.c[2], z, fma(s.c[1], simd::MARROW_SIMD_NS::broadcast<1>(xy), s.c[0] * simd::MARROW_SIMD_NS::broadcast<0>(xy)));
}
MARROW_LANES_INLINE Partial point_partial(const Blend& s, const std::byte* p) { return (times_xyz(s, p) + s.c[3]).v; }
MARROW_LANES_INLINE Partial vector_partial(const Blend& s, const std::byte* p) { return times_xyz(s, p).v; }

MARROW_LANES_INLINE __m128 cross4(__m128 a, __m128 b) {
  return _mm_sub_ps(_mm_mul_ps(_mm_shuffle_ps(a, a, MARROW_PERM(1, 2, 0, 3)), _mm_shuffle_ps(b, b, MARROW_PERM(2, 0, 1, 3))),
                    _mm_mul_ps(_mm_shuffle_ps(a, a, MARROW_PERM(2, 0, 1, 3)), _mm_shuffle_ps(b, b, MARROW_PERM(1, 2, 0, 3))));
}
MARROW_LANES_INLINE __m128 xyz_mask() { return _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)); }
MARROW_LANES_INLINE __m128 lane_sums4(__m128 m) {
  const __m128 t = _mm_add_ps(m, _mm_shuffle_ps(m, m, MARROW_PERM(1, 0, 3, 2)));
  return _mm_add_ps(t, _mm_shuffle_ps(t, t, MARROW_PERM(2, 3, 0, 1)));
}

// S2: sign(det) * cofactor (see the AVX-512 version).
MARROW_LANES_INLINE Blend cofactor(const Blend& s) {
  const __m128 c0 = s.c[0].v, c1 = s.c[1].v, c2 = s.c[2].v;
  const __m128 a = cross4(c1, c2);
  const __m128 det = lane_sums4(_mm_and_ps(_mm_mul_ps(c0, a), xyz_mask()));
  const __m128 sign = _mm_and_ps(det, _mm_set1_ps(-0.f));
  Blend out;
  out.c[0].v = _mm_xor_ps(a, sign);
  out.c[1].v = _mm_xor_ps(cross4(c2, c0), sign);
  out.c[2].v = _mm_xor_ps(cross4(c0, c1), sign);
  out.c[3].v = _mm_setzero_ps();
  return out;
}

struct Half {
  __m128 v[2];
};
MARROW_LANES_INLINE Half reduce_half(Partial q0, Partial q1) { return {{q0, q1}}; }
MARROW_LANES_INLINE Quad reduce(Half a, Half b) { return {{a.v[0], a.v[1], b.v[0], b.v[1]}}; }

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

MARROW_LANES_INLINE Quad quad_of_rows(const std::byte* const (&in)[4]) {
  return {{load4(in[0]), load4(in[1]), load4(in[2]), load4(in[3])}};
}
MARROW_LANES_INLINE Quad quad_of_packed_rows(const std::byte* p) { return {{load4(p), load4(p + 16), load4(p + 32), load4(p + 48)}}; }

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

// Quad arithmetic: four independent registers (no FMA at this level: a multiply and an add).
template <class F>
MARROW_LANES_INLINE Quad each(F f) {
  return {{f(0), f(1), f(2), f(3)}};
}
MARROW_LANES_INLINE Quad operator+(Quad a, Quad b) { return each([&](int k) { return _mm_add_ps(a.v[k], b.v[k]); }); }
MARROW_LANES_INLINE Quad operator*(Quad a, Quad b) { return each([&](int k) { return _mm_mul_ps(a.v[k], b.v[k]); }); }
MARROW_LANES_INLINE Quad fma(Quad a, Quad b, Quad c) {
  return each([&](int k) { return _mm_add_ps(_mm_mul_ps(a.v[k], b.v[k]), c.v[k]); });
}
MARROW_LANES_INLINE Quad fnma(Quad a, Quad b, Quad c) {
  return each([&](int k) { return _mm_sub_ps(c.v[k], _mm_mul_ps(a.v[k], b.v[k])); });
}
MARROW_LANES_INLINE Quad splat(float x) { return each([&](int) { return _mm_set1_ps(x); }); }
template <int a, int b, int c, int d>
MARROW_LANES_INLINE Quad perm(Quad q) {
  return each([&](int k) { return _mm_shuffle_ps(q.v[k], q.v[k], MARROW_PERM(a, b, c, d)); });
}
MARROW_LANES_INLINE Quad flip_by_sign(Quad x, Quad s) {
  return each([&](int k) { return _mm_xor_ps(x.v[k], _mm_and_ps(s.v[k], _mm_set1_ps(-0.f))); });
}
MARROW_LANES_INLINE Quad dot4(Quad a, Quad b) { return each([&](int k) { return lane_sums4(_mm_mul_ps(a.v[k], b.v[k])); }); }
MARROW_LANES_INLINE Quad dot3(Quad a, Quad b) {
  return each([&](int k) { return lane_sums4(_mm_and_ps(_mm_mul_ps(a.v[k], b.v[k]), xyz_mask())); });
}
// 1 / max(a, smallest): the 12-bit estimate and one Newton step.
MARROW_LANES_INLINE Quad reciprocal_at_least(Quad a, float smallest) {
  return each([&](int k) {
    const __m128 x = _mm_max_ps(a.v[k], _mm_set1_ps(smallest));
    const __m128 y = _mm_rcp_ps(x);
    return _mm_mul_ps(y, _mm_sub_ps(_mm_set1_ps(2.f), _mm_mul_ps(x, y)));
  });
}
template <int k>
MARROW_LANES_INLINE __m128 lane_mask() {
  return _mm_castsi128_ps(_mm_setr_epi32(k == 0 ? -1 : 0, k == 1 ? -1 : 0, k == 2 ? -1 : 0, k == 3 ? -1 : 0));
}
template <int s0, int s1, int s2>
MARROW_LANES_INLINE Quad mix(Quad a, Quad b) {
  const Quad pa = perm<s0 % 4, s1 % 4, s2 % 4, 3>(a), pb = perm<s0 % 4, s1 % 4, s2 % 4, 3>(b);
  const __m128 from_b = _mm_castsi128_ps(_mm_setr_epi32(s0 >= 4 ? -1 : 0, s1 >= 4 ? -1 : 0, s2 >= 4 ? -1 : 0, 0));
  return each([&](int i) { return _mm_or_ps(_mm_andnot_ps(from_b, pa.v[i]), _mm_and_ps(from_b, pb.v[i])); });
}
template <int k>
MARROW_LANES_INLINE Quad with_lane(Quad a, Quad b) {
  return each([&](int i) { return _mm_or_ps(_mm_andnot_ps(lane_mask<k>(), a.v[i]), _mm_and_ps(lane_mask<k>(), b.v[i])); });
}

MARROW_LANES_INLINE void gather_dual_quaternions(const std::byte* palette, const std::size_t (&o)[4], Quad& real,
                                                 Quad& dual) {
  for (int k = 0; k < 4; ++k) {
    real.v[k] = load4(palette + o[k]);
    dual.v[k] = load4(palette + o[k] + 16);
  }
}

MARROW_LANES_INLINE Quad quad_of_scalars(float a, float b, float c, float d) {
  return {{_mm_set1_ps(a), _mm_set1_ps(b), _mm_set1_ps(c), _mm_set1_ps(d)}};
}

MARROW_LANES_INLINE void columns_of(const Blend (&s)[4], Quad (&c)[4]) {
  for (int j = 0; j < 4; ++j) {
    for (int k = 0; k < 4; ++k) c[j].v[k] = s[k].c[j].v;
  }
}

MARROW_LANES_INLINE Quad quad_of_xyz(const std::byte* const (&in)[4]) {
  return {{load_xyz(in[0]), load_xyz(in[1]), load_xyz(in[2]), load_xyz(in[3])}};
}

template <int kShift>
MARROW_LANES_INLINE void quad_joint_offsets(const std::byte* const (&rows)[4], bool, __m128i last, std::size_t (&o)[4][4]) {
  for (int k = 0; k < 4; ++k) joint_offsets<kShift>(rows[k], last, o[k]);
}


MARROW_LANES_INLINE void spread_packed_xyz(const std::byte* p, Quad& x, Quad& y, Quad& z) {
  const std::byte* const in[4] = {p, p + 12, p + 24, p + 36};
  const Quad v = quad_of_xyz(in);
  x = perm<0, 0, 0, 0>(v);
  y = perm<1, 1, 1, 1>(v);
  z = perm<2, 2, 2, 2>(v);
}

#endif

// ---------------------------------------------------------------------------------------------
// The same for every level.

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

// The blended matrix of a row of any number (>= 1) of influences: groups of four through the
// vector clamp, the rest one by one.
MARROW_LANES_INLINE Blend blend_any(const std::byte* palette, const std::byte* joints, const std::byte* weights,
                                    std::uint32_t count, __m128i last, std::uint32_t last_joint) {
  Blend s;
  std::uint32_t i = 0;
  if (count >= 4) {
    std::size_t o[4];
    joint_offsets(joints, last, o);
    s = blend4(palette, o, weights);
    i = 4;
  } else {
    blend_first(s, palette + joint_offset(joints, last_joint), weights);
    i = 1;
  }
  for (; i + 4 <= count; i += 4) {
    std::size_t o[4];
    joint_offsets(joints + 2 * i, last, o);
    for (int k = 0; k < 4; ++k) blend_next(s, palette + o[k], weights + 4 * (i + static_cast<std::uint32_t>(k)));
  }
  for (; i < count; ++i) blend_next(s, palette + joint_offset(joints + 2 * i, last_joint), weights + 4 * i);
  return s;
}


// The kernel's copy of the arguments: the pointers advance by four vertices per step. A local
// copy (not the caller's struct) so that the compiler knows the outputs cannot overwrite it and
// keeps it in registers; kPacked: every span tightly packed (strides known at compile time).
// N: the influences per vertex (0: any, read from the arguments).
template <int N, bool kPacked>
struct Streams {
  static_assert(N > 0 || !kPacked, "packed loops know their influence count");
  const std::byte* palette;      // matrices (linear) or dual quaternions
  const std::byte* scale_shear;  // dual quaternions' scale/shear matrices
  __m128i last_joint;  // in every 16-bit lane
  std::uint32_t last;
  std::uint32_t influences;
  const std::byte *joints, *weights, *in_positions, *in_normals, *in_tangents;
  std::byte *out_positions, *out_normals, *out_tangents;
  std::size_t joints_stride, weights_stride, in_positions_stride, in_normals_stride, in_tangents_stride;
  std::size_t out_positions_stride, out_normals_stride, out_tangents_stride;

  explicit Streams(const SkinningArgs& a)
      : palette(reinterpret_cast<const std::byte*>(a.palette)),
        scale_shear(reinterpret_cast<const std::byte*>(a.scale_shear)),
        last_joint(_mm_set1_epi16(static_cast<short>(a.last_joint))),
        last(a.last_joint),
        influences(N > 0 ? static_cast<std::uint32_t>(N) : a.influences),
        joints(a.joints),
        weights(a.weights),
        in_positions(a.in_positions),
        in_normals(a.in_normals),
        in_tangents(a.in_tangents),
        out_positions(a.out_positions),
        out_normals(a.out_normals),
        out_tangents(a.out_tangents),
        joints_stride(kPacked ? N * sizeof(std::uint16_t) : a.joints_stride),
        weights_stride(kPacked ? N * sizeof(float) : a.weights_stride),
        in_positions_stride(kPacked ? 3 * sizeof(float) : a.in_positions_stride),
        in_normals_stride(kPacked ? 3 * sizeof(float) : a.in_normals_stride),
        in_tangents_stride(kPacked ? 4 * sizeof(float) : a.in_tangents_stride),
        out_positions_stride(kPacked ? 3 * sizeof(float) : a.out_positions_stride),
        out_normals_stride(kPacked ? 3 * sizeof(float) : a.out_normals_stride),
        out_tangents_stride(kPacked ? 4 * sizeof(float) : a.out_tangents_stride) {}

  MARROW_LANES_INLINE void advance_rows4() {
    joints += 4 * joints_stride;
    weights += 4 * weights_stride;
  }

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

// The blended matrix of one row of joints and weights (palette: 64-byte matrices); N as in
// Streams.
template <int N, class Args>
MARROW_LANES_INLINE Blend blend_row(const std::byte* p, const std::byte* j, const std::byte* w, const Args& a) {
  if constexpr (N == 4) {  // G19's loop, unchanged by S1
    std::size_t offset[4];
    joint_offsets(j, a.last_joint, offset);
    return blend4(p, offset, w);
  } else if constexpr (N == 1) {
    Blend s;
    blend_first(s, p + joint_offset(j, a.last), w);
    return s;
  } else if constexpr (N == 2) {
    Blend s;
    blend_first(s, p + joint_offset(j, a.last), w);
    blend_next(s, p + joint_offset(j + 2, a.last), w + 4);
    return s;
  } else if constexpr (N == 8) {
    // Two sums of four (two dependency chains), then their sum.
    std::size_t o[8];
    joint_offsets8(j, a.last_joint, o);
    Blend s, t;
    blend_first(s, p + o[0], w);
    blend_first(t, p + o[1], w + 4);
    blend_next(s, p + o[2], w + 8);
    blend_next(t, p + o[3], w + 12);
    blend_next(s, p + o[4], w + 16);
    blend_next(t, p + o[5], w + 20);
    blend_next(s, p + o[6], w + 24);
    blend_next(t, p + o[7], w + 28);
    blend_join(s, t);
    return s;
  } else {
    return blend_any(p, j, w, a.influences, a.last_joint, a.last);
  }
}

}  // namespace

}  // namespace marrow::detail::MARROW_SIMD_NS
