// The pose kernels, compiled once per instruction set (see simd/lanes.hpp for the rules of
// such a file). Included by pose_kernels_sse2.cpp, _avx2.cpp and _avx512.cpp.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/rotation_scale_columns.hpp"
#include "core/slerp_weights.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "pose_kernels.hpp"
#include "lanes.hpp"

namespace marrow::detail::MARROW_SIMD_NS {

namespace {

using simd::MARROW_SIMD_NS::F4;
using simd::MARROW_SIMD_NS::F8;

// Below this cosine between two keys' rotations a normalised lerp drifts more than 5e-7 from
// the slerp (sampling_job.hpp).
constexpr float kNlerpMinCos = 0.9995f;

// The bracket interpolated with a blend factor per channel (translation, rotation, scale):
// compiled clips give the three the same, compressed clips keep each channel's own keys.
// kUnitKeys: every rotation key has length 1 (compressed keys), so len_a and len_b are not read;
// the lerp of two 1s is 1, the same bits.
template <bool kUnitKeys>
MARROW_LANES_INLINE void interpolate_lanes(const BracketBlock& in, F8 pt, F8 pr, F8 ps, TrsBlock& out, bool exact_slerp) {
  const F8 zero = F8::splat(0.f), one = F8::splat(1.f);
  const auto clamp01 = [&](F8 x) { return simd::MARROW_SIMD_NS::min_of(simd::MARROW_SIMD_NS::max_of(x, zero), one); };
  pt = clamp01(pt), ps = clamp01(ps);
  const F8 p = clamp01(pr);
  for (int c = 0; c < 3; ++c) {
    const F8 ta = F8::load(in.a[c]), sa = F8::load(in.a[7 + c]);
    fma(F8::load(in.b[c]) - ta, pt, ta).store(out.t[c]);
    fma(F8::load(in.b[7 + c]) - sa, ps, sa).store(out.s[c]);
  }
  F8 qa[4], qb[4];
  for (int c = 0; c < 4; ++c) qa[c] = F8::load(in.a[3 + c]), qb[c] = F8::load(in.b[3 + c]);
  const F8 cosine = F8::load(in.cos_ab);
  F8 wa = one - p, wb = p;
  if (exact_slerp || any(cosine < F8::splat(kNlerpMinCos))) slerp_weights(cosine, p, wa, wb);
  F8 r[4];
  for (int c = 0; c < 4; ++c) r[c] = fma(wa, qa[c], wb * qb[c]);
  const F8 n2 = fma(r[0], r[0], r[1] * r[1]) + fma(r[2], r[2], r[3] * r[3]);
  // The direction interpolated, the length lerped (unit keys stay unit, equal lengths kept).
  F8 scale = rsqrt_of(simd::MARROW_SIMD_NS::max_of(n2, F8::splat(1e-30f)));
  if constexpr (!kUnitKeys) {
    const F8 la = F8::load(in.len_a);
    scale = scale * fma(F8::load(in.len_b) - la, p, la);
  }
  // Exactly on a key (p = 0) that key's rotation, untouched.
  const F8 on_key = p == zero;
  for (int c = 0; c < 4; ++c) select(on_key, qa[c], r[c] * scale).store(out.q[c]);
}

MARROW_LANES_INLINE void interpolate_block(const BracketBlock& in, const float* blend, TrsBlock& out, bool exact_slerp) {
  const F8 p = F8::load(blend);
  interpolate_lanes<false>(in, p, p, p, out, exact_slerp);
}

void interpolate(const BracketBlock* brackets, const float* p, std::size_t blocks, TrsBlock* out, bool exact_slerp) {
  for (std::size_t b = 0; b < blocks; ++b) interpolate_block(brackets[b], p + kPoseLanes * b, out[b], exact_slerp);
}

// The bracket of each lane from its two records: the authored rotation is sign * stored, and
// the next key's stored rotation times the same sign lies in its hemisphere (runtime_clip.hpp).
#if MARROW_SIMD_LEVEL >= 2
// Eight records (sixteen floats each, one register) as sixteen rows of eight lanes: row f is
// float f of every record. Returned in pairs: rows[c] holds row c in its low half and row c + 4
// in its high half (c = 0..3); rows[4 + c] holds rows 8 + c and 12 + c. 24 shuffles: unpack
// pairs of records, then pairs of pairs, then gather the 128-bit lanes.
// GCC 12's _mm512_unpack*_ps and _mm512_extractf32x8_ps start from an undefined register they
// then fully overwrite.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
MARROW_LANES_INLINE void transpose_records(const float* const* rows, __m512 out[8]) {
  __m512 r[8], t[8], u[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm512_loadu_ps(rows[i]);
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int h = 0; h < 2; ++h) {  // records 0-3, then 4-7
    const __m512 lo0 = t[4 * h], hi0 = t[4 * h + 1], lo1 = t[4 * h + 2], hi1 = t[4 * h + 3];
    u[4 * h + 0] = _mm512_shuffle_ps(lo0, lo1, _MM_SHUFFLE(1, 0, 1, 0));  // float 4L + 0 of four records
    u[4 * h + 1] = _mm512_shuffle_ps(lo0, lo1, _MM_SHUFFLE(3, 2, 3, 2));
    u[4 * h + 2] = _mm512_shuffle_ps(hi0, hi1, _MM_SHUFFLE(1, 0, 1, 0));
    u[4 * h + 3] = _mm512_shuffle_ps(hi0, hi1, _MM_SHUFFLE(3, 2, 3, 2));
  }
  // 128-bit lane L of u[c] (records 0-3) and of u[4 + c] (records 4-7) hold float 4L + c.
  const __m512i lanes01 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const __m512i lanes23 = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  for (int c = 0; c < 4; ++c) {
    out[c] = _mm512_permutex2var_ps(u[c], lanes01, u[4 + c]);
    out[4 + c] = _mm512_permutex2var_ps(u[c], lanes23, u[4 + c]);
  }
}

MARROW_LANES_INLINE __m256 row(const __m512 pairs[8], int f) {
  const __m512 pair = pairs[(f / 8) * 4 + f % 4];
  return (f % 8) < 4 ? _mm512_castps512_ps256(pair) : _mm512_extractf32x8_ps(pair, 1);
}

// Record layout in floats: 0-1 time, 2-4 t, 5-8 q, 9-11 s, 12 sign, 13 length, 14 cos_next,
// 15 inv_span.
MARROW_LANES_INLINE void gather_block(const KeyRecord* const* keys, BracketBlock& out) {
  const float* a[kPoseLanes];
  const float* b[kPoseLanes];
  for (std::size_t l = 0; l < kPoseLanes; ++l) {
    a[l] = reinterpret_cast<const float*>(keys[l]);
    b[l] = reinterpret_cast<const float*>(keys[l] + 1);
  }
  __m512 pa[8], pb[8];
  transpose_records(a, pa);
  transpose_records(b, pb);
  const __m256 sign = row(pa, 12);
  for (int c = 0; c < 3; ++c) {
    _mm256_store_ps(out.a[c], row(pa, 2 + c)), _mm256_store_ps(out.b[c], row(pb, 2 + c));
    _mm256_store_ps(out.a[7 + c], row(pa, 9 + c)), _mm256_store_ps(out.b[7 + c], row(pb, 9 + c));
  }
  for (int c = 0; c < 4; ++c) {
    _mm256_store_ps(out.a[3 + c], _mm256_mul_ps(row(pa, 5 + c), sign));
    _mm256_store_ps(out.b[3 + c], _mm256_mul_ps(row(pb, 5 + c), sign));
  }
  _mm256_store_ps(out.len_a, row(pa, 13));
  _mm256_store_ps(out.len_b, row(pb, 13));
  _mm256_store_ps(out.cos_ab, row(pa, 14));
}
#pragma GCC diagnostic pop
#elif MARROW_SIMD_LEVEL >= 1
// Floats [f, f + 4) of eight records as four rows of eight lanes (a 4x8 transpose: the records
// of lanes l and l + 4 share a register, so no shuffle crosses the 128-bit halves).
MARROW_LANES_INLINE void transpose_group(const float* const* rows, int f, __m256 out[4]) {
  __m256 x[4];
  for (int i = 0; i < 4; ++i) {
    x[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(rows[i] + f)), _mm_loadu_ps(rows[i + 4] + f), 1);
  }
  const __m256 t0 = _mm256_unpacklo_ps(x[0], x[1]), t1 = _mm256_unpackhi_ps(x[0], x[1]);
  const __m256 t2 = _mm256_unpacklo_ps(x[2], x[3]), t3 = _mm256_unpackhi_ps(x[2], x[3]);
  out[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  out[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  out[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  out[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

// Record layout in floats: 0-1 time, 2-4 t, 5-8 q, 9-11 s, 12 sign, 13 length, 14 cos_next,
// 15 inv_span.
MARROW_LANES_INLINE void gather_block(const KeyRecord* const* keys, BracketBlock& out) {
  const float* a[kPoseLanes];
  const float* b[kPoseLanes];
  for (std::size_t l = 0; l < kPoseLanes; ++l) {
    a[l] = reinterpret_cast<const float*>(keys[l]);
    b[l] = reinterpret_cast<const float*>(keys[l] + 1);
  }
  __m256 ga[16], gb[16];
  for (int g = 0; g < 4; ++g) transpose_group(a, 4 * g, ga + 4 * g);
  for (int g = 0; g < 4; ++g) transpose_group(b, 4 * g, gb + 4 * g);
  const __m256 sign = ga[12];
  for (int c = 0; c < 3; ++c) {
    _mm256_store_ps(out.a[c], ga[2 + c]), _mm256_store_ps(out.b[c], gb[2 + c]);
    _mm256_store_ps(out.a[7 + c], ga[9 + c]), _mm256_store_ps(out.b[7 + c], gb[9 + c]);
  }
  for (int c = 0; c < 4; ++c) {
    _mm256_store_ps(out.a[3 + c], _mm256_mul_ps(ga[5 + c], sign));
    _mm256_store_ps(out.b[3 + c], _mm256_mul_ps(gb[5 + c], sign));
  }
  _mm256_store_ps(out.len_a, ga[13]);
  _mm256_store_ps(out.len_b, gb[13]);
  _mm256_store_ps(out.cos_ab, ga[14]);
}
#else
MARROW_LANES_INLINE void gather_block(const KeyRecord* const* keys, BracketBlock& out) {
  for (std::size_t l = 0; l < kPoseLanes; ++l) {
    const KeyRecord& a = *keys[l];
    const KeyRecord& b = keys[l][1];
    for (int c = 0; c < 3; ++c) {
      out.a[c][l] = a.t[c], out.b[c][l] = b.t[c];
      out.a[7 + c][l] = a.s[c], out.b[7 + c][l] = b.s[c];
    }
    for (int c = 0; c < 4; ++c) out.a[3 + c][l] = a.q[c] * a.sign, out.b[3 + c][l] = b.q[c] * a.sign;
    out.cos_ab[l] = a.cos_next;
    out.len_a[l] = a.length;
    out.len_b[l] = b.length;
  }
}
#endif

void sample(const KeyRecord* const* keys, const float* p, std::size_t blocks, TrsBlock* out, bool exact_slerp) {
  BracketBlock bracket;
  for (std::size_t b = 0; b < blocks; ++b) {
    gather_block(keys + kPoseLanes * b, bracket);
    interpolate_block(bracket, p + kPoseLanes * b, out[b], exact_slerp);
  }
}

#include "compressed_sampling.inl"

constexpr float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// A column-major 4x4 matrix in four registers.
struct Mat {
  F4 c[4];
};

MARROW_LANES_INLINE Mat load_mat(const float* m) {
  return {{F4::load(m), F4::load(m + 4), F4::load(m + 8), F4::load(m + 12)}};
}

MARROW_LANES_INLINE void store_mat(float* out, const Mat& m) {
  for (int c = 0; c < 4; ++c) m.c[c].store(out + 4 * c);
}

// a * b for a general b (16 floats): column c = sum_r a.c[r] * b[c][r], in two chains.
MARROW_LANES_INLINE Mat mul(const Mat& a, const float* b) {
  Mat out;
  for (int c = 0; c < 4; ++c) {
    const float* bc = b + 4 * c;
    out.c[c] = fma(a.c[0], F4::splat(bc[0]), a.c[1] * F4::splat(bc[1])) +
               fma(a.c[2], F4::splat(bc[2]), a.c[3] * F4::splat(bc[3]));
  }
  return out;
}

// out = a * b, all three 16 floats in memory (out may be a or b: both are read first).
// AVX-512 holds a whole matrix in one register: b's element r of every column is broadcast
// within its 128-bit lane (one in-lane shuffle) and multiplied by a's column r repeated four
// times (one load); AVX2 does two columns per register the same way.
MARROW_LANES_INLINE void mul_store(const float* a, const float* b, float* out) {
#if MARROW_SIMD_LEVEL >= 2
// GCC 12's _mm512_broadcast_f32x4 starts from an undefined register it then fully overwrites.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  const __m512 bz = _mm512_loadu_ps(b);
  const __m512 a0 = _mm512_broadcast_f32x4(_mm_loadu_ps(a)), a1 = _mm512_broadcast_f32x4(_mm_loadu_ps(a + 4));
  const __m512 a2 = _mm512_broadcast_f32x4(_mm_loadu_ps(a + 8)), a3 = _mm512_broadcast_f32x4(_mm_loadu_ps(a + 12));
  const __m512 lo = _mm512_fmadd_ps(a0, _mm512_permute_ps(bz, 0x00), _mm512_mul_ps(a1, _mm512_permute_ps(bz, 0x55)));
  const __m512 hi = _mm512_fmadd_ps(a2, _mm512_permute_ps(bz, 0xAA), _mm512_mul_ps(a3, _mm512_permute_ps(bz, 0xFF)));
  _mm512_storeu_ps(out, _mm512_add_ps(lo, hi));
#pragma GCC diagnostic pop
#elif MARROW_SIMD_LEVEL >= 1
  const __m256 b01 = _mm256_loadu_ps(b), b23 = _mm256_loadu_ps(b + 8);
  const __m256 a0 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a));
  const __m256 a1 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a + 4));
  const __m256 a2 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a + 8));
  const __m256 a3 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a + 12));
  const auto column_pair = [&](__m256 bp) {
    const __m256 lo = _mm256_fmadd_ps(a0, _mm256_permute_ps(bp, 0x00), _mm256_mul_ps(a1, _mm256_permute_ps(bp, 0x55)));
    const __m256 hi = _mm256_fmadd_ps(a2, _mm256_permute_ps(bp, 0xAA), _mm256_mul_ps(a3, _mm256_permute_ps(bp, 0xFF)));
    return _mm256_add_ps(lo, hi);
  };
  const __m256 c01 = column_pair(b01), c23 = column_pair(b23);
  _mm256_storeu_ps(out, c01);
  _mm256_storeu_ps(out + 8, c23);
