#include "marrow/core/slerp.hpp"

#include <algorithm>
#include <cmath>

#include "slerp_weights.hpp"

namespace marrow {

namespace {

// |dot| of the normalised keys, and the sign that takes b the shorter way.
float cosine(const glm::quat& a, const glm::quat& b, float na2, float nb2, float& sign) {
  const float d = (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w) / std::sqrt(std::max(na2 * nb2, 1e-30f));
  sign = d < 0.f ? -1.f : 1.f;
  return d < 0.f ? -d : d;
}

float norm2(const glm::quat& q) { return q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w; }

}  // namespace

SlerpArc slerp_arc(const glm::quat& a, const glm::quat& b) {
  SlerpArc arc;
  const float d = cosine(a, b, norm2(a), norm2(b), arc.sign);
  arc.theta = detail::slerp_angle(d);
  arc.linear = detail::slerp_linear(d);
  return arc;
}

glm::quat slerp_direction(const glm::quat& a, const glm::quat& b_in, const SlerpArc& arc, float p) {
  const glm::quat b = arc.sign * b_in;
  float wa = 1.f - p, wb = p;
  detail::slerp_weights_at(arc.theta, arc.linear, p, wa, wb);
  return glm::quat(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
}

glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b_in, float p) {
  // q and -q are the same rotation: b is taken the shorter way round.
  const float na2 = norm2(a), nb2 = norm2(b_in);
  float sign = 1.f;
  const float d = cosine(a, b_in, na2, nb2, sign);
  const glm::quat b = sign * b_in;
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
