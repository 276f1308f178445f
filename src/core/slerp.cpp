#include "marrow/core/slerp.hpp"

#include <cmath>

#include "slerp_weights.hpp"

namespace marrow {

glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b_in, float p) {
  glm::quat b = b_in;
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
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
  glm::quat r(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
  const float n2 = r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w;
  return n2 > 0.f ? r * (1.f / std::sqrt(n2)) : a;
}

}  // namespace marrow
