// The dual-quaternion skinning loops (S3), compiled once per instruction set
// (dual_quaternion_kernels_sse2.cpp, _avx2.cpp, _avx512.cpp); the building blocks are in
// skinning_lanes.inl.
//
// Four vertices at a time, each in its own 128-bit lane group of every register (a Quad), so
// that each instruction below works for the four of them:
//   1. per influence, the four vertices' dual quaternions (32 bytes each: real | dual) are
//      loaded and regrouped into a Quad of real parts and one of dual parts; each is weighted,
//      its sign flipped when its real part lies in the other hemisphere than the first
//      influence's (dot < 0), and summed;
//   2. the sum, divided by the length of its real part, is turned into the columns of a rotation
//      matrix and a translation, t = 2 (w_r d - w_d r + r x d) (the division by |r|^2 applied to
//      the results, so the length is computed alongside the matrix);
//   3. when the palette is not rigid (a phase chosen per kernel: rigid, uniform, scale/shear),
//      the scale/shear matrices are blended linearly per vertex,
//      divided by the weights' sum, regrouped into Quad columns and multiplied on the right;
//      when each is a multiple of the identity (the palette's scales are uniform), only their
//      factors are blended, one float per influence;
//   4. the matrix is applied to positions, normals (its cofactor when a scale/shear part is not
//      a multiple of the identity: S2) and tangents, exactly as in the linear kernels.

#include "skinning_lanes.inl"

