#include "marrow/core/slerp.hpp"

#include <cmath>

namespace marrow {

namespace {

// acos on [0, 1]: sqrt(1 - x) times a degree-7 polynomial (Abramowitz & Stegun 4.4.46).
// Absolute error below 3e-7 in float, and relative precision is kept as x -> 1 because 1 - x
// is exact there, so small angles stay accurate. Estrin's scheme keeps the dependency chain
// short: the player evaluates this once per animated bone per frame.
inline float acos_unit(float x) {
  const float x2 = x * x;
  const float x4 = x2 * x2;
  const float p01 = 1.5707963050f - 0.2145988016f * x;
  const float p23 = 0.0889789874f - 0.0501743046f * x;
  const float p45 = 0.0308918810f - 0.0170881256f * x;
  const float p67 = 0.0066700901f - 0.0012624911f * x;
  const float p = (p01 + p23 * x2) + (p45 + p67 * x2) * x4;
  return std::sqrt(1.f - x) * p;
}

// sin on [0, pi/2]: the odd Taylor series to x^11 (error below 3e-7 there), exact in relative
// terms for small x; also in Estrin form.
inline float sin_quarter(float x) {
  const float x2 = x * x;
  const float x4 = x2 * x2;
  const float x8 = x4 * x4;
  const float c01 = 1.f - x2 * (1.f / 6.f);
  const float c23 = 1.f / 120.f - x2 * (1.f / 5040.f);
  const float c45 = 1.f / 362880.f - x2 * (1.f / 39916800.f);
  return x * ((c01 + c23 * x4) + c45 * x8);
}

}  // namespace

glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b_in, float p) {
  glm::quat b = b_in;
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (d < 0.f) {  // q and -q are the same rotation; take the shorter way round
    b = -b;
    d = -d;
  }
  float wa = 1.f - p, wb = p;
  if (d < 1.f - 1e-6f) {
    // theta is the half-angle between the rotations, in [0, pi/2]. The usual 1 / sin(theta)
    // factor is left out: the result is normalised below, which divides it out exactly.
    const float theta = acos_unit(d);
    if (p >= 0.f && p <= 1.f) {
      wa = sin_quarter(wa * theta);
      wb = sin_quarter(wb * theta);
    } else {  // extrapolation leaves the polynomial's range
      wa = std::sin(wa * theta);
      wb = std::sin(wb * theta);
    }
  }
  // Below ~1.4e-3 rad the lerp is slerp to float precision.
  glm::quat r(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
  const float n2 = r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w;
  return n2 > 0.f ? r * (1.f / std::sqrt(n2)) : a;
}

}  // namespace marrow
