#include "marrow/render/rasterizer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

namespace marrow::render {

namespace {

constexpr std::int64_t kSubpixel = 256;  // vertex snapping: 1/256 of a sample
constexpr float kGuardBand = 4.f;        // NDC extent kept unclipped on each side

struct ScreenVertex {
  std::int64_t x, y;  // fixed point, 1/kSubpixel of a sample, y down
  float z;            // NDC depth
  glm::vec3 colour;
};

// Signed distances to the clip planes: near (z >= -w) and the guard band on x and y.
float plane_distance(const glm::vec4& c, int plane) noexcept {
  switch (plane) {
    case 0: return c.z + c.w;
    case 1: return kGuardBand * c.w - c.x;
    case 2: return kGuardBand * c.w + c.x;
    case 3: return kGuardBand * c.w - c.y;
    default: return kGuardBand * c.w + c.y;
  }
}
constexpr int kPlanes = 5;

bool inside_all_planes(const glm::vec4& c) noexcept {
  for (int p = 0; p < kPlanes; ++p) {
    if (!(plane_distance(c, p) >= 0.f)) return false;
  }
  return c.w > 0.f;
}

RasterVertex lerp(const RasterVertex& a, const RasterVertex& b, float t) noexcept {
  return RasterVertex{a.clip + (b.clip - a.clip) * t, a.colour + (b.colour - a.colour) * t};
}

bool to_screen(const RasterVertex& v, const Framebuffer& fb, ScreenVertex& out) noexcept {
  if (!(v.clip.w > 0.f)) return false;
  const float inv_w = 1.f / v.clip.w;
  const float sx = (v.clip.x * inv_w * 0.5f + 0.5f) * static_cast<float>(fb.sample_width());
  const float sy = (0.5f - v.clip.y * inv_w * 0.5f) * static_cast<float>(fb.sample_height());
  const float z = v.clip.z * inv_w;
  if (!std::isfinite(sx) || !std::isfinite(sy) || !std::isfinite(z)) return false;
  out = ScreenVertex{std::llround(static_cast<double>(sx) * kSubpixel), std::llround(static_cast<double>(sy) * kSubpixel), z,
                     v.colour};
  return true;
}

// Top-left rule for an edge a -> b of a triangle with positive area (y down).
bool top_left(const ScreenVertex& a, const ScreenVertex& b) noexcept {
  const std::int64_t dx = b.x - a.x, dy = b.y - a.y;
  return dy < 0 || (dy == 0 && dx > 0);
}

std::int64_t edge(const ScreenVertex& a, const ScreenVertex& b, std::int64_t px, std::int64_t py) noexcept {
  return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}

void draw_screen_triangle(Framebuffer& fb, ScreenVertex v0, ScreenVertex v1, ScreenVertex v2) noexcept {
  std::int64_t area = edge(v0, v1, v2.x, v2.y);
  if (area == 0) return;
  if (area < 0) {
    std::swap(v1, v2);
    area = -area;
  }
  const int sw = fb.sample_width(), sh = fb.sample_height();
  const auto first_sample = [](std::int64_t lo) { return (lo - kSubpixel / 2 + kSubpixel - 1) / kSubpixel; };
  const auto min_x = std::min({v0.x, v1.x, v2.x}), max_x = std::max({v0.x, v1.x, v2.x});
  const auto min_y = std::min({v0.y, v1.y, v2.y}), max_y = std::max({v0.y, v1.y, v2.y});
  // Sample i has its centre at i * kSubpixel + kSubpixel / 2. Coordinates can be negative, so
  // round with floor semantics by shifting into the positive range first.
  constexpr std::int64_t kShift = std::int64_t{1} << 40;
  const std::int64_t x0 = std::max<std::int64_t>(0, first_sample(min_x + kShift) - kShift / kSubpixel);
  const std::int64_t y0 = std::max<std::int64_t>(0, first_sample(min_y + kShift) - kShift / kSubpixel);
  const std::int64_t x1 = std::min<std::int64_t>(sw - 1, (max_x - kSubpixel / 2 + kShift) / kSubpixel - kShift / kSubpixel);
  const std::int64_t y1 = std::min<std::int64_t>(sh - 1, (max_y - kSubpixel / 2 + kShift) / kSubpixel - kShift / kSubpixel);
  if (x0 > x1 || y0 > y1) return;

  // Edge functions at the first sample centre and their steps; w_k weighs vertex k.
  const std::int64_t px = x0 * kSubpixel + kSubpixel / 2, py = y0 * kSubpixel + kSubpixel / 2;
  const std::int64_t bias0 = top_left(v1, v2) ? 0 : -1;
  const std::int64_t bias1 = top_left(v2, v0) ? 0 : -1;
  const std::int64_t bias2 = top_left(v0, v1) ? 0 : -1;
  std::int64_t row0 = edge(v1, v2, px, py) + bias0;
  std::int64_t row1 = edge(v2, v0, px, py) + bias1;
  std::int64_t row2 = edge(v0, v1, px, py) + bias2;
  const std::int64_t step_x0 = -(v2.y - v1.y) * kSubpixel, step_y0 = (v2.x - v1.x) * kSubpixel;
  const std::int64_t step_x1 = -(v0.y - v2.y) * kSubpixel, step_y1 = (v0.x - v2.x) * kSubpixel;
  const std::int64_t step_x2 = -(v1.y - v0.y) * kSubpixel, step_y2 = (v1.x - v0.x) * kSubpixel;

  const double inv_area = 1.0 / static_cast<double>(area);
  const float dz1 = v1.z - v0.z, dz2 = v2.z - v0.z;
  const glm::vec3 dc1 = v1.colour - v0.colour, dc2 = v2.colour - v0.colour;
  const std::span<glm::vec3> colours = fb.colours();
  const std::span<float> depths = fb.depths();
  for (std::int64_t y = y0; y <= y1; ++y) {
    std::int64_t e0 = row0, e1 = row1, e2 = row2;
    const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(sw);
    for (std::int64_t x = x0; x <= x1; ++x) {
      if ((e0 | e1 | e2) >= 0) {
        // Undo the bias for the weights (it only decides ties).
        const auto l1 = static_cast<float>(static_cast<double>(e1 - bias1) * inv_area);
        const auto l2 = static_cast<float>(static_cast<double>(e2 - bias2) * inv_area);
        const float z = v0.z + l1 * dz1 + l2 * dz2;
        const std::size_t i = row + static_cast<std::size_t>(x);
        if (z < depths[i]) {
          depths[i] = z;
          colours[i] = v0.colour + l1 * dc1 + l2 * dc2;
        }
      }
      e0 += step_x0;
      e1 += step_x1;
      e2 += step_x2;
    }
    row0 += step_y0;
    row1 += step_y1;
    row2 += step_y2;
  }
}

void draw_clipped(Framebuffer& fb, const RasterVertex& a, const RasterVertex& b, const RasterVertex& c) noexcept {
  ScreenVertex s0, s1, s2;
  if (to_screen(a, fb, s0) && to_screen(b, fb, s1) && to_screen(c, fb, s2)) draw_screen_triangle(fb, s0, s1, s2);
}

}  // namespace

void rasterize_triangle(Framebuffer& target, const RasterVertex& a, const RasterVertex& b, const RasterVertex& c) noexcept {
  if (inside_all_planes(a.clip) && inside_all_planes(b.clip) && inside_all_planes(c.clip)) {
    draw_clipped(target, a, b, c);
    return;
  }
  // Sutherland-Hodgman against each plane; a triangle gains at most one vertex per plane.
  std::array<RasterVertex, 3 + kPlanes> poly{a, b, c}, next{};
  std::size_t count = 3;
  for (int p = 0; p < kPlanes && count >= 3; ++p) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const RasterVertex& cur = poly[i];
      const RasterVertex& nxt = poly[(i + 1) % count];
      const float dc = plane_distance(cur.clip, p), dn = plane_distance(nxt.clip, p);
      if (!std::isfinite(dc) || !std::isfinite(dn)) return;
      if (dc >= 0.f) next[out++] = cur;
      if ((dc >= 0.f) != (dn >= 0.f)) next[out++] = lerp(cur, nxt, dc / (dc - dn));
    }
    poly = next;
    count = out;
  }
  for (std::size_t i = 1; i + 1 < count; ++i) draw_clipped(target, poly[0], poly[i], poly[i + 1]);
}

}  // namespace marrow::render
