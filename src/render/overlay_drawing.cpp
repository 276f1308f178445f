#include "marrow/render/overlay_drawing.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace marrow::render {

namespace {

void put(Framebuffer& fb, long x, long y, const glm::vec3& colour) noexcept {
  if (x < 0 || y < 0 || x >= fb.sample_width() || y >= fb.sample_height()) return;
  fb.colours()[static_cast<std::size_t>(y) * static_cast<std::size_t>(fb.sample_width()) + static_cast<std::size_t>(x)] = colour;
}

bool finite(glm::vec2 p) noexcept { return std::isfinite(p.x) && std::isfinite(p.y); }

}  // namespace

std::optional<glm::vec2> project_to_samples(const Camera& camera, const Framebuffer& target, const glm::vec3& point) noexcept {
  const glm::vec4 c = camera.view_projection * glm::vec4(point, 1.f);
  if (!(c.w > 1e-6f)) return std::nullopt;
  const glm::vec2 p((c.x / c.w * 0.5f + 0.5f) * static_cast<float>(target.sample_width()),
                    (0.5f - c.y / c.w * 0.5f) * static_cast<float>(target.sample_height()));
  if (!finite(p)) return std::nullopt;
  return p;
}

void draw_line(Framebuffer& target, glm::vec2 a, glm::vec2 b, const glm::vec3& colour, float half_width) noexcept {
  if (!finite(a) || !finite(b) || !(half_width > 0.f)) return;
  // Step along the major axis; across it, fill the width stretched by the slope so that the
  // width measured perpendicular to the line stays half_width * 2.
  const bool steep = std::fabs(b.y - a.y) > std::fabs(b.x - a.x);
  if (steep) {
    std::swap(a.x, a.y);
    std::swap(b.x, b.y);
  }
  if (a.x > b.x) std::swap(a, b);
  const float major_limit = static_cast<float>(steep ? target.sample_height() : target.sample_width());
  const float minor_limit = static_cast<float>(steep ? target.sample_width() : target.sample_height());
  const float dx = b.x - a.x, slope = dx > 0.f ? (b.y - a.y) / dx : 0.f;
  const float reach = half_width * std::sqrt(1.f + slope * slope);
  const float from = std::max(std::floor(a.x - half_width), 0.f), to = std::min(std::ceil(b.x + half_width), major_limit - 1.f);
  for (float i = from; i <= to; i += 1.f) {
    const float centre = i + 0.5f;
    const float t = std::clamp(centre, a.x, b.x);  // round caps: beyond the ends, the end row
    const float y = a.y + (t - a.x) * slope;
    const float extra = std::fabs(centre - t);
    if (extra > half_width) continue;
    const float span = extra > 0.f ? std::sqrt(half_width * half_width - extra * extra) : reach;
    const float lo = std::max(std::ceil(y - span - 0.5f), 0.f), hi = std::min(std::floor(y + span - 0.5f), minor_limit - 1.f);
    for (float j = lo; j <= hi; j += 1.f) {
      const long major = static_cast<long>(i), minor = static_cast<long>(j);
      if (steep) {
        put(target, minor, major, colour);
      } else {
        put(target, major, minor, colour);
      }
    }
  }
}

void draw_disc(Framebuffer& target, glm::vec2 c, float radius, const glm::vec3& colour) noexcept {
  if (!finite(c) || !(radius > 0.f)) return;
  const float y0 = std::max(std::ceil(c.y - radius - 0.5f), 0.f);
  const float y1 = std::min(std::floor(c.y + radius - 0.5f), static_cast<float>(target.sample_height() - 1));
  for (float y = y0; y <= y1; y += 1.f) {
    const float dy = y + 0.5f - c.y;
    const float span = std::sqrt(std::max(radius * radius - dy * dy, 0.f));
    const float x0 = std::max(std::ceil(c.x - span - 0.5f), 0.f);
    const float x1 = std::min(std::floor(c.x + span - 0.5f), static_cast<float>(target.sample_width() - 1));
    for (float x = x0; x <= x1; x += 1.f) put(target, static_cast<long>(x), static_cast<long>(y), colour);
  }
}

}  // namespace marrow::render