#else
  store_mat(out, mul(load_mat(a), b));
#endif
}

// The matrix path of compose with the parent's result kept in registers: in depth-first order
// a joint's parent is usually the joint just composed, and reloading it through memory would
// wait on the store of its wide vector (a store-to-load forwarding stall per joint).
#if MARROW_SIMD_LEVEL >= 2
struct Carried {
  __m512 m;
};
MARROW_LANES_INLINE Carried carried_load(const float* a) { return {_mm512_loadu_ps(a)}; }
MARROW_LANES_INLINE void carried_store(float* out, const Carried& a) { _mm512_storeu_ps(out, a.m); }
// GCC 12's _mm512_broadcast_f32x4 / shuffles start from an undefined register they fully overwrite.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
MARROW_LANES_INLINE Carried carried_mul_store(const Carried& a, const float* b, float* out) {
  const __m512 bz = _mm512_loadu_ps(b);
  const __m512 a0 = _mm512_shuffle_f32x4(a.m, a.m, 0x00), a1 = _mm512_shuffle_f32x4(a.m, a.m, 0x55);
  const __m512 a2 = _mm512_shuffle_f32x4(a.m, a.m, 0xAA), a3 = _mm512_shuffle_f32x4(a.m, a.m, 0xFF);
  const __m512 lo = _mm512_fmadd_ps(a0, _mm512_permute_ps(bz, 0x00), _mm512_mul_ps(a1, _mm512_permute_ps(bz, 0x55)));
  const __m512 hi = _mm512_fmadd_ps(a2, _mm512_permute_ps(bz, 0xAA), _mm512_mul_ps(a3, _mm512_permute_ps(bz, 0xFF)));
  const __m512 r = _mm512_add_ps(lo, hi);
  _mm512_storeu_ps(out, r);
  return {r};
}
#pragma GCC diagnostic pop
#elif MARROW_SIMD_LEVEL >= 1
struct Carried {
  __m256 c01, c23;
};
MARROW_LANES_INLINE Carried carried_load(const float* a) { return {_mm256_loadu_ps(a), _mm256_loadu_ps(a + 8)}; }
MARROW_LANES_INLINE void carried_store(float* out, const Carried& a) {
  _mm256_storeu_ps(out, a.c01);
  _mm256_storeu_ps(out + 8, a.c23);
}
MARROW_LANES_INLINE Carried carried_mul_store(const Carried& a, const float* b, float* out) {
  const __m256 a0 = _mm256_permute2f128_ps(a.c01, a.c01, 0x00), a1 = _mm256_permute2f128_ps(a.c01, a.c01, 0x11);
  const __m256 a2 = _mm256_permute2f128_ps(a.c23, a.c23, 0x00), a3 = _mm256_permute2f128_ps(a.c23, a.c23, 0x11);
  const auto column_pair = [&](__m256 bp) {
    const __m256 lo = _mm256_fmadd_ps(a0, _mm256_permute_ps(bp, 0x00), _mm256_mul_ps(a1, _mm256_permute_ps(bp, 0x55)));
    const __m256 hi = _mm256_fmadd_ps(a2, _mm256_permute_ps(bp, 0xAA), _mm256_mul_ps(a3, _mm256_permute_ps(bp, 0xFF)));
    return _mm256_add_ps(lo, hi);
  };
  const Carried r{column_pair(_mm256_loadu_ps(b)), column_pair(_mm256_loadu_ps(b + 8))};
  _mm256_storeu_ps(out, r.c01);
  _mm256_storeu_ps(out + 8, r.c23);
  return r;
}
#else
struct Carried {
  Mat m;
};
MARROW_LANES_INLINE Carried carried_load(const float* a) { return {load_mat(a)}; }
MARROW_LANES_INLINE void carried_store(float* out, const Carried& a) { store_mat(out, a.m); }
MARROW_LANES_INLINE Carried carried_mul_store(const Carried& a, const float* b, float* out) {
  const Carried r{mul(a.m, b)};
  store_mat(out, r.m);
  return r;
}
#endif

