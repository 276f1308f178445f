// Two chains' usual geometry in the two double lanes of SSE2 (two_bone_ik_pair.hpp). Lane i is
// job i; a lane's special case only sets its bit in `general`, its values are then discarded.
#include "two_bone_ik_pair.hpp"

#include <emmintrin.h>

#include <glm/gtc/quaternion.hpp>

#include "ik_geometry.hpp"

namespace marrow::detail {
namespace {

struct D2 {
  __m128d v;
};
struct Mask {
  __m128d v;
};

inline D2 pair(double first, double second) { return {_mm_set_pd(second, first)}; }
inline D2 splat(double x) { return {_mm_set1_pd(x)}; }
inline D2 operator+(D2 a, D2 b) { return {_mm_add_pd(a.v, b.v)}; }
inline D2 operator-(D2 a, D2 b) { return {_mm_sub_pd(a.v, b.v)}; }
inline D2 operator*(D2 a, D2 b) { return {_mm_mul_pd(a.v, b.v)}; }
inline D2 operator/(D2 a, D2 b) { return {_mm_div_pd(a.v, b.v)}; }
inline D2 operator-(D2 a) { return {_mm_xor_pd(a.v, _mm_set1_pd(-0.0))}; }
inline D2 sqrt_of(D2 a) { return {_mm_sqrt_pd(a.v)}; }
inline D2 min_of(D2 a, D2 b) { return {_mm_min_pd(a.v, b.v)}; }
inline D2 max_of(D2 a, D2 b) { return {_mm_max_pd(a.v, b.v)}; }
inline Mask operator>(D2 a, D2 b) { return {_mm_cmpgt_pd(a.v, b.v)}; }
inline Mask operator<(D2 a, D2 b) { return {_mm_cmplt_pd(a.v, b.v)}; }
inline Mask operator<=(D2 a, D2 b) { return {_mm_cmple_pd(a.v, b.v)}; }
inline Mask operator>=(D2 a, D2 b) { return {_mm_cmpge_pd(a.v, b.v)}; }
inline Mask operator&(Mask a, Mask b) { return {_mm_and_pd(a.v, b.v)}; }
inline Mask operator|(Mask a, Mask b) { return {_mm_or_pd(a.v, b.v)}; }
inline Mask operator!(Mask a) { return {_mm_xor_pd(a.v, _mm_castsi128_pd(_mm_set1_epi32(-1)))}; }
inline D2 select(Mask m, D2 yes, D2 no) { return {_mm_or_pd(_mm_and_pd(m.v, yes.v), _mm_andnot_pd(m.v, no.v))}; }
inline unsigned bits(Mask m) { return static_cast<unsigned>(_mm_movemask_pd(m.v)); }
inline double lane(D2 a, int i) { return i == 0 ? _mm_cvtsd_f64(a.v) : _mm_cvtsd_f64(_mm_unpackhi_pd(a.v, a.v)); }

struct V3 {
  D2 x, y, z;
};
inline V3 operator+(const V3& a, const V3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(const V3& a, const V3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator*(const V3& a, D2 s) { return {a.x * s, a.y * s, a.z * s}; }
inline D2 dot(const V3& a, const V3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3 cross(const V3& a, const V3& b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline V3 select(Mask m, const V3& a, const V3& b) { return {select(m, a.x, b.x), select(m, a.y, b.y), select(m, a.z, b.z)}; }

struct Q {
  D2 w;
  V3 v;
};

// q p q* / |q|^2 for any non-zero q, given twice = 2 / |q|^2: glm's p + 2 (w (v x p) + v x (v x p))
// for a unit q, without waiting for q's normalisation (a square root and a division).
inline V3 rotate(const Q& q, D2 twice, const V3& p) {
  const V3 uv = cross(q.v, p);
  const V3 uuv = cross(q.v, uv);
  return p + (uv * q.w + uuv) * twice;
}

// The shortest arc taking `from` to `to` when |from| |to| = norms (ik_geometry.hpp's, without
// its half-turn case: `near_half` marks the lanes that need it), not normalised: (norms + f.t,
// f x t) and its squared length. `keep` lanes get it, the others the identity.
struct Arc {
  Q q;
  D2 norm2;
};

inline Arc shortest_arc(const V3& from, const V3& to, D2 norms, Mask keep, Mask& near_half) {
  const D2 c = dot(from, to);
  near_half = keep & !(c > splat(-1.0 + 1e-14) * norms);
  const V3 v = cross(from, to);
  const D2 w = norms + c;
  const D2 one = splat(1.0), zero = splat(0.0);
  return {{select(keep, w, one), select(keep, v, V3{zero, zero, zero})}, select(keep, w * w + dot(v, v), one)};
}

inline Q scaled(const Q& q, D2 s) { return {q.w * s, q.v * s}; }

// A joint's model matrix as an orthonormal frame (ik_geometry.hpp's frame_of): x, the
// perpendicular part of y, and x cross y; `det` -1 when the matrix mirrors. y is made
// perpendicular as xx y - (y.x) x, the same direction without a division; `vanishes` marks the
// lanes whose columns vanish (the general solve's fallback).
struct Frame {
  V3 x, y, n;  // the third axis is det * n
  D2 det;
};

inline Frame frame_of(const V3& x, const V3& y, const V3& z, Mask& vanishes) {
  const D2 xx = dot(x, x);
  const V3 yp = y * xx - x * dot(y, x);
  const D2 yy = dot(yp, yp);
  const D2 tiny = splat(1e-30);
  vanishes = !((xx > tiny) & (yy > tiny * xx * xx) & (dot(z, z) > tiny));
  Frame f;
  f.x = x * (splat(1.0) / sqrt_of(xx));
  f.y = yp * (splat(1.0) / sqrt_of(yy));
  f.n = cross(f.x, f.y);
  f.det = select(dot(f.n, z) < splat(0.0), splat(-1.0), splat(1.0));
  return f;
}

// A model-space rotation's local correction (to_local) and back (to_model).
inline Q to_local(const Q& r, const Frame& f) { return {r.w, {f.det * dot(f.x, r.v), f.det * dot(f.y, r.v), dot(f.n, r.v)}}; }
inline Q to_model(const Q& c, const Frame& f) {
  return {c.w, (f.x * c.v.x + f.y * c.v.y) * f.det + f.n * c.v.z};
}

struct Inputs {
  V3 s, m, e, t, pole;
  V3 start_axes[3], mid_axes[3];
  Mask has_pole;
};

Inputs load(const TwoBoneIkJob& j0, const TwoBoneIkJob& j1) {
  // Column c of both matrices: one load each, interleaved, widened two floats at a time.
  const auto column = [](const glm::mat4& a, const glm::mat4& b, int c) {
    const __m128 ca = _mm_loadu_ps(&a[c][0]), cb = _mm_loadu_ps(&b[c][0]);
    const __m128 xy = _mm_unpacklo_ps(ca, cb);  // a.x b.x a.y b.y
    return V3{{_mm_cvtps_pd(xy)}, {_mm_cvtps_pd(_mm_movehl_ps(xy, xy))}, {_mm_cvtps_pd(_mm_unpackhi_ps(ca, cb))}};
  };
  const auto point = [](const glm::vec3& a, const glm::vec3& b) { return V3{pair(a.x, b.x), pair(a.y, b.y), pair(a.z, b.z)}; };
  Inputs in;
  in.s = column(*j0.start, *j1.start, 3);
  in.m = column(*j0.mid, *j1.mid, 3);
  in.e = column(*j0.end, *j1.end, 3);
  in.t = point(j0.target, j1.target);
  const glm::vec3 none(0.f);
  in.pole = point(j0.pole != nullptr ? *j0.pole : none, j1.pole != nullptr ? *j1.pole : none);
  in.has_pole = {_mm_castsi128_pd(_mm_set_epi64x(j1.pole != nullptr ? -1 : 0, j0.pole != nullptr ? -1 : 0))};
  for (int c = 0; c < 3; ++c) {
    in.start_axes[c] = column(*j0.start, *j1.start, c);
    in.mid_axes[c] = column(*j0.mid, *j1.mid, c);
  }
  return in;
}

inline glm::quat lane_quat(const Q& q, int i) {
  return glm::quat(static_cast<float>(lane(q.w, i)), static_cast<float>(lane(q.v.x, i)), static_cast<float>(lane(q.v.y, i)),
                   static_cast<float>(lane(q.v.z, i)));
}

}  // namespace

unsigned solve_two_bone_ik_pair(const TwoBoneIkJob& j0, const TwoBoneIkJob& j1) noexcept {
  const TwoBoneIkJob* jobs[2] = {&j0, &j1};
  const int lanes = &j0 == &j1 ? 1 : 2;  // one job in both lanes (TwoBoneIkJob::run): its scalar steps once
  const Inputs in = load(j0, j1);
  const D2 one = splat(1.0), zero = splat(0.0);
  const V3 sm = in.m - in.s, me = in.e - in.m, st = in.t - in.s;
  const D2 aa = dot(sm, sm), bb = dot(me, me);
  const D2 a = sqrt_of(aa), b = sqrt_of(bb), chain = a + b;
  const D2 eps = splat(kTwoBoneOnLine) * chain;
  // The target's direction u and the bend direction k are both taken from S -> T directly, so
  // that k's normalisation does not wait for u's (the solve is a chain of square roots and
  // divisions; each one off the chain is time saved).
  const D2 dd = dot(st, st);
  const D2 distance = sqrt_of(dd), inverse_dd = one / dd;
  Mask general = !((chain > zero) & (distance > eps));
  const V3 u = st * (one / distance);
  // The softened, clamped reach: an exponential only where a lane softens (scalar, as the
  // general solve's).
  const double d0 = two_bone_reach(lane(distance, 0), lane(a, 0), lane(b, 0), j0.soften);
  const D2 d = pair(d0, lanes == 1 ? d0 : two_bone_reach(lane(distance, 1), lane(a, 1), lane(b, 1), j1.soften));
  Mask vanishes_start, vanishes_mid;
  const Frame start_frame = frame_of(in.start_axes[0], in.start_axes[1], in.start_axes[2], vanishes_start);
  const Frame mid_frame = frame_of(in.mid_axes[0], in.mid_axes[1], in.mid_axes[2], vanishes_mid);
  general = general | vanishes_start | vanishes_mid;

  // The bend direction: the pole's, else the current bend's (their special cases: general); each
  // less its part along S -> T.
  const V3 to_pole = in.pole - in.s;
  const V3 k_pole = to_pole - st * (dot(to_pole, st) * inverse_dd);
  const V3 k_mid = sm - st * (dot(sm, st) * inverse_dd);
  const D2 on_line = splat(kTwoBoneOnLine);
  const Mask use_pole = in.has_pole & (dot(k_pole, k_pole) > on_line * on_line * dot(to_pole, to_pole));
  const Mask mid_off_line = dot(k_mid, k_mid) > on_line * a * (on_line * a);
  general = general | !(use_pole | mid_off_line);
  const V3 k_raw = select(use_pole, k_pole, k_mid);
  const V3 k = k_raw * (one / sqrt_of(dot(k_raw, k_raw)));

  // Law of cosines: the mid joint's distance along u and from the line.
  const D2 x = select(d > eps, max_of(-a, min_of((a * a - b * b + d * d) / (splat(2.0) * d), a)), zero);
  const D2 h = sqrt_of(max_of(a * a - x * x, zero));
  const V3 new_mid_offset = u * x + k * h;  // new M - S
  const V3 new_end = in.s + u * d;

  // Start's arc (identity for a zero upper bone), then mid's, about where the mid joint now is;
  // the arcs turn points unnormalised, and are normalised for the outputs only.
  Mask half_start, half_mid;
  const Arc start_arc = shortest_arc(sm, new_mid_offset, a * a, a > eps, half_start);
  general = general | half_start;
  const D2 start_twice = splat(2.0) / start_arc.norm2;
  const V3 mid_after = in.s + rotate(start_arc.q, start_twice, sm);
  const V3 end_from_mid = rotate(start_arc.q, start_twice, me);
  const V3 to_new_end = new_end - mid_after;
  const Mask lower = (b > eps) & (dot(to_new_end, to_new_end) > eps * eps);
  const Arc mid_arc = shortest_arc(end_from_mid, to_new_end, b * b, lower, half_mid);
  general = general | half_mid;

  // Local corrections; mid's frame is the one start's correction leaves, so mid's arc's axis is
  // turned back by start's (the conjugate turns the other way) first.
  const Q start_local = to_local(scaled(start_arc.q, one / sqrt_of(start_arc.norm2)), start_frame);
  const Q start_back{start_arc.q.w, V3{-start_arc.q.v.x, -start_arc.q.v.y, -start_arc.q.v.z}};
  const Q mid_turned{mid_arc.q.w, rotate(start_back, start_twice, mid_arc.q.v)};
  const Q mid_local = to_local(scaled(mid_turned, one / sqrt_of(mid_arc.norm2)), mid_frame);

  const unsigned left = bits(general);
  glm::quat start_out[2], mid_out[2];
  for (int i = 0; i < lanes; ++i) {
    start_out[i] = ik::weighted(lane_quat(start_local, i), jobs[i]->weight);
    mid_out[i] = ik::weighted(lane_quat(mid_local, i), jobs[i]->weight);
  }
  if (lanes == 1) start_out[1] = start_out[0], mid_out[1] = mid_out[0];
  // `reached` without measuring, for a weight-1 lane far from the tolerance's edge. Its exact
  // corrections put the end at S + u d, |distance - d| from the target (the law of cosines keeps
  // both bone lengths when d > eps, and both arcs turn a bone longer than eps); the corrections
  // as written, rounded to float, move it by under 1e-6 of the chain. A gap inside the
  // tolerance by more than kTwoBoneReachMargin is reached, one beyond it by more is not: the
  // measure's answer. Other lanes (weights below 1, gaps near the edge) are measured.
  const D2 tolerance = splat(kTwoBoneReachTolerance) * chain, margin = splat(kTwoBoneReachMargin) * chain;
  const Mask exact = (pair(jobs[0]->weight, jobs[1]->weight) >= one) & (d > eps) & (a > eps) & lower;
  const D2 gap = max_of(distance - d, d - distance);
  const unsigned inside = bits(exact & (gap <= tolerance - margin)), outside = bits(exact & (tolerance + margin < gap));
  unsigned measure = 0;
  for (int i = 0; i < lanes; ++i) {
    if (jobs[i]->reached == nullptr || (left >> i & 1u) != 0) continue;
    if (((inside | outside) >> i & 1u) != 0) *jobs[i]->reached = (inside >> i & 1u) != 0;
    else measure |= 1u << i;
  }
  if (measure != 0) {
    // Where the end lands with the corrections as written (weighted, in float).
    const auto written = [](const glm::quat* q) {
      return Q{pair(q[0].w, q[1].w), V3{pair(q[0].x, q[1].x), pair(q[0].y, q[1].y), pair(q[0].z, q[1].z)}};
    };
    const Q start_model = to_model(written(start_out), start_frame), mid_model = to_model(written(mid_out), mid_frame);
    const D2 two = splat(2.0);  // the written corrections are unit
    const V3 end_w = in.s + rotate(start_model, two, sm + rotate(mid_model, two, me));
    const V3 miss = end_w - in.t;
    const unsigned reached = bits(dot(miss, miss) <= tolerance * tolerance);
    for (int i = 0; i < lanes; ++i)
      if (measure >> i & 1u) *jobs[i]->reached = (reached >> i & 1u) != 0;
  }
  for (int i = 0; i < lanes; ++i) {
    if (left >> i & 1u) continue;
    *jobs[i]->start_correction = start_out[i];
    *jobs[i]->mid_correction = mid_out[i];
  }
  return left;
}

}  // namespace marrow::detail
