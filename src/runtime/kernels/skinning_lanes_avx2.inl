// The AVX2 + FMA blocks of skinning_lanes.inl (included there, inside its namespace, when
// MARROW_SIMD_LEVEL is 1); see that file for the layouts and the rules.
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
#if MARROW_SIMD_LEVEL == 2
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

