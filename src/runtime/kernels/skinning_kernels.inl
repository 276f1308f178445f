// The linear-blend skinning loops, compiled once per instruction set (skinning_kernels_sse2.cpp,
// _avx2.cpp, _avx512.cpp define MARROW_SIMD_NS and MARROW_SIMD_LEVEL first); the building
// blocks are in skinning_lanes.inl.
//
// Per vertex: the joint indices are clamped to the palette (branch-free) and turned into byte
// offsets; the matrices are blended, S = sum w_i * M_i, with the influence count known to the
// compiler (1, 2, 4, 8) or read from the arguments (any); then S (or its cofactor, for normals
// under non-uniform scale: S2) is applied to the position (and normal and tangent). Vertices go
// four at a time; the last 1..3 vertices run the same code with the last vertex repeated and
// only their own outputs stored.

#include "skinning_lanes.inl"

namespace marrow::detail::MARROW_SIMD_NS {

namespace {

// Vertex v's blended matrix.
template <int N, bool kPacked>
MARROW_LANES_INLINE Blend blend_vertex(const Streams<N, kPacked>& a, std::size_t v) {
  return blend_row<N>(a.palette, a.joints + v * a.joints_stride, a.weights + v * a.weights_stride, a);
}

// The next `count` (1..4) vertices; missing ones repeat the last vertex, computed and not
// stored. Every input of the four vertices is read before any output is written, so an output
// may be its own input (in place). Two vertices at a time are summed as far as they go before
// the next two start (fewer registers live: no spills with positions, normals and tangents).
template <int N, bool kNormals, bool kTangents, bool kUnit, bool kCofactor, bool kPacked>
MARROW_LANES_INLINE void skin_quad(const Streams<N, kPacked>& a, const Root* root, std::size_t count) {
  Half hp[2], hn[2], ht[2];
  const std::byte* tangent_in[4];
#pragma GCC unroll 2
  for (std::size_t h = 0; h < 2; ++h) {
    Partial qp[2], qn[2], qt[2];
#pragma GCC unroll 2
    for (std::size_t i = 0; i < 2; ++i) {
      const std::size_t k = 2 * h + i;
      const std::size_t v = k < count ? k : count - 1;
      const Blend s = blend_vertex(a, v);
      qp[i] = point_partial(s, a.in_positions + v * a.in_positions_stride);
      if constexpr (kNormals) {
        const std::byte* normal = a.in_normals + v * a.in_normals_stride;
        if constexpr (kCofactor) {
          qn[i] = vector_partial(cofactor(s), normal);
        } else {
          qn[i] = vector_partial(s, normal);
        }
      }
      if constexpr (kTangents) {
        tangent_in[k] = a.in_tangents + v * a.in_tangents_stride;
        qt[i] = vector_partial(s, tangent_in[k]);
      }
    }
    hp[h] = reduce_half(qp[0], qp[1]);
    if constexpr (kNormals) hn[h] = reduce_half(qn[0], qn[1]);
    if constexpr (kTangents) ht[h] = reduce_half(qt[0], qt[1]);
  }
  Quad p = reduce(hp[0], hp[1]);
  if (root != nullptr) p = root_point(root->c, p);
  store3_quad(a.out_positions, a.out_positions_stride, p, count);
  if constexpr (kNormals) {
    Quad n = reduce(hn[0], hn[1]);
    if (root != nullptr) n = root_vector(root->n, n);
    if constexpr (kUnit) n = normalized(n);
    store3_quad(a.out_normals, a.out_normals_stride, n, count);
  }
  if constexpr (kTangents) {
    Quad t = reduce(ht[0], ht[1]);
    if (root != nullptr) t = root_vector(root->c, t);
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

template <int N, bool kNormals, bool kTangents, bool kUnit, bool kCofactor, bool kPacked>
void skin(const SkinningArgs& args) noexcept {
  Streams<N, kPacked> a(args);
  const Root with = root_of(args);
  const Root* root = with.on ? &with : nullptr;
  std::size_t left = args.count;
  for (; left >= 4; left -= 4) {
    skin_quad<N, kNormals, kTangents, kUnit, kCofactor>(a, root, 4);
    a.template advance4<kNormals, kTangents>();
  }
  if (left > 0) skin_quad<N, kNormals, kTangents, kUnit, kCofactor>(a, root, left);
}

// The loops for 4 and 8 influences also come with every stride known (separate packed arrays);
// the others take any stride.
template <int N, bool kNormals, bool kTangents, bool kUnit, bool kCofactor>
void skin_any(const SkinningArgs& args) noexcept {
  if constexpr (N == 4 || N == 8) {
    const bool packed = args.joints_stride == N * sizeof(std::uint16_t) && args.weights_stride == N * sizeof(float) &&
                        args.in_positions_stride == 3 * sizeof(float) && args.out_positions_stride == 3 * sizeof(float) &&
                        (!kNormals || (args.in_normals_stride == 3 * sizeof(float) &&
                                       args.out_normals_stride == 3 * sizeof(float))) &&
                        (!kTangents || (args.in_tangents_stride == 4 * sizeof(float) &&
                                        args.out_tangents_stride == 4 * sizeof(float)));
    if (packed) {
      skin<N, kNormals, kTangents, kUnit, kCofactor, true>(args);
      return;
    }
  }
  skin<N, kNormals, kTangents, kUnit, kCofactor, false>(args);
}

// The table row of one influence count, in SkinningAttributes order.
template <int N>
constexpr SkinningKernels::Row row() {
  return {
      skin_any<N, false, false, false, false>, skin_any<N, true, false, false, false>,
      skin_any<N, true, false, true, false>,   skin_any<N, false, true, false, false>,
      skin_any<N, false, true, true, false>,   skin_any<N, true, true, false, false>,
      skin_any<N, true, true, true, false>,    skin_any<N, true, false, false, true>,
      skin_any<N, true, false, true, true>,    skin_any<N, true, true, false, true>,
      skin_any<N, true, true, true, true>,
  };
}

}  // namespace

extern const SkinningKernels kSkinningKernels;
const SkinningKernels kSkinningKernels{{{row<1>(), row<2>(), row<4>(), row<8>(), row<0>()}}};

}  // namespace marrow::detail::MARROW_SIMD_NS