#include "pose_compose.inl"

void palette(const PaletteArgs& a) {
  for (std::size_t i = 0; i < a.count; ++i) {
    const std::size_t joint = a.joints != nullptr ? static_cast<std::size_t>(a.joints[i]) : i;
    float* out = a.palette + 16 * i;
    const float* model = a.models + 16 * joint;
    if (a.skin_models != nullptr) {
      // The skin's world kept in registers for its palette entry (the same products as
      // through memory).
      float* skin_model = a.skin_models + 16 * i;
      Carried world;
      if (a.root != nullptr) {
        world = carried_mul_store(carried_load(a.root), model, skin_model);
      } else {
        world = carried_load(model);
        carried_store(skin_model, world);
      }
      carried_mul_store(world, a.inverse_binds + 16 * i, out);
      continue;
    }
    mul_store(model, a.inverse_binds + 16 * i, out);
    if (a.root != nullptr) mul_store(a.root, out, out);
  }
}

// A block's eight local matrices stored: joint l's to out[l], and to also[l] when that is not
// null. Row f (float f of every joint's matrix, lane l joint l) is column f / 4's element f % 4:
// the 3x3 columns of T * R * S, zeros, then the translation and 1. The rows are transposed
// with vector shuffles; every float is moved, none computed, so each level stores the same
// floats as the element-by-element copy would.
#if MARROW_SIMD_LEVEL >= 2
// GCC 12's _mm512_castps256_ps512 and shuffles start from an undefined register they then fully
// overwrite.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
MARROW_LANES_INLINE void store_block_matrices(const TrsBlock& b, float* const* out, float* const* also) {
  F8 m[9];
  rotation_scale_columns(F8::load(b.q[0]), F8::load(b.q[1]), F8::load(b.q[2]), F8::load(b.q[3]), F8::load(b.s[0]),
                         F8::load(b.s[1]), F8::load(b.s[2]), m);
  // z[i]: row i in the low half, row i + 8 in the high half; two 8x8 transposes side by side.
  const auto pair = [](__m256 lo, __m256 hi) { return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1); };
  const __m256 zero = _mm256_setzero_ps();
  const __m512 z[8] = {pair(m[0].v, m[6].v),
                       pair(m[1].v, m[7].v),
                       pair(m[2].v, m[8].v),
                       _mm512_setzero_ps(),
                       pair(m[3].v, _mm256_loadu_ps(b.t[0])),
                       pair(m[4].v, _mm256_loadu_ps(b.t[1])),
                       pair(m[5].v, _mm256_loadu_ps(b.t[2])),
                       pair(zero, _mm256_set1_ps(1.f))};
  __m512 t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(z[2 * i], z[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(z[2 * i], z[2 * i + 1]);
  }
  // 128-bit lane L of u[4h + c]: element c of lane L of z[4h..4h+3], i.e. floats
  // 4h + 8 (L / 2) .. + 3 of joint 4 (L % 2) + c.
  for (int h = 0; h < 2; ++h) {
    const __m512 lo0 = t[4 * h], hi0 = t[4 * h + 1], lo1 = t[4 * h + 2], hi1 = t[4 * h + 3];
    u[4 * h + 0] = _mm512_shuffle_ps(lo0, lo1, _MM_SHUFFLE(1, 0, 1, 0));
    u[4 * h + 1] = _mm512_shuffle_ps(lo0, lo1, _MM_SHUFFLE(3, 2, 3, 2));
    u[4 * h + 2] = _mm512_shuffle_ps(hi0, hi1, _MM_SHUFFLE(1, 0, 1, 0));
    u[4 * h + 3] = _mm512_shuffle_ps(hi0, hi1, _MM_SHUFFLE(3, 2, 3, 2));
  }
  const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
  const __m512i second = _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
  for (int c = 0; c < 4; ++c) {
    const __m512 a = _mm512_permutex2var_ps(u[c], first, u[4 + c]);   // joint c
    const __m512 e = _mm512_permutex2var_ps(u[c], second, u[4 + c]);  // joint 4 + c
    _mm512_storeu_ps(out[c], a);
    if (also[c] != nullptr) _mm512_storeu_ps(also[c], a);
    _mm512_storeu_ps(out[4 + c], e);
    if (also[4 + c] != nullptr) _mm512_storeu_ps(also[4 + c], e);
  }
}
#pragma GCC diagnostic pop
#elif MARROW_SIMD_LEVEL >= 1
MARROW_LANES_INLINE void store_block_matrices(const TrsBlock& b, float* const* out, float* const* also) {
  F8 m[9];
  rotation_scale_columns(F8::load(b.q[0]), F8::load(b.q[1]), F8::load(b.q[2]), F8::load(b.q[3]), F8::load(b.s[0]),
                         F8::load(b.s[1]), F8::load(b.s[2]), m);
  const __m256 zero = _mm256_setzero_ps();
  const __m256 rows[4][4] = {{m[0].v, m[1].v, m[2].v, zero},
                             {m[3].v, m[4].v, m[5].v, zero},
                             {m[6].v, m[7].v, m[8].v, zero},
                             {_mm256_loadu_ps(b.t[0]), _mm256_loadu_ps(b.t[1]), _mm256_loadu_ps(b.t[2]), _mm256_set1_ps(1.f)}};
  // q[g][c]: column g of joint c in the low 128 bits, of joint 4 + c in the high ones (a 4x4
  // transpose within each half).
  __m256 q[4][4];
  for (int g = 0; g < 4; ++g) {
    const __m256* r = rows[g];
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    q[g][0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    q[g][1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    q[g][2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    q[g][3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int c = 0; c < 4; ++c) {
    const __m256 a01 = _mm256_permute2f128_ps(q[0][c], q[1][c], 0x20), a23 = _mm256_permute2f128_ps(q[2][c], q[3][c], 0x20);
    const __m256 e01 = _mm256_permute2f128_ps(q[0][c], q[1][c], 0x31), e23 = _mm256_permute2f128_ps(q[2][c], q[3][c], 0x31);
    _mm256_storeu_ps(out[c], a01), _mm256_storeu_ps(out[c] + 8, a23);
    if (also[c] != nullptr) _mm256_storeu_ps(also[c], a01), _mm256_storeu_ps(also[c] + 8, a23);
    _mm256_storeu_ps(out[4 + c], e01), _mm256_storeu_ps(out[4 + c] + 8, e23);
    if (also[4 + c] != nullptr) _mm256_storeu_ps(also[4 + c], e01), _mm256_storeu_ps(also[4 + c] + 8, e23);
  }
}
#else
MARROW_LANES_INLINE void store_block_matrices(const TrsBlock& b, float* const* out, float* const* also) {
  F8 m[9];
  rotation_scale_columns(F8::load(b.q[0]), F8::load(b.q[1]), F8::load(b.q[2]), F8::load(b.q[3]), F8::load(b.s[0]),
                         F8::load(b.s[1]), F8::load(b.s[2]), m);
  const F8 t[3] = {F8::load(b.t[0]), F8::load(b.t[1]), F8::load(b.t[2])};
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.f);
  // Column g of four joints at a time: a 4x4 transpose per half of each group of rows.
  for (int g = 0; g < 4; ++g) {
    const F8 r0 = g < 3 ? m[3 * g] : t[0], r1 = g < 3 ? m[3 * g + 1] : t[1], r2 = g < 3 ? m[3 * g + 2] : t[2];
    const __m128 last = g < 3 ? zero : one;
    for (int h = 0; h < 2; ++h) {
      const __m128 x0 = h == 0 ? r0.lo : r0.hi, x1 = h == 0 ? r1.lo : r1.hi, x2 = h == 0 ? r2.lo : r2.hi;
      const __m128 t0 = _mm_unpacklo_ps(x0, x1), t1 = _mm_unpackhi_ps(x0, x1);
      const __m128 t2 = _mm_unpacklo_ps(x2, last), t3 = _mm_unpackhi_ps(x2, last);
      const __m128 col[4] = {_mm_movelh_ps(t0, t2), _mm_movehl_ps(t2, t0), _mm_movelh_ps(t1, t3), _mm_movehl_ps(t3, t1)};
      for (int c = 0; c < 4; ++c) {
        _mm_storeu_ps(out[4 * h + c] + 4 * g, col[c]);
        if (also[4 * h + c] != nullptr) _mm_storeu_ps(also[4 * h + c] + 4 * g, col[c]);
      }
    }
  }
}
#endif

// Joint j's matrix to out (16 floats each) and, where scene[j] >= 0, to scene_out + 16 scene[j].
void to_matrices(const TrsBlock* pose, std::size_t joints, float* out, const int* scene, float* scene_out) {
  alignas(64) float spare[kPoseLanes][16];  // the last block's lanes past the joints
  float* dst[kPoseLanes];
  float* also[kPoseLanes];
  if (scene == nullptr) {
    // No scatter: a loop that never reads through the null `scene`. GCC vectorises the loop below
    // into masked loads from it; on the AMD EPYC host measured each took a microcode assist, even
    // with an empty mask: four times the cost of the conversion.
    for (std::size_t l = 0; l < kPoseLanes; ++l) also[l] = nullptr;
    for (std::size_t b = 0; b * kPoseLanes < joints; ++b) {
      for (std::size_t l = 0; l < kPoseLanes; ++l) {
        const std::size_t j = b * kPoseLanes + l;
        dst[l] = j < joints ? out + 16 * j : spare[l];
      }
      store_block_matrices(pose[b], dst, also);
    }
    return;
  }
  for (std::size_t b = 0; b * kPoseLanes < joints; ++b) {
    for (std::size_t l = 0; l < kPoseLanes; ++l) {
      const std::size_t j = b * kPoseLanes + l;
      float* const node = j < joints && scene != nullptr && scene[j] >= 0 ? scene_out + 16 * static_cast<std::size_t>(scene[j]) : nullptr;
      // With out null, the scene's nodes only.
      dst[l] = out != nullptr ? (j < joints ? out + 16 * j : spare[l]) : (node != nullptr ? node : spare[l]);
      also[l] = out != nullptr ? node : nullptr;
    }
    store_block_matrices(pose[b], dst, also);
  }
}

// Both scans keep int lanes and no early exit, so that GCC vectorises them at this level's width.
bool late_parent(const int* parents, std::size_t from, std::size_t to) {
  int late = 0;
  for (int i = static_cast<int>(from); i < static_cast<int>(to); ++i) late |= static_cast<int>(parents[i] >= i);
  return late != 0;
}

bool beyond(const std::uint32_t* indices, std::size_t n, std::uint32_t limit, std::uint32_t skip, bool* skipped) {
  std::uint32_t outside = 0, equal = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t v = indices[i];
    const auto is_skip = static_cast<std::uint32_t>(v == skip);
    equal |= is_skip;
    outside |= static_cast<std::uint32_t>(v >= limit) & (is_skip ^ 1u);
  }
  *skipped = equal != 0;
  return outside != 0;
}

}  // namespace

extern const PoseKernels kPoseKernels;
const PoseKernels kPoseKernels{&interpolate, &sample, &sample_compressed, &sample_pose, &compose, &palette, &to_matrices, &late_parent, &beyond};

}  // namespace marrow::detail::MARROW_SIMD_NS
