// The AVX-512 blocks of skinning_lanes.inl (included there, inside its namespace, when
// MARROW_SIMD_LEVEL is 2); see that file for the layouts and the rules.
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



