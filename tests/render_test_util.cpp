#include "render_test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "marrow/model/animator.hpp"
#include "marrow/render/framebuffer.hpp"

namespace marrow::test {

render::Image render_pose(const Model& model, int clip, double seconds, const render::Camera& camera,
                          const render::RenderSettings& settings) {
  Animator animator(model);
  if (clip >= 0) {
    animator.play(clip);
    animator.update(ticks_from_seconds(seconds), false, false);
  }
  render::ModelRenderer renderer(model);
  render::Image image;
  renderer.render(animator, camera, settings, image);
  return image;
}

namespace {

void touch(ShapeMeasure& m, int x, int y) {
  if (m.touched == 0) {
    m.min_x = m.max_x = x;
    m.min_y = m.max_y = y;
  }
  ++m.touched;
  m.min_x = std::min(m.min_x, x);
  m.max_x = std::max(m.max_x, x);
  m.min_y = std::min(m.min_y, y);
  m.max_y = std::max(m.max_y, y);
}

}  // namespace

ShapeMeasure measure_shape(const render::Image& image, const glm::vec3& background, const glm::vec3& shape) {
  ShapeMeasure m;
  const glm::dvec3 d = glm::dvec3(shape) - glm::dvec3(background);
  const double d2 = glm::dot(d, d);
  glm::dvec2 moment(0.0);
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const render::Rgba8 p = image(x, y);
      const glm::dvec3 lin(render::srgb8_to_linear(p.r), render::srgb8_to_linear(p.g), render::srgb8_to_linear(p.b));
      const double coverage = std::clamp(glm::dot(lin - glm::dvec3(background), d) / d2, 0.0, 1.0);
      if (coverage < 0.02) continue;  // below the 8-bit rounding of the background
      touch(m, x, y);
      m.area += coverage;
      moment += coverage * glm::dvec2(x + 0.5, y + 0.5);
    }
  }
  if (m.area > 0.0) m.centroid = moment / m.area;
  return m;
}

ShapeMeasure touched_pixels(const render::Image& image, render::Rgba8 background, int tolerance) {
  ShapeMeasure m;
  glm::dvec2 moment(0.0);
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const render::Rgba8 p = image(x, y);
      if (std::abs(p.r - background.r) <= tolerance && std::abs(p.g - background.g) <= tolerance &&
          std::abs(p.b - background.b) <= tolerance) {
        continue;
      }
      touch(m, x, y);
      m.area += 1.0;
      moment += glm::dvec2(x + 0.5, y + 0.5);
    }
  }
  if (m.area > 0.0) m.centroid = moment / m.area;
  return m;
}

double polygon_area(std::span<const glm::dvec2> p) {
  double twice = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const glm::dvec2& a = p[i];
    const glm::dvec2& b = p[(i + 1) % p.size()];
    twice += a.x * b.y - b.x * a.y;
  }
  return std::fabs(twice) / 2.0;
}

glm::dvec2 polygon_centroid(std::span<const glm::dvec2> p) {
  double twice = 0.0;
  glm::dvec2 sum(0.0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const glm::dvec2& a = p[i];
    const glm::dvec2& b = p[(i + 1) % p.size()];
    const double cross = a.x * b.y - b.x * a.y;
    twice += cross;
    sum += (a + b) * cross;
  }
  return sum / (3.0 * twice);
}

glm::dvec2 project_to_pixels(const render::Camera& camera, int width, int height, const glm::vec3& point) {
  const glm::dvec4 c = glm::dmat4(camera.view_projection) * glm::dvec4(glm::dvec3(point), 1.0);
  return {(c.x / c.w * 0.5 + 0.5) * width, (0.5 - c.y / c.w * 0.5) * height};
}

}  // namespace marrow::test
