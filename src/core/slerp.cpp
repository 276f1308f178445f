#include "marrow/core/slerp.hpp"

#include <cmath>

namespace marrow {

glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b_in, float p) {
  glm::quat b = b_in;
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (d < 0.f) {  // q and -q are the same rotation; take the shorter way round
    b = -b;
    d = -d;
  }
  float wa = 1.f - p, wb = p;
  if (d < 0.9995f) {
    const float theta = std::acos(d);
    const float inv_sin = 1.f / std::sin(theta);
    wa = std::sin(wa * theta) * inv_sin;
    wb = std::sin(wb * theta) * inv_sin;
    return glm::quat(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
  }
  glm::quat r(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
  const float n = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
  return n > 0.f ? r * (1.f / n) : a;
}

}  // namespace marrow
