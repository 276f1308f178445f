#pragma once
// Private: the core of slerp, written once as templates over float and Float4 and shared by
// slerp_shortest and the track sampler's 4-lane kernel. One formula, bit-identical results.
#include "float4.hpp"

namespace marrow::detail {

// acos on [0, 1]: sqrt(1 - x) times a degree-7 polynomial (Abramowitz & Stegun 4.4.46).
// Absolute error below 3e-7 in float; relative precision is kept as x -> 1 because 1 - x is
// exact there, so small angles stay accurate. Estrin's scheme keeps the dependency chain short.
template <class V>
MARROW_INLINE V acos_unit(V x) {
  const V x2 = x * x;
  const V x4 = x2 * x2;
  const V p01 = constant<V>(1.5707963050f) - constant<V>(0.2145988016f) * x;
  const V p23 = constant<V>(0.0889789874f) - constant<V>(0.0501743046f) * x;
  const V p45 = constant<V>(0.0308918810f) - constant<V>(0.0170881256f) * x;
  const V p67 = constant<V>(0.0066700901f) - constant<V>(0.0012624911f) * x;
  const V p = (p01 + p23 * x2) + (p45 + p67 * x2) * x4;
  return sqrt_of(constant<V>(1.f) - x) * p;
}

// sin on [0, pi/2]: the odd Taylor series to x^11 (error below 3e-7 there), exact in relative
// terms for small x; also in Estrin form.
template <class V>
MARROW_INLINE V sin_quarter(V x) {
  const V x2 = x * x;
  const V x4 = x2 * x2;
  const V x8 = x4 * x4;
  const V c01 = constant<V>(1.f) - x2 * constant<V>(1.f / 6.f);
  const V c23 = constant<V>(1.f / 120.f) - x2 * constant<V>(1.f / 5040.f);
  const V c45 = constant<V>(1.f / 362880.f) - x2 * constant<V>(1.f / 39916800.f);
  return x * ((c01 + c23 * x4) + c45 * x8);
}

// The angle theta = acos(d) of |dot| = d in [0, 1] (clamped: rounding may pass 1), and whether
// it is below ~1.4e-3 rad, where the lerp weights are used (slerp and lerp agree to float
// precision there, and sin(theta) would vanish).
template <class V>
MARROW_INLINE V slerp_angle(V d) {
  return acos_unit(min_of(d, constant<V>(1.f)));
}
template <class V>
MARROW_INLINE auto slerp_linear(V d) {
  return d >= constant<V>(1.f - 1e-6f);
}

// Unnormalised slerp weights at p in [0, 1] for the angle theta: sin((1-p)theta) and
// sin(p theta), or the lerp weights where `linear`; the usual 1/sin(theta) is left out because
// callers normalise the blend, which divides it out.
template <class V, class M>
MARROW_INLINE void slerp_weights_at(V theta, M linear, V p, V& wa, V& wb) {
  const V one = constant<V>(1.f);
  wa = select(linear, one - p, sin_quarter((one - p) * theta));
  wb = select(linear, p, sin_quarter(p * theta));
}

// The same for |dot| = d in [0, 1].
template <class V>
MARROW_INLINE void slerp_weights(V d, V p, V& wa, V& wb) {
  slerp_weights_at(slerp_angle(d), slerp_linear(d), p, wa, wb);
}

}  // namespace marrow::detail