namespace marrow::detail::MARROW_SIMD_NS {

namespace {

// One more influence into the sums: its dual quaternions at offsets o, its weight in every lane
// of each vertex's group (w), signed by the hemisphere of the first influence's real part.
MARROW_LANES_INLINE void add_dual_quaternions(const std::byte* palette, const std::size_t (&o)[4], Quad w,
                                              const Quad& first_real, Quad& real, Quad& dual) {
  Quad r, d;
  gather_dual_quaternions(palette, o, r, d);
  const Quad signed_w = flip_by_sign(w, dot4(r, first_real));
  real = fma(signed_w, r, real);
  dual = fma(signed_w, d, dual);
}

// What step 1 sums, for four vertices.
struct DualQuaternionSums {
  Quad first_real;  // the first influence's real parts (the hemisphere of reference)
  Quad real, dual;
  Quad weight_sum;
  // Uniform scales: sum w_i * S_i[0][0] per vertex, in lane 0 of a register each. Scalar
  // loads and products: gathering the sixteen S[0][0] of a quad into one register took a gather
  // instruction, masked loads or shuffles, each slower on AMD Zen 5 than these (the compiler's
  // own vectorising of plain scalar code picked shuffles; intrinsics keep them scalar).
  __m128 uniform[4] = {_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
};

// sum += w * S[0][0], S the 64-byte matrix at scale_shear + 2 o (o: a dual quaternion's offset).
MARROW_LANES_INLINE void add_uniform_scale(const std::byte* scale_shear, std::size_t o, const std::byte* w, __m128& sum) {
  // (load_float: a weight in a packed vertex row need not be 4-byte aligned.)
  const __m128 product = _mm_mul_ss(_mm_set_ss(load_float(w)), _mm_set_ss(load_float(scale_shear + 2 * o)));
  sum = _mm_add_ss(sum, product);
}

// Influence i of a group of four (kFirst: the vertex's very first influence, whose real part is
// the hemisphere of reference and which starts the sums).
template <int i, bool kFirst, int N, bool kPacked>
MARROW_LANES_INLINE void add_group_member(const Streams<N, kPacked>& a, const std::size_t (&o)[4][4], Quad weights,
                                          bool sum_weights, DualQuaternionSums& sums) {
  const std::size_t at[4] = {o[0][i], o[1][i], o[2][i], o[3][i]};
  const Quad w = perm<i, i, i, i>(weights);
  if constexpr (kFirst) {
    Quad d;
    gather_dual_quaternions(a.palette, at, sums.first_real, d);
    sums.real = w * sums.first_real;
    sums.dual = w * d;
  } else {
    add_dual_quaternions(a.palette, at, w, sums.first_real, sums.real, sums.dual);
  }
  if (sum_weights) sums.weight_sum = kFirst ? w : sums.weight_sum + w;
}

// Influences at..at+3 of the four vertices whose joint and weight rows are j[k], w[k]
// (contiguous: the four rows are packed, 32 bytes of joints and 64 of weights; uniform: also
// sum the scale factors; sum_weights: the weights, for the scale/shear phase).
template <bool kFirst, int N, bool kPacked>
MARROW_LANES_INLINE void add_group(const Streams<N, kPacked>& a, const std::byte* const (&j)[4],
                                   const std::byte* const (&w)[4], std::uint32_t at, bool contiguous, bool uniform,
                                   bool sum_weights, DualQuaternionSums& sums) {
  std::size_t o[4][4];
  const std::byte* const joint_rows[4] = {j[0] + 2 * at, j[1] + 2 * at, j[2] + 2 * at, j[3] + 2 * at};
  quad_joint_offsets<5>(joint_rows, contiguous, a.last_joint, o);
  const std::byte* const rows[4] = {w[0] + 4 * at, w[1] + 4 * at, w[2] + 4 * at, w[3] + 4 * at};
  const Quad weights = contiguous ? quad_of_packed_rows(rows[0]) : quad_of_rows(rows);
  add_group_member<0, kFirst>(a, o, weights, sum_weights, sums);
  add_group_member<1, false>(a, o, weights, sum_weights, sums);
  add_group_member<2, false>(a, o, weights, sum_weights, sums);
  add_group_member<3, false>(a, o, weights, sum_weights, sums);
  if (uniform) {
    for (int k = 0; k < 4; ++k) {
      for (int i = 0; i < 4; ++i) add_uniform_scale(a.scale_shear, o[k][i], rows[k] + 4 * i, sums.uniform[k]);
    }
  }
}

// Influence `at` alone (counts that are not a multiple of four).
template <bool kFirst, int N, bool kPacked>
MARROW_LANES_INLINE void add_single(const Streams<N, kPacked>& a, const std::byte* const (&j)[4],
                                    const std::byte* const (&w)[4], std::uint32_t at, bool uniform,
                                    DualQuaternionSums& sums) {
  const std::size_t o[4] = {joint_offset<5>(j[0] + 2 * at, a.last), joint_offset<5>(j[1] + 2 * at, a.last),
                            joint_offset<5>(j[2] + 2 * at, a.last), joint_offset<5>(j[3] + 2 * at, a.last)};
  const Quad weight = quad_of_scalars(load_float(w[0] + 4 * at), load_float(w[1] + 4 * at), load_float(w[2] + 4 * at),
                                      load_float(w[3] + 4 * at));
  if (uniform) {
    for (int k = 0; k < 4; ++k) add_uniform_scale(a.scale_shear, o[k], w[k] + 4 * at, sums.uniform[k]);
  }
  if constexpr (kFirst) {
    Quad d;
    gather_dual_quaternions(a.palette, o, sums.first_real, d);
    sums.real = weight * sums.first_real;
    sums.dual = weight * d;
    sums.weight_sum = weight;
  } else {
    add_dual_quaternions(a.palette, o, weight, sums.first_real, sums.real, sums.dual);
    sums.weight_sum = sums.weight_sum + weight;
  }
}

// Step 1 for four vertices: N influences (0: a.influences).
template <int N, bool kPacked>
MARROW_LANES_INLINE void blend_dual_quaternions(const Streams<N, kPacked>& a, const std::byte* const (&j)[4],
                                                const std::byte* const (&w)[4], bool contiguous, bool uniform,
                                                bool sum_weights, DualQuaternionSums& sums) {
  const std::uint32_t n = N > 0 ? static_cast<std::uint32_t>(N) : a.influences;
  std::uint32_t i = 0;
  if (n >= 4) {
    add_group<true>(a, j, w, 0, contiguous, uniform, sum_weights, sums);
    i = 4;
  } else {
    add_single<true>(a, j, w, 0, uniform, sums);
    i = 1;
  }
  if constexpr (N == 0) {
    for (; i + 4 <= n; i += 4) add_group<false>(a, j, w, i, false, uniform, sum_weights, sums);
    for (; i < n; ++i) add_single<false>(a, j, w, i, uniform, sums);
  }
}

// Lane by lane a x b (lanes 0..2; lane 3 comes out near zero).
MARROW_LANES_INLINE Quad cross(Quad a, Quad b) {
  return fnma(perm<2, 0, 1, 3>(a), perm<1, 2, 0, 3>(b), perm<1, 2, 0, 3>(a) * perm<2, 0, 1, 3>(b));
}

// Step 2: the rotation's columns m[0..2] and the translation m[3] of the dual quaternion
// (r, d), times |r|^2 (each entry is a product of two of its components; the caller divides by
// n = |r|^2 once, at the end). With P = 2 (xx, yy, zz, ww), U = 2 (xy, yz, zx), V = 2 (wx, wy, wz):
//   diagonal G = P + 2ww - n = (n - 2(yy + zz), n - 2(xx + zz), n - 2(xx + yy))
//   S = U + (Vz, Vx, Vy), D = U - (Vz, Vx, Vy)
//   m0 = (Gx, Sx, Dz), m1 = (Dx, Gy, Sy), m2 = (Sz, Dy, Gz)
//   t  = 2 (w_r d - w_d r + r x d)
// Returns n (in every lane of each vertex's group).
MARROW_LANES_INLINE Quad matrix_times_n(Quad r, Quad d, Quad (&m)[4]) {
  const Quad r2 = r + r;
  const Quad p = r * r2;
  const Quad n = dot4(r, r);
  const Quad u = perm<1, 2, 0, 3>(r) * r2;
  const Quad w = perm<3, 3, 3, 3>(r);
  const Quad v = perm<2, 0, 1, 3>(w * r2);
  const Quad sum = u + v, difference = fnma(splat(1.f), v, u);
  const Quad g = fnma(splat(1.f), n, p + perm<3, 3, 3, 3>(p));
  m[0] = with_lane<2>(mix<0, 4, 2>(g, sum), difference);
  m[1] = with_lane<1>(mix<0, 1, 5>(difference, sum), g);
  m[2] = with_lane<2>(mix<2, 5, 2>(sum, difference), g);
  // t = w_r d2 - w_d2 r + r x d2, d2 = 2 d.
  const Quad d2 = d + d;
  m[3] = fnma(perm<3, 3, 3, 3>(d2), r, w * d2) + cross(r, d2);
  return n;
}

// m (columns) times s (columns, the scale/shear part): m's 3x3 part replaced by m3 * s3.
MARROW_LANES_INLINE void times_scale_shear(Quad (&m)[4], const Quad (&s)[4]) {
  Quad out[3];
  for (int c = 0; c < 3; ++c) {
    out[c] = fma(m[0], perm<0, 0, 0, 0>(s[c]), fma(m[1], perm<1, 1, 1, 1>(s[c]), m[2] * perm<2, 2, 2, 2>(s[c])));
  }
  for (int c = 0; c < 3; ++c) m[c] = out[c];
}

// S2: sign(det) * the cofactor columns (m1 x m2, m2 x m0, m0 x m1).
MARROW_LANES_INLINE void cofactor_of(const Quad (&m)[4], Quad (&k)[3]) {
  k[0] = cross(m[1], m[2]);
  k[1] = cross(m[2], m[0]);
  k[2] = cross(m[0], m[1]);
  const Quad det = dot3(m[0], k[0]);
  for (Quad& c : k) c = flip_by_sign(c, det);
}

// x, y and z of each lane group's vector, each in all four lanes of the group.
MARROW_LANES_INLINE void spread(const Quad& v, Quad& x, Quad& y, Quad& z) {
  x = perm<0, 0, 0, 0>(v);
  y = perm<1, 1, 1, 1>(v);
  z = perm<2, 2, 2, 2>(v);
}

// The rows of the next `count` (1..4) vertices; missing ones repeat the last vertex, computed
// and not stored.
MARROW_LANES_INLINE void quad_rows(const std::byte* base, std::size_t stride, std::size_t count,
                                   const std::byte* (&rows)[4]) {
  for (std::size_t k = 0; k < 4; ++k) rows[k] = base + (k < count ? k : count - 1) * stride;
}

// What step 1 hands to the others, per quad: the blended dual quaternion and, for the scale
// phases, 1 / sum w_i (uniform: already times sum w_i s_i).
struct BlendedQuad {
  Quad real, dual, scale;
};

// Step 1 for the next `count` vertices.
template <int N, int kScale, bool kPacked>
MARROW_LANES_INLINE void blend_quad(const Streams<N, kPacked>& a, std::size_t count, BlendedQuad& out) {
  constexpr bool uniform = kScale == kDualQuaternionUniform, general = kScale == kDualQuaternionScaleShear;
  const std::byte *j[4], *w[4];
  quad_rows(a.joints, a.joints_stride, count, j);
  quad_rows(a.weights, a.weights_stride, count, w);
  DualQuaternionSums sums;
  blend_dual_quaternions(a, j, w, kPacked && N == 4 && count == 4, uniform, uniform || general, sums);
  out.real = sums.real;
  out.dual = sums.dual;
  if constexpr (uniform) {
    // Every S is s I: the blended one is (sum w_i s_i / sum w_i) I, one factor per vertex.
    const __m128* u = sums.uniform;
    out.scale = quad_of_scalars(_mm_cvtss_f32(u[0]), _mm_cvtss_f32(u[1]), _mm_cvtss_f32(u[2]), _mm_cvtss_f32(u[3])) *
                reciprocal_at_least(sums.weight_sum, 1e-30f);
  } else if constexpr (general) {
    out.scale = reciprocal_at_least(sums.weight_sum, 1e-30f);
  }
}

// Steps 2 to 4 for the next `count` vertices, from their sums. Every input of the four
// vertices is read before any output is written, so an output may be its own input (in place).
template <int N, int kScale, bool kNormals, bool kTangents, bool kUnit, bool kCofactor, bool kPacked>
MARROW_LANES_INLINE void finish_quad(const Streams<N, kPacked>& a, const Root* root, std::size_t count, const BlendedQuad& sums) {
  constexpr bool uniform = kScale == kDualQuaternionUniform, general = kScale == kDualQuaternionScaleShear;
  const bool contiguous = kPacked && count == 4;
  // m = the matrix times n; every result is divided by n at the end (normals only when they
  // are not renormalised anyway).
  Quad m[4];
  const Quad inv = reciprocal_at_least(matrix_times_n(sums.real, sums.dual, m), 1e-30f);
  if constexpr (uniform) {
    for (int c = 0; c < 3; ++c) m[c] = m[c] * sums.scale;
  } else if constexpr (general) {
    const std::byte *j[4], *w[4];
    quad_rows(a.joints, a.joints_stride, count, j);
    quad_rows(a.weights, a.weights_stride, count, w);
    Blend s[4];
    for (int k = 0; k < 4; ++k) s[k] = blend_row<N>(a.scale_shear, j[k], w[k], a);
    Quad columns[4];
    columns_of(s, columns);
    for (int c = 0; c < 3; ++c) columns[c] = columns[c] * sums.scale;
    times_scale_shear(m, columns);
  }

  const std::byte* position_in[4];
  quad_rows(a.in_positions, a.in_positions_stride, count, position_in);
  Quad x, y, z;
  if (contiguous) {
    spread_packed_xyz(position_in[0], x, y, z);
  } else {
    spread(quad_of_xyz(position_in), x, y, z);
  }
  Quad position = fma(m[0], x, fma(m[1], y, fma(m[2], z, m[3]))) * inv;
  if (root != nullptr) position = root_point(root->c, position);
  Quad normal, tangent;
  if constexpr (kNormals) {
    const std::byte* normal_in[4];
    quad_rows(a.in_normals, a.in_normals_stride, count, normal_in);
    if (contiguous) {
      spread_packed_xyz(normal_in[0], x, y, z);
    } else {
      spread(quad_of_xyz(normal_in), x, y, z);
    }
    if constexpr (kCofactor) {
      Quad k[3];
      cofactor_of(m, k);
      normal = fma(k[0], x, fma(k[1], y, k[2] * z));
      if constexpr (!kUnit) normal = normal * inv * inv;  // the cofactor of m / n
    } else {
      normal = fma(m[0], x, fma(m[1], y, m[2] * z));
      if constexpr (!kUnit) normal = normal * inv;
    }
    if (root != nullptr) normal = root_vector(root->n, normal);
    if constexpr (kUnit) normal = normalized(normal);
  }
  if constexpr (kTangents) {
    const std::byte* tangent_in[4];
    quad_rows(a.in_tangents, a.in_tangents_stride, count, tangent_in);
    spread(quad_of_rows(tangent_in), x, y, z);
    tangent = fma(m[0], x, fma(m[1], y, m[2] * z));
    if (root != nullptr) tangent = root_vector(root->c, tangent);
    if constexpr (kUnit) {
      tangent = normalized(tangent);
    } else {
      tangent = tangent * inv;
    }
    tangent = with_w(tangent, tangent_in);  // read before any tangent is stored: in place works
  }
  store3_quad(a.out_positions, a.out_positions_stride, position, count);
  if constexpr (kNormals) store3_quad(a.out_normals, a.out_normals_stride, normal, count);
  if constexpr (kTangents) store4_quad(a.out_tangents, a.out_tangents_stride, tangent, count);
}

// Batches of up to kBatch quads: step 1 for all of them, then steps 2 to 4. Each half is a
// loop short enough that the processor runs several of its iterations at once; one loop doing
// everything per quad was held up by its long chain of dependent instructions (offsets, loads,
// hemisphere test, sums, length, matrix, products) with little else to overlap it with.
template <int N, int kScale, bool kNormals, bool kTangents, bool kUnit, bool kCofactor, bool kPacked>
void skin(const SkinningArgs& args) noexcept {
  constexpr std::size_t kBatch = 8;
  Streams<N, kPacked> a(args);
  const Root with = root_of(args);
  const Root* root = with.on ? &with : nullptr;
  std::size_t left = args.count;
  while (left > 0) {
    const std::size_t vertices = left < 4 * kBatch ? left : 4 * kBatch;
    const std::size_t full = vertices / 4, rest = vertices % 4;
    BlendedQuad sums[kBatch];
    Streams<N, kPacked> b = a;
    for (std::size_t q = 0; q < full; ++q) {
      blend_quad<N, kScale>(b, 4, sums[q]);
      b.advance_rows4();
    }
    if (rest > 0) blend_quad<N, kScale>(b, rest, sums[full]);
    for (std::size_t q = 0; q < full; ++q) {
      finish_quad<N, kScale, kNormals, kTangents, kUnit, kCofactor>(a, root, 4, sums[q]);
      a.template advance4<kNormals, kTangents>();
    }
    if (rest > 0) finish_quad<N, kScale, kNormals, kTangents, kUnit, kCofactor>(a, root, rest, sums[full]);
    left -= vertices;
  }
}

template <int N, int kScale, bool kNormals, bool kTangents, bool kUnit, bool kCofactor>
void skin_any(const SkinningArgs& args) noexcept {
  if constexpr (N == 4) {
    const bool packed = args.joints_stride == N * sizeof(std::uint16_t) && args.weights_stride == N * sizeof(float) &&
                        args.in_positions_stride == 3 * sizeof(float) && args.out_positions_stride == 3 * sizeof(float) &&
                        (!kNormals || (args.in_normals_stride == 3 * sizeof(float) &&
                                       args.out_normals_stride == 3 * sizeof(float))) &&
                        (!kTangents || (args.in_tangents_stride == 4 * sizeof(float) &&
                                        args.out_tangents_stride == 4 * sizeof(float)));
    if (packed) {
      skin<N, kScale, kNormals, kTangents, kUnit, kCofactor, true>(args);
      return;
    }
  }
  skin<N, kScale, kNormals, kTangents, kUnit, kCofactor, false>(args);
}

// One row per influence count and scale phase. Cofactor normals come only with non-uniform
// scale/shear parts, so the rigid and uniform rows point their cofactor entries at the
// scale/shear loops (never picked: the job asks for a cofactor only then).
template <int N, int kScale>
constexpr DualQuaternionKernels::Row row() {
  constexpr int kFull = kDualQuaternionScaleShear;
  return {
      skin_any<N, kScale, false, false, false, false>, skin_any<N, kScale, true, false, false, false>,
      skin_any<N, kScale, true, false, true, false>,   skin_any<N, kScale, false, true, false, false>,
      skin_any<N, kScale, false, true, true, false>,   skin_any<N, kScale, true, true, false, false>,
      skin_any<N, kScale, true, true, true, false>,    skin_any<N, kFull, true, false, false, true>,
      skin_any<N, kFull, true, false, true, true>,     skin_any<N, kFull, true, true, false, true>,
      skin_any<N, kFull, true, true, true, true>,
  };
}

template <int N>
constexpr DualQuaternionKernels::Rows rows() {
  return {row<N, kDualQuaternionRigid>(), row<N, kDualQuaternionUniform>(), row<N, kDualQuaternionScaleShear>()};
}

}  // namespace

extern const DualQuaternionKernels kDualQuaternionKernels;
const DualQuaternionKernels kDualQuaternionKernels{{{rows<4>(), rows<0>()}}};

}  // namespace marrow::detail::MARROW_SIMD_NS
