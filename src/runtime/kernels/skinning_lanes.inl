// The skinning kernels' building blocks for one instruction set: loads and stores of exactly an
// element's bytes, joint offsets, blended matrices, the products with a vertex and the results
// of four vertices. Included by skinning_kernels.inl (linear blending) and
// dual_quaternion_kernels.inl, each compiled once per level (see simd/lanes.hpp for the rules of
// such a file: raw floats, integers and intrinsics only, no inline functions of other headers);
// the including .cpp defines MARROW_SIMD_NS and MARROW_SIMD_LEVEL (0 = SSE2, 1 = AVX2 + FMA,
// 2 = AVX-512 F/VL/DQ/BW). Each level's blocks are in skinning_lanes_{avx512,avx2,sse2}.inl.
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

#include "lanes.hpp"
#include "skinning_kernels.hpp"

#ifndef MARROW_SIMD_LEVEL
#error "define MARROW_SIMD_LEVEL (0 = sse2, 1 = avx2, 2 = avx512) before including skinning_lanes.inl"
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

#if MARROW_SIMD_LEVEL == 2
#include "skinning_lanes_avx512.inl"
#elif MARROW_SIMD_LEVEL == 1
#include "skinning_lanes_avx2.inl"
#else
#include "skinning_lanes_sse2.inl"
#endif

// ---------------------------------------------------------------------------------------------
// The same for every level.

// The first `count` (1..4) vertices of r to out, `stride` bytes apart, 12 bytes each.
MARROW_LANES_INLINE void store3_quad(std::byte* out, std::size_t stride, Quad r, std::size_t count) {
#if MARROW_SIMD_LEVEL == 2
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
#if MARROW_SIMD_LEVEL == 2
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


// The optional root (SkinningArgs::root), each column in every vertex's lane: positions go
// through c, normals through n, tangents through c's 3x3.
struct Root {
  Quad c[4];
  Quad n[3];
  bool on = false;
};
// (Kept apart from Streams, which the loops copy and keep in registers: a kernel passes a
// pointer, null without a root.)

MARROW_LANES_INLINE Quad repeated_column(const float* m, int column) {
  const auto* p = reinterpret_cast<const std::byte*>(m + 4 * column);
  const std::byte* const rows[4] = {p, p, p, p};
  return quad_of_rows(rows);
}

MARROW_LANES_INLINE Root root_of(const SkinningArgs& a) {
  Root r;
  if (a.root == nullptr) return r;
  for (int k = 0; k < 4; ++k) r.c[k] = repeated_column(a.root, k);
  for (int k = 0; k < 3; ++k) r.n[k] = repeated_column(a.root_normals, k);
  r.on = true;
  return r;
}

// c * (x, y, z, 1) and c * (x, y, z, 0) of each vertex's lane.
MARROW_LANES_INLINE Quad root_point(const Quad (&c)[4], Quad q) {
  return fma(c[0], perm<0, 0, 0, 0>(q), fma(c[1], perm<1, 1, 1, 1>(q), fma(c[2], perm<2, 2, 2, 2>(q), c[3])));
}
template <std::size_t K>
MARROW_LANES_INLINE Quad root_vector(const Quad (&c)[K], Quad q) {
  return fma(c[0], perm<0, 0, 0, 0>(q), fma(c[1], perm<1, 1, 1, 1>(q), c[2] * perm<2, 2, 2, 2>(q)));
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
