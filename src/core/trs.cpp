#include "marrow/core/trs.hpp"

#include <cmath>

#include "float4.hpp"
#include "rotation_scale_columns.hpp"

namespace marrow {

glm::mat4 compose_trs(const glm::vec3& t, const glm::quat& q, const glm::vec3& s) {
  float m[9];
  detail::rotation_scale_columns(q.x, q.y, q.z, q.w, s.x, s.y, s.z, m);
  return glm::mat4(glm::vec4(m[0], m[1], m[2], 0.f), glm::vec4(m[3], m[4], m[5], 0.f),
                   glm::vec4(m[6], m[7], m[8], 0.f), glm::vec4(t, 1.f));
}

namespace {

constexpr float kTinyLength = 1e-20f;

glm::vec3 safe_normalize(const glm::vec3& v, float len) { return len > kTinyLength ? v / len : glm::vec3(0.f); }

}  // namespace

Trs decompose_trs(const glm::mat4& m) {
  Trs out;
  out.translation = glm::vec3(m[3]);
  glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
  float len[3] = {glm::length(axis[0]), glm::length(axis[1]), glm::length(axis[2])};
  if (!std::isfinite(len[0]) || !std::isfinite(len[1]) || !std::isfinite(len[2])) {
    out.scale = glm::vec3(len[0], len[1], len[2]);
    return out;  // garbage in: keep the translation, identity rotation
  }
  const float det = glm::dot(axis[0], glm::cross(axis[1], axis[2]));
  if (det < 0.f) len[0] = -len[0];
  out.scale = glm::vec3(len[0], len[1], len[2]);

  glm::vec3 u[3] = {safe_normalize(axis[0], std::fabs(len[0])) * (len[0] < 0.f ? -1.f : 1.f),
                    safe_normalize(axis[1], len[1]), safe_normalize(axis[2], len[2])};
  // Rebuild missing axes (zero scale) from the others so the rotation stays meaningful.
  const bool has[3] = {std::fabs(len[0]) > kTinyLength, len[1] > kTinyLength, len[2] > kTinyLength};
  const int present = int(has[0]) + int(has[1]) + int(has[2]);
  if (present == 0) return out;
  if (present == 1) {
    const int k = has[0] ? 0 : (has[1] ? 1 : 2);
    // Any vector not parallel to u[k] completes a basis.
    const glm::vec3 helper = std::fabs(u[k].x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    u[a] = glm::normalize(glm::cross(helper, u[k]));
    u[b] = glm::cross(u[k], u[a]);
  } else if (present == 2) {
    const int k = !has[0] ? 0 : (!has[1] ? 1 : 2);
    u[k] = glm::normalize(glm::cross(u[(k + 1) % 3], u[(k + 2) % 3]));
  }
  // Drop shear: orthonormalise (Gram-Schmidt keeps x, then y, then z's direction).
  u[0] = glm::normalize(u[0]);
  u[1] = glm::normalize(u[1] - glm::dot(u[1], u[0]) * u[0]);
  u[2] = glm::cross(u[0], u[1]);
  if (!std::isfinite(u[1].x) || !std::isfinite(u[2].x)) return out;
  glm::quat q = glm::quat_cast(glm::mat3(u[0], u[1], u[2]));
  q = glm::normalize(q);
  if (q.w < 0.f) q = -q;
  out.rotation = q;
  return out;
}

}  // namespace marrow
