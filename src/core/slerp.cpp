#include "marrow/core/slerp.hpp"

#include <algorithm>
#include <cmath>

#include "slerp_weights.hpp"

namespace marrow {

glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b_in, float p) {
  glm::quat b = b_in;
  const float na2 = a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w;
  const float nb2 = b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w;
  float d = (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w) / std::sqrt(std::max(na2 * nb2, 1e-30f));
  if (d < 0.f) {  // q and -q are the same rotation; take the shorter way round
    b = -b;
    d = -d;
  }
  float wa = 1.f - p, wb = p;
  if (p >= 0.f && p <= 1.f) {
    detail::slerp_weights(d, p, wa, wb);
  } else if (d < 1.f - 1e-6f) {  // extrapolation leaves the polynomials' range
    const float theta = std::acos(d);
    wa = std::sin(wa * theta);
    wb = std::sin(wb * theta);
  }
  // Slerp of the directions; the squared length is interpolated (unit in, unit out; equal
  // lengths kept), as in the track sampler.
  glm::quat r(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
  const float n2 = r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w;
  const float length2 = std::max(na2 + (nb2 - na2) * p, 0.f);
  return n2 > 0.f ? r * std::sqrt(length2 / n2) : a;
}

}  // namespace marrow
