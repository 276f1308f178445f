#pragma once
// Private: the geometry both IK jobs solve with (two_bone_ik_job.cpp, aim_ik_job.cpp), in
// double: the shortest arc between nearly opposite directions loses about 1e-7 / angle in
// float, which near a half turn would miss the jobs' 1e-5 reach tolerance.
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "marrow/core/slerp.hpp"
#include "marrow/core/trs.hpp"

namespace marrow::detail::ik {

using Vec = glm::dvec3;
using Quat = glm::dquat;

inline Vec origin(const glm::mat4& m) { return Vec(m[3]); }

// The rotation part of a model matrix as an orthonormal frame: x normalised, y made
// perpendicular to it, z = x cross y, negated when the matrix mirrors (det = -1). A mirror is
// taken to come from above the joint (a mirrored ancestor): with the joint's own scale
// positive, a model-space rotation r is the local correction frame^-1 * r * frame, whose axis
// is det * frame^T * r's axis. decompose_trs's rotation is the fallback when a column vanishes.
struct Frame {
  glm::dmat3 axes{1.0};
  double det = 1.0;
};

inline Frame frame_of(const glm::mat4& m) {
  Vec x(m[0]), y(m[1]);
  const Vec z(m[2]);
  const double xx = glm::dot(x, x);
  if (xx > 1e-30) y -= (glm::dot(y, x) / xx) * x;
  const double yy = glm::dot(y, y);
  if (!(xx > 1e-30 && yy > 1e-30 && glm::dot(z, z) > 1e-30)) {
    return Frame{glm::dmat3(glm::mat3_cast(decompose_trs(m).rotation)), 1.0};
  }
  x *= 1.0 / std::sqrt(xx);  // one division each, not three
  y *= 1.0 / std::sqrt(yy);
  const double det = glm::dot(glm::cross(x, y), z) < 0.0 ? -1.0 : 1.0;
  return Frame{glm::dmat3(x, y, det * glm::cross(x, y)), det};
}

inline Vec perpendicular_part(const Vec& v, const Vec& unit) { return v - glm::dot(v, unit) * unit; }

// A unit vector perpendicular to the unit vector v (crossed with its smallest axis).
inline Vec any_perpendicular(const Vec& v) {
  const Vec a = glm::abs(v);
  const Vec axis = a.x <= a.y && a.x <= a.z ? Vec(1, 0, 0) : (a.y <= a.z ? Vec(0, 1, 0) : Vec(0, 0, 1));
  return glm::normalize(glm::cross(v, axis));
}

// The shortest rotation taking the direction of `from` to that of `to` (both non-zero):
// (|f||t| + f.t, f x t) normalised. Opposite directions turn half a turn about `fallback`
// (made perpendicular to `from`).
// `norms` is |from| |to| when the caller knows it (two_bone_ik_job.cpp: both are a bone's length).
inline Quat shortest_arc(const Vec& from, const Vec& to, const Vec& fallback, double norms) {
  const double c = glm::dot(from, to);
  if (c > (-1.0 + 1e-14) * norms) {
    const Vec v = glm::cross(from, to);
    return glm::normalize(Quat(norms + c, v.x, v.y, v.z));
  }
  const Vec f = glm::normalize(from);
  Vec axis = perpendicular_part(fallback, f);
  axis = glm::dot(axis, axis) > 1e-20 ? glm::normalize(axis) : any_perpendicular(f);
  return Quat(0.0, axis.x, axis.y, axis.z);
}

inline Quat shortest_arc(const Vec& from, const Vec& to, const Vec& fallback) {
  return shortest_arc(from, to, fallback, std::sqrt(glm::dot(from, from) * glm::dot(to, to)));
}

// The local correction for a model-space rotation r about a joint (frame_of): r's axis in the
// joint's frame (unit as r: the frame is orthonormal).
inline Quat to_local(const Quat& r, const Frame& frame) {
  const Vec axis = frame.det * (glm::transpose(frame.axes) * Vec(r.x, r.y, r.z));
  return Quat(r.w, axis.x, axis.y, axis.z);
}

// The model-space rotation of a local correction c (the inverse of to_local).
inline Quat to_model(const glm::quat& c, const Frame& frame) {
  const Vec axis = frame.det * (frame.axes * Vec(c.x, c.y, c.z));
  return Quat(c.w, axis.x, axis.y, axis.z);
}

// The correction blended from identity by weight (exact at 0 and 1), on the float correction the
// job writes.
inline glm::quat weighted(const glm::quat& full, float weight) {
  if (weight >= 1.f) return full;
  if (weight <= 0.f) return glm::quat(1.f, 0.f, 0.f, 0.f);
  return slerp_shortest(glm::quat(1.f, 0.f, 0.f, 0.f), full, weight);
}
inline glm::quat weighted(const Quat& correction, float weight) { return weighted(glm::quat(correction), weight); }

}  // namespace marrow::detail::ik
