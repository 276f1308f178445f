#include "marrow/runtime/blend_space.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <glm/geometric.hpp>

namespace marrow {

JobStatus validate_blend1d(std::span<const float> positions, std::span<const float> weights) noexcept {
  if (positions.empty()) return job_error("positions", "is empty");
  if (weights.size() != positions.size()) return job_error("weights", "does not hold one weight per position");
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (!std::isfinite(positions[i])) return job_error("positions", "holds a value that is not finite");
    if (i > 0 && !(positions[i] > positions[i - 1])) return job_error("positions", "are not strictly increasing");
  }
  return kJobOk;
}

bool blend1d_weights(std::span<const float> positions, float value, std::span<float> weights) noexcept {
  if (!validate_blend1d(positions, weights) || !std::isfinite(value)) return false;
  std::fill(weights.begin(), weights.end(), 0.f);
  const std::size_t n = positions.size();
  if (value <= positions.front()) {
    weights.front() = 1.f;
    return true;
  }
  if (value >= positions.back()) {
    weights.back() = 1.f;
    return true;
  }
  // The first position above value; its left neighbour is at or below it.
  const std::size_t hi = static_cast<std::size_t>(std::upper_bound(positions.begin(), positions.end(), value) - positions.begin());
  const std::size_t lo = hi - 1;
  if (value == positions[lo] || hi >= n) {
    weights[lo] = 1.f;
    return true;
  }
  // In double: two finite floats can lie more than FLT_MAX apart (-2e38 and 2e38).
  const double a = positions[lo], b = positions[hi];
  const auto w = static_cast<float>((b - static_cast<double>(value)) / (b - a));
  weights[lo] = w;
  weights[hi] = 1.f - w;
  return true;
}

namespace {

using Vec = glm::dvec2;

double cross(const Vec& o, const Vec& a, const Vec& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Whether p lies strictly inside the circumcircle of the counter-clockwise triangle abc.
bool in_circumcircle(const Vec& a, const Vec& b, const Vec& c, const Vec& p) {
  const Vec ad = a - p, bd = b - p, cd = c - p;
  const double det = (ad.x * ad.x + ad.y * ad.y) * (bd.x * cd.y - cd.x * bd.y) -
                     (bd.x * bd.x + bd.y * bd.y) * (ad.x * cd.y - cd.x * ad.y) +
                     (cd.x * cd.x + cd.y * cd.y) * (ad.x * bd.y - bd.x * ad.y);
  return det > 1e-12;
}

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("BlendSpace2d: " + what); }

// The samples scaled into the unit box (the tolerances are relative to the set's extent).
std::vector<Vec> normalised(std::span<const glm::vec2> samples) {
  if (samples.size() < 3) refuse(std::to_string(samples.size()) + " samples: a 2-D blend space needs at least 3");
  Vec lo(std::numeric_limits<double>::max()), hi(std::numeric_limits<double>::lowest());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i].x) || !std::isfinite(samples[i].y)) refuse("sample " + std::to_string(i) + " is not finite");
    lo = glm::min(lo, Vec(samples[i]));
    hi = glm::max(hi, Vec(samples[i]));
  }
  const double extent = std::max(hi.x - lo.x, hi.y - lo.y);
  if (!(extent > 0.0)) refuse("every sample is at one point");
  std::vector<Vec> out;
  for (const glm::vec2& s : samples) out.push_back((Vec(s) - lo) / extent);
  constexpr double kTolerance = 1e-6;
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t j = i + 1; j < out.size(); ++j)
      if (glm::length(out[i] - out[j]) < kTolerance)
        refuse("samples " + std::to_string(i) + " and " + std::to_string(j) + " coincide");
  std::size_t far = 1;
  for (std::size_t i = 1; i < out.size(); ++i)
    if (glm::length(out[i] - out[0]) > glm::length(out[far] - out[0])) far = i;
  const Vec along = glm::normalize(out[far] - out[0]);
  bool flat = true;
  for (const Vec& p : out) flat &= std::abs(cross(Vec(0.0), along, p - out[0])) < kTolerance;
  if (flat) refuse("every sample lies on one line: no triangle holds a point between them");
  return out;
}

}  // namespace

