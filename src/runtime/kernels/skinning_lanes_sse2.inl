// The SSE2 blocks of skinning_lanes.inl (included there, inside its namespace, when
// MARROW_SIMD_LEVEL is 0); see that file for the layouts and the rules.
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

