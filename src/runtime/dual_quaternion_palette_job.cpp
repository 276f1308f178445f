#include "marrow/runtime/dual_quaternion_palette_job.hpp"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

namespace marrow {

namespace {

// The Gram-Schmidt frame of a's first two columns (right-handed), identity when they are
// (nearly) parallel or vanish: the starting guess of the polar iteration.
glm::dquat gram_schmidt_rotation(const glm::dmat3& a) {
  const double l0 = glm::length(a[0]);
  if (!(l0 > 1e-300)) return glm::dquat(1.0, 0.0, 0.0, 0.0);
  const glm::dvec3 u0 = a[0] / l0;
  glm::dvec3 v1 = a[1] - glm::dot(a[1], u0) * u0;
  double l1 = glm::length(v1);
  if (!(l1 > 1e-12 * l0)) {  // a[1] parallel to a[0]: any perpendicular will do
    v1 = glm::cross(u0, std::abs(u0.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0));
    l1 = glm::length(v1);
  }
  const glm::dvec3 u1 = v1 / l1;
  return glm::normalize(glm::quat_cast(glm::dmat3(u0, u1, glm::cross(u0, u1))));
}

// Mueller et al. 2016: rotate q about omega until R(q)'s columns are as parallel as they get
// to a's (omega vanishes at the polar rotation). Converges for any a, singular ones included.
glm::dquat nearest_rotation(const glm::dmat3& a) {
  glm::dquat q = gram_schmidt_rotation(a);
  for (int iteration = 0; iteration < 64; ++iteration) {
    const glm::dmat3 r = glm::mat3_cast(q);
    const glm::dvec3 omega = glm::cross(r[0], a[0]) + glm::cross(r[1], a[1]) + glm::cross(r[2], a[2]);
    const double denominator = std::abs(glm::dot(r[0], a[0]) + glm::dot(r[1], a[1]) + glm::dot(r[2], a[2])) + 1e-9;
    const glm::dvec3 step = omega / denominator;
    const double angle = glm::length(step);
    if (!(angle > 1e-15)) break;  // also stops on NaN
    q = glm::normalize(glm::angleAxis(angle, step / angle) * q);
  }
  return q;
}

}  // namespace

JobStatus DualQuaternionPaletteJob::validate() const noexcept {
  if (out_dual_quaternions.size() < palette.size()) {
    return job_error("out_dual_quaternions", "has fewer elements than palette");
  }
  if (!out_scale_shear.empty() && out_scale_shear.size() < palette.size()) {
    return job_error("out_scale_shear", "has fewer elements than palette");
  }
  return kJobOk;
}

bool DualQuaternionPaletteJob::run() const noexcept {
  if (!validate()) return false;
  for (std::size_t j = 0; j < palette.size(); ++j) {
    const glm::dmat4 m(palette[j]);
    const glm::dmat3 a(m);
    const double sign = glm::determinant(a) < 0.0 ? -1.0 : 1.0;
    glm::dquat r = nearest_rotation(a * sign);
    if (r.w < 0.0) r = -r;
    const glm::dvec3 t(m[3]);
    const glm::dquat dual = glm::dquat(0.0, t.x, t.y, t.z) * r * 0.5;
    out_dual_quaternions[j].real = glm::vec4(static_cast<float>(r.x), static_cast<float>(r.y), static_cast<float>(r.z),
                                             static_cast<float>(r.w));
    out_dual_quaternions[j].dual = glm::vec4(static_cast<float>(dual.x), static_cast<float>(dual.y),
                                             static_cast<float>(dual.z), static_cast<float>(dual.w));
    if (!out_scale_shear.empty()) {
      const glm::dmat3 s = glm::transpose(glm::mat3_cast(r)) * a;
      glm::mat4 out(1.f);
      for (int c = 0; c < 3; ++c) out[c] = glm::vec4(glm::vec3(s[c]), 0.f);
      out_scale_shear[j] = out;
    }
  }
  return true;
}

}  // namespace marrow
