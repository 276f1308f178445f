#include "marrow/runtime/two_bone_ik_job.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/core/slerp.hpp"
#include "marrow/core/trs.hpp"

#include "ik_geometry.hpp"

namespace marrow {
namespace {

using namespace detail::ik;  // the solve's geometry, in float or double (ik_geometry.hpp)

// A direction shorter than this fraction of the length it is measured against is treated as
// undefined (float positions carry noise of about 1e-7 of the chain).
constexpr double kOnLine = 1e-5;
// The end lands within this fraction of the chain length of the target: `reached`.
constexpr double kReachTolerance = 1e-5;

// The reach along S -> T: |T - S| softened beyond soften * (a + b) (header), then clamped to
// what the bones can span.
template <class T>
MARROW_INLINE T reach(T distance, T a, T b, T soften) {
  const T chain = a + b;
  T d = distance;
  const T soft_start = soften * chain, soft_span = chain - soft_start;
  if (soft_span > T(0) && d > soft_start) d = chain - soft_span * std::exp(-(d - soft_start) / soft_span);
  return std::clamp(d, std::fabs(a - b), chain);
}

// The unit direction, perpendicular to u, towards which the mid joint bends (header: pole,
// then the current bend, then the bend axis, then start's local +Z or +X).
template <class T>
MARROW_INLINE Vec3<T> bend_direction(const Vec3<T>& s, const Vec3<T>& m, const Vec3<T>& e, const Vec3<T>& u,
                                     const glm::vec3* pole, const Frame<T>& start_frame, T a, T b) {
  const T on_line = static_cast<T>(kOnLine);
  const auto longer = [](const Vec3<T>& v, T length) { return glm::dot(v, v) > length * length; };
  if (pole != nullptr) {
    const Vec3<T> to_pole = Vec3<T>(*pole) - s;
    const Vec3<T> k = perpendicular_part(to_pole, u);
    if (glm::dot(k, k) > on_line * on_line * glm::dot(to_pole, to_pole)) return glm::normalize(k);
  }
  const Vec3<T> k_mid = perpendicular_part(m - s, u);
  if (longer(k_mid, on_line * a)) return glm::normalize(k_mid);
  // The mid joint on the line S-T: keep the sense of the current bend (the knee's hinge axis).
  const Vec3<T> k_hinge = glm::cross(u, glm::cross(m - s, e - m));
  if (longer(k_hinge, on_line * a * b)) return glm::normalize(k_hinge);
  // A straight chain along the line: start's local +Z, or +X when +Z is within 30 degrees of it.
  const Vec3<T> k_z = perpendicular_part(start_frame.axes[2], u);
  if (longer(k_z, T(0.5))) return glm::normalize(k_z);
  return glm::normalize(perpendicular_part(start_frame.axes[0], u));
}

struct Solution {
  glm::quat start{1.f, 0.f, 0.f, 0.f}, mid{1.f, 0.f, 0.f, 0.f};  // local corrections, weighted
  bool reached = false;
};

// The solve in T. Float is exact enough except near a half turn (ik_geometry.hpp): a float
// solve that meets one returns false, and run() solves in double.
template <class T>
MARROW_INLINE bool solve(const TwoBoneIkJob& job, Solution& out) {
  using V = Vec3<T>;
  using Q = Quaternion<T>;
  bool near_half_turn = false;
  bool* const watch = std::is_same_v<T, float> ? &near_half_turn : nullptr;
  const V s = origin<T>(*job.start), m = origin<T>(*job.mid), e = origin<T>(*job.end), t(job.target);
  const T a = glm::length(m - s), b = glm::length(e - m), chain = a + b;
  const Frame<T> start_frame = frame_of<T>(*job.start), mid_frame = frame_of<T>(*job.mid);

  Q r_start(1, 0, 0, 0), r_mid(1, 0, 0, 0);  // model-space rotations about S and the new M
  if (chain > T(0)) {
    const T eps = static_cast<T>(kOnLine) * chain;
    // The direction of the end from S: towards the target, or the current one when the target
    // is on S (the end's, else the upper bone's).
    const T distance = glm::length(t - s);
    V u;
    if (distance > eps) u = (t - s) * (T(1) / distance);
    else if (glm::length(e - s) > eps) u = glm::normalize(e - s);
    else u = glm::normalize(m - s);  // e on s and chain > 0: a is half the chain
    const T d = reach(distance, a, b, static_cast<T>(job.soften));
    const V k = bend_direction(s, m, e, u, job.pole, start_frame, a, b);
    // Law of cosines: the mid joint's distance along u and from the line.
    const T x = d > eps ? std::clamp((a * a - b * b + d * d) / (T(2) * d), -a, a) : T(0);
    const T h = std::sqrt(std::max(a * a - x * x, T(0)));
    const V new_mid = s + x * u + h * k, new_end = s + d * u;
    const V plane_normal = glm::cross(u, k);  // the half-turn axis for opposite directions

    if (a > eps) r_start = shortest_arc(m - s, new_mid - s, plane_normal, watch);
    // The end as start's correction leaves it, turned about the mid joint where it now is.
    const V mid_after = s + r_start * (m - s), end_after = s + r_start * (e - s);
    if (b > eps && glm::dot(new_end - mid_after, new_end - mid_after) > eps * eps) {
      r_mid = shortest_arc(end_after - mid_after, new_end - mid_after, plane_normal, watch);
    }
  }
  if (near_half_turn) return false;

  // Local corrections. Mid's frame is the one start's correction leaves, r_start * mid_frame,
  // so r_mid's axis is turned back by r_start first.
  out.start = weighted(to_local(r_start, start_frame), job.weight);
  const V mid_axis = glm::conjugate(r_start) * V(r_mid.x, r_mid.y, r_mid.z);
  out.mid = weighted(to_local(Q(r_mid.w, mid_axis.x, mid_axis.y, mid_axis.z), mid_frame), job.weight);

  if (job.reached != nullptr) {
    // Where the end lands with the corrections as written (weighted, in float).
    const Q r_start_w = to_model(out.start, start_frame);
    const V mid_w = s + r_start_w * (m - s);
    const V end_w = mid_w + r_start_w * (to_model(out.mid, mid_frame) * (e - m));
    const T tolerance = static_cast<T>(kReachTolerance) * chain;
    out.reached = glm::dot(end_w - t, end_w - t) <= tolerance * tolerance;
  }
  return true;
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

bool TwoBoneIkJob::run() const noexcept {
  if (!validate()) return false;
  Solution solution;
  if (!solve<float>(*this, solution)) solve<double>(*this, solution);
  if (reached != nullptr) *reached = solution.reached;
  *start_correction = solution.start;
  *mid_correction = solution.mid;
  return true;
}

}  // namespace marrow