BlendSpace2d::BlendSpace2d(std::span<const glm::vec2> samples) {
  // Bowyer-Watson, in the unit box (a uniform scaling: the same triangles), from a triangle that
  // holds it many times over.
  std::vector<Vec> points = normalised(samples);
  for (const glm::vec2& s : samples) samples_.emplace_back(s);
  const std::size_t n = samples_.size();
  points.push_back({-1e5, -1e5});
  points.push_back({1e5, -1e5});
  points.push_back({0.0, 1e5});
  std::vector<Triangle> triangles{{n, n + 1, n + 2}};
  for (std::size_t p = 0; p < n; ++p) {
    std::vector<std::pair<std::size_t, std::size_t>> edges;
    std::vector<Triangle> kept;
    for (const Triangle& t : triangles) {
      if (!in_circumcircle(points[t.a], points[t.b], points[t.c], points[p])) {
        kept.push_back(t);
        continue;
      }
      for (const auto& e : {std::pair{t.a, t.b}, std::pair{t.b, t.c}, std::pair{t.c, t.a}}) {
        // An edge two removed triangles share is inside the hole: it goes.
        const auto twin = std::find(edges.begin(), edges.end(), std::pair{e.second, e.first});
        if (twin != edges.end()) {
          edges.erase(twin);
        } else {
          edges.push_back(e);
        }
      }
    }
    for (const auto& [a, b] : edges) kept.push_back({a, b, p});
    triangles = std::move(kept);
  }
  for (const Triangle& t : triangles)
    if (t.a < n && t.b < n && t.c < n && cross(points[t.a], points[t.b], points[t.c]) > 0.0) {
      triangles_.push_back(t);
      inv_areas_.push_back(1.0 / cross(samples_[t.a], samples_[t.b], samples_[t.c]));
    }
  // The hull: the edges of one triangle only.
  for (const Triangle& t : triangles_) {
    for (const auto& e : {std::pair{t.a, t.b}, std::pair{t.b, t.c}, std::pair{t.c, t.a}}) {
      bool shared = false;
      for (const Triangle& u : triangles_)
        for (const auto& f : {std::pair{u.a, u.b}, std::pair{u.b, u.c}, std::pair{u.c, u.a}})
          shared |= f.first == e.second && f.second == e.first;
      if (!shared) hull_.push_back(e);
    }
  }
  if (triangles_.empty()) refuse("the samples make no triangle");
}

bool BlendSpace2d::weights(const glm::vec2& point, std::span<float> out) const noexcept {
  if (out.size() != samples_.size() || !std::isfinite(point.x) || !std::isfinite(point.y)) return false;
  const Vec p(point);
  std::fill(out.begin(), out.end(), 0.f);
  for (std::size_t i = 0; i < triangles_.size(); ++i) {
    const Triangle& t = triangles_[i];
    const Vec &a = samples_[t.a], &b = samples_[t.b], &c = samples_[t.c];
    const double inv = inv_areas_[i];
    const double wa = cross(p, b, c) * inv, wb = cross(a, p, c) * inv, wc = cross(a, b, p) * inv;
    if (wa >= -1e-9 && wb >= -1e-9 && wc >= -1e-9) {
      const double sum = std::max(wa, 0.0) + std::max(wb, 0.0) + std::max(wc, 0.0);
      out[t.a] = static_cast<float>(std::max(wa, 0.0) / sum);
      out[t.b] = static_cast<float>(std::max(wb, 0.0) / sum);
      out[t.c] = static_cast<float>(std::max(wc, 0.0) / sum);
      return true;
    }
  }
  // Outside the hull: the nearest point on its edges.
  double best = std::numeric_limits<double>::max(), best_t = 0.0;
  std::pair<std::size_t, std::size_t> best_edge = hull_.front();
  for (const auto& e : hull_) {
    const Vec a = samples_[e.first], b = samples_[e.second];
    const double t = std::clamp(glm::dot(p - a, b - a) / glm::dot(b - a, b - a), 0.0, 1.0);
    const double d = glm::length(p - (a + t * (b - a)));
    if (d < best) {
      best = d;
      best_t = t;
      best_edge = e;
    }
  }
  out[best_edge.first] = static_cast<float>(1.0 - best_t);
  out[best_edge.second] += static_cast<float>(best_t);
  return true;
}

}  // namespace marrow
