#include "marrow/render/box_overlay.hpp"

#include <algorithm>

#include "marrow/render/overlay_drawing.hpp"

namespace marrow::render {

float overlay_half_width(const Framebuffer& target) noexcept {
  const float pixels = std::max(1.f, static_cast<float>(std::min(target.width(), target.height())) / 300.f);
  return 0.5f * pixels * static_cast<float>(target.samples());
}

void draw_box(const BoundingBox& box, const Camera& camera, Framebuffer& target, const glm::vec3& colour) {
  if (box.empty) return;
  const float w = overlay_half_width(target) * 0.75f;
  const auto corner = [&](int i) {
    return glm::vec3((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y, (i & 4) ? box.max.z : box.min.z);
  };
  // Corners i and j share an edge when their numbers differ in exactly one bit.
  for (int i = 0; i < 8; ++i) {
    for (int bit = 1; bit < 8; bit <<= 1) {
      const int j = i | bit;
      if (j == i) continue;
      const auto a = project_to_samples(camera, target, corner(i));
      const auto b = project_to_samples(camera, target, corner(j));
      if (a && b) draw_line(target, *a, *b, colour, w);
    }
  }
}

}  // namespace marrow::render
