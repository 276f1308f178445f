// The retarget kernel, compiled once per instruction set (see lanes.hpp for the rules of such a
// file). Included by retarget_kernels_sse2.cpp, _avx2.cpp, _avx512.cpp and the emulated copies.
#include <cstddef>
#include <cstdint>

#include "lanes.hpp"
#include "retarget_kernels.hpp"

namespace marrow::detail::MARROW_SIMD_NS {

namespace {

using simd::MARROW_SIMD_NS::F8;

// Component c of the source rotations the block's lanes read (RetargetRig::Block::source: float
// indices of each lane's x component in the source pose; the others follow kPoseLanes apart).
MARROW_LANES_INLINE F8 gather(const float* source, const RetargetRig::Block& b, int c) {
#if MARROW_SIMD_LEVEL >= 1
  const __m256i index = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.source)),
                                         _mm256_set1_epi32(c * static_cast<int>(kPoseLanes)));
  return {_mm256_i32gather_ps(source, index, 4)};
#else
  const float* s = source + c * static_cast<int>(kPoseLanes);
  return {_mm_setr_ps(s[b.source[0]], s[b.source[1]], s[b.source[2]], s[b.source[3]]),
          _mm_setr_ps(s[b.source[4]], s[b.source[5]], s[b.source[6]], s[b.source[7]])};
#endif
}

// out = x * y, eight quaternions (x y z w) at once.
MARROW_LANES_INLINE void multiply(const F8 (&x)[4], const F8 (&y)[4], F8 (&out)[4]) {
  out[0] = x[3] * y[0] + x[0] * y[3] + x[1] * y[2] - x[2] * y[1];
  out[1] = x[3] * y[1] - x[0] * y[2] + x[1] * y[3] + x[2] * y[0];
  out[2] = x[3] * y[2] + x[0] * y[1] - x[1] * y[0] + x[2] * y[3];
  out[3] = x[3] * y[3] - x[0] * y[0] - x[1] * y[1] - x[2] * y[2];
}

void turn(const RetargetRig::Block* blocks, std::size_t count, const TrsBlock* rest, const TrsBlock* source, TrsBlock* target) {
  const float* source_floats = reinterpret_cast<const float*>(source);
  for (std::size_t i = 0; i < count; ++i) {
    const RetargetRig::Block& b = blocks[i];
    const TrsBlock& r = rest[b.block];
    TrsBlock& out = target[b.block];
    for (int c = 0; c < 3; ++c) {
      F8::load(r.t[c]).store(out.t[c]);
      F8::load(r.s[c]).store(out.s[c]);
    }
    if (b.mapped == 0) {
      for (int c = 0; c < 4; ++c) F8::load(r.q[c]).store(out.q[c]);
      continue;
    }
    const F8 q[4] = {gather(source_floats, b, 0), gather(source_floats, b, 1), gather(source_floats, b, 2), gather(source_floats, b, 3)};
    const F8 left[4] = {F8::load(b.left[0]), F8::load(b.left[1]), F8::load(b.left[2]), F8::load(b.left[3])};
    const F8 offset[4] = {F8::load(b.offset[0]), F8::load(b.offset[1]), F8::load(b.offset[2]), F8::load(b.offset[3])};
    F8 lq[4], turned[4];
    multiply(left, q, lq);
    multiply(lq, offset, turned);
    // Unit inputs give a unit product up to rounding; rsqrt with a Newton step keeps it so.
    const F8 scale = rsqrt_of(turned[0] * turned[0] + turned[1] * turned[1] + turned[2] * turned[2] + turned[3] * turned[3]);
    const F8 mask = F8::load(b.mask);
    for (int c = 0; c < 4; ++c) select(mask, turned[c] * scale, F8::load(r.q[c])).store(out.q[c]);
  }
}

}  // namespace

extern const RetargetKernels kRetargetKernels{turn};

}  // namespace marrow::detail::MARROW_SIMD_NS
