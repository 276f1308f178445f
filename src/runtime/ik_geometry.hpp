#pragma once
// Private: the geometry the IK jobs solve with (two_bone_ik_job.cpp, aim_ik_job.cpp), for float
// or double. The shortest arc between nearly opposite directions loses about 1e-7 / (pi - angle)
// in float, which near a half turn would miss the jobs' 1e-5 reach tolerance: the aim job solves
// in double; the two-bone job solves in float and again in double when an arc comes within
// kFloatArcLimit of a half turn (shortest_arc's `near_half_turn`).
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "core/float4.hpp"
#include "marrow/core/slerp.hpp"
#include "marrow/core/trs.hpp"

namespace marrow::detail::ik {

template <class T>
using Vec3 = glm::vec<3, T>;
template <class T>
using Quaternion = glm::qua<T>;
using Vec = Vec3<double>;
using Quat = Quaternion<double>;

// cos(0.15): a float arc closer than 0.15 rad to a half turn may be off by about 1e-6 rad.
constexpr double kFloatArcLimit = 0.98877;

template <class T = double>
MARROW_INLINE Vec3<T> origin(const glm::mat4& m) { return Vec3<T>(m[3]); }

// The rotation part of a model matrix as an orthonormal frame: x normalised, y made
// perpendicular to it, z = x cross y, negated when the matrix mirrors (det = -1). A mirror is
// taken to come from above the joint (a mirrored ancestor): with the joint's own scale
// positive, a model-space rotation r is the local correction frame^-1 * r * frame, whose axis
// is det * frame^T * r's axis. decompose_trs's rotation is the fallback when a column vanishes.
template <class T = double>
struct Frame {
  glm::mat<3, 3, T> axes{T(1)};
  T det = 1;
};

template <class T = double>
MARROW_INLINE Frame<T> frame_of(const glm::mat4& m) {
  Vec3<T> x(m[0]), y(m[1]);
  const Vec3<T> z(m[2]);
  const T xx = glm::dot(x, x);
  const T tiny = static_cast<T>(1e-30);
  if (xx > tiny) y -= (glm::dot(y, x) / xx) * x;
  const T yy = glm::dot(y, y);
  if (!(xx > tiny && yy > tiny && glm::dot(z, z) > tiny)) {
    return Frame<T>{glm::mat<3, 3, T>(glm::mat3_cast(decompose_trs(m).rotation)), T(1)};
  }
  x *= T(1) / std::sqrt(xx);  // one division each, not three
  y *= T(1) / std::sqrt(yy);
  const T det = glm::dot(glm::cross(x, y), z) < T(0) ? T(-1) : T(1);
  return Frame<T>{glm::mat<3, 3, T>(x, y, det * glm::cross(x, y)), det};
}

template <class T>
MARROW_INLINE Vec3<T> perpendicular_part(const Vec3<T>& v, const Vec3<T>& unit) { return v - glm::dot(v, unit) * unit; }

// A unit vector perpendicular to the unit vector v (crossed with its smallest axis).
template <class T>
Vec3<T> any_perpendicular(const Vec3<T>& v) {
  const Vec3<T> a = glm::abs(v);
  const Vec3<T> axis = a.x <= a.y && a.x <= a.z ? Vec3<T>(1, 0, 0) : (a.y <= a.z ? Vec3<T>(0, 1, 0) : Vec3<T>(0, 0, 1));
  return glm::normalize(glm::cross(v, axis));
}

// The shortest rotation taking the direction of `from` to that of `to` (both non-zero):
// (|f||t| + f.t, f x t) normalised. Opposite directions turn half a turn about `fallback`
// (made perpendicular to `from`). An arc within kFloatArcLimit of a half turn sets
// *near_half_turn when given (a float solve's caller then solves in double).
template <class T>
MARROW_INLINE Quaternion<T> shortest_arc(const Vec3<T>& from, const Vec3<T>& to, const Vec3<T>& fallback,
                                         bool* near_half_turn = nullptr) {
  const T norms = std::sqrt(glm::dot(from, from) * glm::dot(to, to));
  const T c = glm::dot(from, to);
  if (near_half_turn != nullptr && c < static_cast<T>(-kFloatArcLimit) * norms) *near_half_turn = true;
  if (c > (T(-1) + static_cast<T>(1e-14)) * norms) {
    const Vec3<T> v = glm::cross(from, to);
    return glm::normalize(Quaternion<T>(norms + c, v.x, v.y, v.z));
  }
  const Vec3<T> f = glm::normalize(from);
  Vec3<T> axis = perpendicular_part(fallback, f);
  axis = glm::dot(axis, axis) > static_cast<T>(1e-20) ? glm::normalize(axis) : any_perpendicular(f);
  return Quaternion<T>(T(0), axis.x, axis.y, axis.z);
}

// The local correction for a model-space rotation r about a joint (frame_of): r's axis in the
// joint's frame (unit as r: the frame is orthonormal).
template <class T>
MARROW_INLINE Quaternion<T> to_local(const Quaternion<T>& r, const Frame<T>& frame) {
  const Vec3<T> axis = frame.det * (glm::transpose(frame.axes) * Vec3<T>(r.x, r.y, r.z));
  return Quaternion<T>(r.w, axis.x, axis.y, axis.z);
}

// The model-space rotation of a local correction c (the inverse of to_local).
template <class T>
MARROW_INLINE Quaternion<T> to_model(const glm::quat& c, const Frame<T>& frame) {
  const Vec3<T> axis = frame.det * (frame.axes * Vec3<T>(c.x, c.y, c.z));
  return Quaternion<T>(T(c.w), axis.x, axis.y, axis.z);
}

// The correction blended from identity by weight (exact at 0 and 1).
template <class T>
MARROW_INLINE glm::quat weighted(const Quaternion<T>& correction, float weight) {
  const glm::quat full(correction);
  if (weight >= 1.f) return full;
  if (weight <= 0.f) return glm::quat(1.f, 0.f, 0.f, 0.f);
  return slerp_shortest(glm::quat(1.f, 0.f, 0.f, 0.f), full, weight);
}

}  // namespace marrow::detail::ik
