#include "marrow/runtime/two_bone_ik_job.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/core/slerp.hpp"
#include "marrow/core/trs.hpp"

#include "ik_geometry.hpp"
#include "two_bone_ik_pair.hpp"

namespace marrow {
namespace {

using namespace detail::ik;  // the solve runs in double (ik_geometry.hpp)
using detail::kTwoBoneOnLine;

// The unit direction, perpendicular to u, towards which the mid joint bends (header: pole,
// then the current bend, then the bend axis, then start's local +Z or +X).
Vec bend_direction(const Vec& s, const Vec& m, const Vec& e, const Vec& u, const glm::vec3* pole,
                   const Frame& start_frame, double a, double b) {
  const auto longer = [](const Vec& v, double length) { return glm::dot(v, v) > length * length; };
  if (pole != nullptr) {
    const Vec to_pole = Vec(*pole) - s;
    const Vec k = perpendicular_part(to_pole, u);
    if (glm::dot(k, k) > kTwoBoneOnLine * kTwoBoneOnLine * glm::dot(to_pole, to_pole)) return glm::normalize(k);
  }
  const Vec k_mid = perpendicular_part(m - s, u);
  if (longer(k_mid, kTwoBoneOnLine * a)) return glm::normalize(k_mid);
  // The mid joint on the line S-T: keep the sense of the current bend (the knee's hinge axis).
  const Vec k_hinge = glm::cross(u, glm::cross(m - s, e - m));
  if (longer(k_hinge, kTwoBoneOnLine * a * b)) return glm::normalize(k_hinge);
  // A straight chain along the line: start's local +Z, or +X when +Z is within 30 degrees of it.
  const Vec k_z = perpendicular_part(start_frame.axes[2], u);
  if (longer(k_z, 0.5)) return glm::normalize(k_z);
  return glm::normalize(perpendicular_part(start_frame.axes[0], u));
}

}  // namespace

JobStatus TwoBoneIkJob::validate() const noexcept {
  if (start == nullptr) return job_error("start", "is null");
  if (mid == nullptr) return job_error("mid", "is null");
  if (end == nullptr) return job_error("end", "is null");
  if (start_correction == nullptr) return job_error("start_correction", "is null");
  if (mid_correction == nullptr) return job_error("mid_correction", "is null");
  if (start_correction == mid_correction) return job_error("mid_correction", "is the same quaternion as start_correction");
  if (!is_finite(*start)) return job_error("start", "has a non-finite element");
  if (!is_finite(*mid)) return job_error("mid", "has a non-finite element");
  if (!is_finite(*end)) return job_error("end", "has a non-finite element");
  if (!is_finite(target)) return job_error("target", "is not finite");
  if (pole != nullptr && !is_finite(*pole)) return job_error("pole", "is not finite");
  if (!(weight >= 0.f && weight <= 1.f)) return job_error("weight", "is outside [0, 1]");
  if (!(soften > 0.f && soften <= 1.f)) return job_error("soften", "is outside (0, 1]");
  return kJobOk;
}

namespace {

// The general solve: every case of the header, one chain. The pair solve
// (two_bone_ik_pair.hpp) takes the usual geometry and leaves the rest here.
void solve_general(const TwoBoneIkJob& job) {
  const glm::mat4 *start = job.start, *mid = job.mid, *end = job.end;
  const glm::vec3& target = job.target;
  const glm::vec3* pole = job.pole;
  const Vec s = origin(*start), m = origin(*mid), e = origin(*end), t(target);
  const double a = glm::length(m - s), b = glm::length(e - m), chain = a + b;
  const Frame start_frame = frame_of(*start), mid_frame = frame_of(*mid);

  Quat r_start(1, 0, 0, 0), r_mid(1, 0, 0, 0);  // model-space rotations about S and the new M
  if (chain > 0.0) {
    const double eps = kTwoBoneOnLine * chain;
    // The direction of the end from S: towards the target, or the current one when the target
    // is on S (the end's, else the upper bone's).
    const double distance = glm::length(t - s);
    Vec u;
    if (distance > eps) u = (t - s) * (1.0 / distance);
    else if (glm::length(e - s) > eps) u = glm::normalize(e - s);
    else u = glm::normalize(m - s);  // e on s and chain > 0: a is half the chain
    const double d = detail::two_bone_reach(distance, a, b, job.soften);
    const Vec k = bend_direction(s, m, e, u, pole, start_frame, a, b);
    // Law of cosines: the mid joint's distance along u and from the line.
    const double x = d > eps ? std::clamp((a * a - b * b + d * d) / (2.0 * d), -a, a) : 0.0;
    const double h = std::sqrt(std::max(a * a - x * x, 0.0));
    const Vec new_mid = s + x * u + h * k, new_end = s + d * u;
    const Vec plane_normal = glm::cross(u, k);  // the half-turn axis for opposite directions

    // Both arcs turn a bone onto a place at its own length (x^2 + h^2 = a^2, and the new end
    // lies b from the new mid): the product of the norms is a^2, then b^2.
    if (a > eps) r_start = shortest_arc(m - s, new_mid - s, plane_normal, a * a);
    // The end as start's correction leaves it, turned about the mid joint where it now is.
    const Vec mid_after = s + r_start * (m - s), end_after = mid_after + r_start * (e - m);
    if (b > eps && glm::dot(new_end - mid_after, new_end - mid_after) > eps * eps) {
      r_mid = shortest_arc(end_after - mid_after, new_end - mid_after, plane_normal, b * b);
    }
  }

  // Local corrections. Mid's frame is the one start's correction leaves, r_start * mid_frame,
  // so r_mid's axis is turned back by r_start first.
  const glm::quat start_out = weighted(to_local(r_start, start_frame), job.weight);
  const Vec mid_axis = glm::conjugate(r_start) * Vec(r_mid.x, r_mid.y, r_mid.z);
  const glm::quat mid_out = weighted(to_local(Quat(r_mid.w, mid_axis.x, mid_axis.y, mid_axis.z), mid_frame), job.weight);

  if (job.reached != nullptr) {
    // Where the end lands with the corrections as written (weighted, in float).
    const Vec end_w = s + to_model(start_out, start_frame) * ((m - s) + to_model(mid_out, mid_frame) * (e - m));
    const double tolerance = detail::kTwoBoneReachTolerance * chain;
    *job.reached = glm::dot(end_w - t, end_w - t) <= tolerance * tolerance;
  }
  *job.start_correction = start_out;
  *job.mid_correction = mid_out;
}

// A validated job alone: the pair solve with it in both lanes (the same bits as when it is
// paired), the general solve for what that leaves.
void solve_alone(const TwoBoneIkJob& job) {
  if (detail::solve_two_bone_ik_pair(job, job) != 0) solve_general(job);
}

}  // namespace

bool TwoBoneIkJob::run() const noexcept {
  if (!validate()) return false;
  solve_alone(*this);
  return true;
}

bool TwoBoneIkJob::run_all(std::span<const TwoBoneIkJob> jobs, std::span<bool> ran) noexcept {
  if (ran.size() != jobs.size()) return false;
  std::size_t pending = jobs.size();  // a valid job waiting for a partner
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    ran[i] = jobs[i].validate().ok();
    if (!ran[i]) continue;
    if (pending == jobs.size()) {
      pending = i;
      continue;
    }
    const unsigned left = detail::solve_two_bone_ik_pair(jobs[pending], jobs[i]);
    if ((left & 1u) != 0) solve_general(jobs[pending]);
    if ((left & 2u) != 0) solve_general(jobs[i]);
    pending = jobs.size();
  }
  if (pending != jobs.size()) solve_alone(jobs[pending]);  // validated above
  return true;
}

}  // namespace marrow
