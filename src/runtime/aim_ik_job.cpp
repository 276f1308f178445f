#include "marrow/runtime/aim_ik_job.hpp"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/core/slerp.hpp"
#include "marrow/core/trs.hpp"

#include "ik_geometry.hpp"

namespace marrow {
namespace {

using namespace detail::ik;  // solved in double, as the two-bone job (ik_geometry.hpp)

// forward and up are unit within this; up is refused within about this angle of forward.
constexpr float kUnitTolerance = 1e-3f;
// A pole or up direction closer than this to the twist axis (sine of the angle) gives no twist.
constexpr double kOnAxis = 1e-6;
// The aim line passes within this fraction of the target's distance: `reached`.
constexpr double kReachTolerance = 1e-5;

bool unit(const glm::vec3& v) { return std::fabs(glm::length(v) - 1.f) < kUnitTolerance; }

}  // namespace

JobStatus AimIkJob::validate() const noexcept {
  if (joint == nullptr) return job_error("joint", "is null");
  if (correction == nullptr) return job_error("correction", "is null");
  if (!is_finite(*joint)) return job_error("joint", "has a non-finite element");
  if (!is_finite(target)) return job_error("target", "is not finite");
  if (!is_finite(forward)) return job_error("forward", "is not finite");
  if (!is_finite(offset)) return job_error("offset", "is not finite");
  if (!is_finite(up)) return job_error("up", "is not finite");
  if (!is_finite(pole)) return job_error("pole", "is not finite");
  if (!unit(forward)) return job_error("forward", "is not a unit vector");
  if (!unit(up)) return job_error("up", "is not a unit vector");
  if (glm::length(glm::cross(forward, up)) < kUnitTolerance) return job_error("up", "is parallel to forward");
  if (!(glm::length(Vec(pole)) > 0.0)) return job_error("pole", "is zero");
  if (!(weight >= 0.f && weight <= 1.f)) return job_error("weight", "is outside [0, 1]");
  return kJobOk;
}

bool AimIkJob::run() const noexcept {
  if (!validate()) return false;
  const Frame frame = frame_of(*joint);
  const Vec to_target = Vec(target) - Vec((*joint)[3]);
  const double distance = glm::length(to_target);
  // Model space, before the correction: the aim axis, the up axis (directions of the joint's
  // rotation) and the offset (a joint-space point: where the joint's matrix puts it).
  const Vec f = frame.axes * glm::normalize(Vec(forward));
  const Vec u = frame.axes * glm::normalize(Vec(up));
  const Vec o = glm::dmat3(glm::mat3(*joint)) * Vec(offset);

  Quat r(1, 0, 0, 0);  // model-space rotation about the joint's origin
  bool exact = false;
  if (distance > 0.0) {
    // A rotation about the origin keeps distances from it, so it must take the point of the
    // current aim line (o + t f, t >= 0) at the target's distance onto the target. With
    // o = o_along f + o_across, that point is o_across + sqrt(distance^2 - |o_across|^2) f;
    // it lies on the ray when distance >= |o_across| and (o_along <= 0 or distance >= |o|).
    const double o_along = glm::dot(o, f);
    const Vec o_across = o - o_along * f;
    const double along2 = distance * distance - glm::dot(o_across, o_across);
    exact = along2 >= 0.0 && (o_along <= 0.0 || distance * distance >= glm::dot(o, o));
    // Otherwise the target is inside the offset's sphere: aim from the origin instead.
    const Vec from = exact ? o_across + std::sqrt(along2) * f : f;
    r = shortest_arc(from, to_target, u);
    // Every twist about the origin-target axis keeps the aim; the one that takes up's part
    // across that axis onto the pole's brings up closest to the pole.
    const Vec axis = to_target / distance;
    const Vec up_across = perpendicular_part(r * u, axis);
    const Vec pole_across = perpendicular_part(glm::normalize(Vec(pole)), axis);
    if (glm::length(up_across) > kOnAxis && glm::length(pole_across) > kOnAxis) {
      r = shortest_arc(up_across, pole_across, axis) * r;
    }
  }

  // Local correction: r's axis in the joint's frame, blended from identity by weight.
  const glm::quat out = weighted(to_local(r, frame), weight);

  if (reached != nullptr) {
    // The ray from the offset point, with the correction as written, against the target.
    bool hit = false;
    if (exact) {
      const Quat r_w = to_model(out, frame);
      const Vec to = to_target - r_w * o, dir = glm::normalize(r_w * f);
      const double t = glm::dot(to, dir);
      const double miss = t >= 0.0 ? glm::length(to - t * dir) : glm::length(to);
      hit = miss <= kReachTolerance * distance;
    }
    *reached = hit;
  }
  *correction = out;
  return true;
}

}  // namespace marrow
