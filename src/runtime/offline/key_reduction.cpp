#include "key_reduction.hpp"

#include <algorithm>
#include <cmath>

#include <glm/vec3.hpp>

namespace marrow::detail {

namespace {

glm::dvec4 normalized(const glm::dvec4& q) noexcept {
  const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return n > 1e-300 ? q / n : glm::dvec4(0, 0, 0, 1);
}

}  // namespace

double channel_distance(ChannelKind kind, const glm::dvec4& a, const glm::dvec4& b) noexcept {
  switch (kind) {
    case ChannelKind::Translation: {
      const glm::dvec3 d(a.x - b.x, a.y - b.y, a.z - b.z);
      return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    }
    case ChannelKind::Scale:
      return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z)});
    case ChannelKind::Rotation: {
      const glm::dvec4 u = normalized(a), v = normalized(b);
      const double dot = std::min(1.0, std::fabs(u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w));
      return 2 * std::acos(dot);
    }
  }
  return 0;
}

glm::dvec4 channel_blend(ChannelKind kind, const glm::dvec4& a, const glm::dvec4& b, double p) noexcept {
  if (kind != ChannelKind::Rotation) return a + (b - a) * p;
  const glm::dvec4 u = normalized(a);
  glm::dvec4 v = normalized(b);
  double dot = u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
  if (dot < 0) v = -v, dot = -dot;
  const double theta = std::acos(std::min(1.0, dot));
  if (theta < 1e-9) return normalized(u + (v - u) * p);
  const double s = std::sin(theta);
  return u * (std::sin((1 - p) * theta) / s) + v * (std::sin(p * theta) / s);
}

std::vector<std::uint32_t> reduce_keys(ChannelKind kind, std::span<const std::int64_t> times,
                                       std::span<const glm::dvec4> source, std::span<const glm::dvec4> candidates,
                                       double tolerance) {
  const std::size_t n = times.size();
  std::vector<std::uint32_t> kept{0};
  // True when the candidates a and b replace every source value strictly between them.
  const auto fits = [&](std::size_t a, std::size_t b) {
    const double span = static_cast<double>(static_cast<std::uint64_t>(times[b]) - static_cast<std::uint64_t>(times[a]));
    for (std::size_t i = a + 1; i < b; ++i) {
      const double p = static_cast<double>(static_cast<std::uint64_t>(times[i]) - static_cast<std::uint64_t>(times[a])) / span;
      if (channel_distance(kind, channel_blend(kind, candidates[a], candidates[b], p), source[i]) > tolerance) return false;
    }
    return true;
  };
  std::size_t a = 0;
  while (a + 1 < n) {
    // The farthest b that fits: doubling strides until one fails, then halving between the
    // last fit and the first failure (a fit beyond a failure is not looked for).
    std::size_t good = a + 1, bad = n, stride = 1;
    while (good + 1 < bad) {
      const std::size_t probe = bad == n ? std::min(good + stride, n - 1) : good + (bad - good) / 2;
      if (fits(a, probe)) {
        good = probe;
        stride *= 2;
      } else {
        bad = probe;
      }
    }
    kept.push_back(static_cast<std::uint32_t>(good));
    a = good;
  }
  return kept;
}

}  // namespace marrow::detail
