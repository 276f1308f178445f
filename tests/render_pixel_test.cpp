// Pixel tests of the renderer on fixtures with known geometry: the rendered shape's coverage,
// centroid and colour against what the camera's projection of the geometry predicts.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "gltf_fixture.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "marrow/render/framebuffer.hpp"
#include "render_test_util.hpp"

namespace marrow {
namespace {

using render::Camera;
using render::RenderSettings;

constexpr int kSize = 200;
constexpr int kSamples = 4;
const glm::vec3 kRed{0.8f, 0.2f, 0.1f};  // linear base colours
const glm::vec3 kBlue{0.1f, 0.3f, 0.9f};

RenderSettings plain_settings() {
  RenderSettings s;
  s.width = s.height = kSize;
  s.samples = kSamples;
  return s;
}

std::uint32_t add_material(test::Fixture& f, const glm::vec3& colour, bool double_sided) {
  gltf::Material m;
  m.base_color_factor = {colour.r, colour.g, colour.b, 1.f};
  m.double_sided = double_sided;
  f.doc().materials.push_back(m);
  return static_cast<std::uint32_t>(f.doc().materials.size() - 1);
}

Camera front_camera(const BoundingBox& box) {
  return render::frame_camera(box, render::CameraFraming{render::view_angles(render::ViewPreset::Front), 1.f});
}

std::vector<glm::dvec2> projected(const Camera& camera, const std::vector<glm::vec3>& outline) {
  std::vector<glm::dvec2> out;
  for (const glm::vec3& p : outline) out.push_back(test::project_to_pixels(camera, kSize, kSize, p));
  return out;
}

// The shape's measured area and centroid against the projected polygon, and a pixel well
// inside it exactly the expected colour (+-1 for rounding). With s x s samples per pixel an
// edge can be off by up to half a sample spacing along its whole length, so the area may miss
// by perimeter / (2 s) pixels; the centroid by half a pixel.
void expect_shape(const render::Image& image, const glm::vec3& colour, const std::vector<glm::dvec2>& polygon,
                  glm::ivec2 inside) {
  const test::ShapeMeasure m = test::measure_shape(image, RenderSettings{}.background, colour);
  const double area = test::polygon_area(polygon);
  const glm::dvec2 centroid = test::polygon_centroid(polygon);
  double perimeter = 0.0;
  for (std::size_t i = 0; i < polygon.size(); ++i) perimeter += glm::length(polygon[(i + 1) % polygon.size()] - polygon[i]);
  EXPECT_NEAR(m.area, area, perimeter / (2.0 * kSamples) + 1.0);
  EXPECT_NEAR(m.centroid.x, centroid.x, 0.5);
  EXPECT_NEAR(m.centroid.y, centroid.y, 0.5);
  const render::Rgba8 p = image(inside.x, inside.y);
  EXPECT_NEAR(p.r, render::linear_to_srgb8(colour.r), 1);
  EXPECT_NEAR(p.g, render::linear_to_srgb8(colour.g), 1);
  EXPECT_NEAR(p.b, render::linear_to_srgb8(colour.b), 1);
}

glm::ivec2 pixel_of(const Camera& camera, const glm::vec3& point) {
  const glm::dvec2 p = test::project_to_pixels(camera, kSize, kSize, point);
  return {static_cast<int>(p.x), static_cast<int>(p.y)};
}

// A unit quad in the z = 0 plane, facing +Z (the front camera), two triangles.
Model unit_quad(bool double_sided) {
  test::Fixture f;
  test::MeshData quad;
  quad.positions = {{-0.5f, -0.5f, 0.f}, {0.5f, -0.5f, 0.f}, {0.5f, 0.5f, 0.f}, {-0.5f, 0.5f, 0.f}};
  quad.normals.assign(4, glm::vec3(0, 0, 1));
  quad.indices = {0, 1, 2, 0, 2, 3};
  quad.material = add_material(f, kRed, double_sided);
  const std::uint32_t node = f.node("Quad");
  f.doc().nodes[node].mesh = f.mesh(quad);
  f.scene({node});
  return f.import();
}

TEST(RenderPixels, UnitQuadFacingTheCameraCoversItsProjection) {
  const Model model = unit_quad(false);
  const Camera camera = front_camera(animated_bounds(model));
  const render::Image image = test::render_pose(model, -1, 0.0, camera, plain_settings());
  const std::vector<glm::dvec2> square = projected(camera, {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {0.5f, 0.5f, 0}, {-0.5f, 0.5f, 0}});
  // The framing leaves a margin: the quad fills most of the picture but not all of it.
  EXPECT_GT(test::polygon_area(square), 0.6 * kSize * kSize);
  EXPECT_LT(test::polygon_area(square), 0.95 * kSize * kSize);
  expect_shape(image, kRed, square, {kSize / 2, kSize / 2});
}

TEST(RenderPixels, BackFacesAreCulledOnlyForSingleSidedMaterials) {
  render::CameraFraming behind{{180.f, 0.f}, 1.f};  // the camera on the -Z side
  const Model single = unit_quad(false);
  const Camera camera = render::frame_camera(animated_bounds(single), behind);
  const render::Image culled = test::render_pose(single, -1, 0.0, camera, plain_settings());
  EXPECT_EQ(test::measure_shape(culled, RenderSettings{}.background, kRed).touched, 0u);
  // Double-sided: drawn, and lit as if its normal faced the camera (full base colour).
  const Model both = unit_quad(true);
  const render::Image drawn = test::render_pose(both, -1, 0.0, camera, plain_settings());
  const std::vector<glm::dvec2> square = projected(camera, {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {0.5f, 0.5f, 0}, {-0.5f, 0.5f, 0}});
  expect_shape(drawn, kRed, square, {kSize / 2, kSize / 2});
}

TEST(RenderPixels, LambertHeadlightDimsATiltedQuad) {
  // Seen from 60 degrees to the side, the quad gets ambient + diffuse * cos(60) of its colour.
  const Model model = unit_quad(false);
  const Camera camera = render::frame_camera(animated_bounds(model), render::CameraFraming{{60.f, 0.f}, 1.f});
  const render::Image image = test::render_pose(model, -1, 0.0, camera, plain_settings());
  const render::Lighting light;
  const glm::vec3 expected = kRed * (light.ambient + light.diffuse * 0.5f);
  const render::Rgba8 p = image(kSize / 2, kSize / 2);
  EXPECT_NEAR(p.r, render::linear_to_srgb8(expected.r), 1);
  EXPECT_NEAR(p.g, render::linear_to_srgb8(expected.g), 1);
  EXPECT_NEAR(p.b, render::linear_to_srgb8(expected.b), 1);
}

// Two quads on a two-bone skeleton: the lower one (y 0..1) on "Base", the upper one (y 1..2)
// on "Tip", which sits at (0, 1, 0). "Bend" turns Tip 90 degrees about +Z over one second, so the
// strip becomes an L: the bar x in [-0.1, 0.1], y in [0, 1] and the bar x in [-1, 0], y in [0.9, 1.1].
Model bending_strip() {
  test::Fixture f;
  test::MeshData strip;
  strip.positions = {{-0.1f, 0, 0}, {0.1f, 0, 0}, {0.1f, 1, 0}, {-0.1f, 1, 0},
                     {-0.1f, 1, 0}, {0.1f, 1, 0}, {0.1f, 2, 0}, {-0.1f, 2, 0}};
  strip.normals.assign(8, glm::vec3(0, 0, 1));
  strip.indices = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
  for (int v = 0; v < 8; ++v) {
    strip.joints.push_back(glm::u16vec4(v < 4 ? 0 : 1, 0, 0, 0));
    strip.weights.push_back(glm::vec4(1, 0, 0, 0));
  }
  strip.material = add_material(f, kBlue, false);
  const std::uint32_t base = f.node("Base");
  const std::uint32_t tip = f.node("Tip", {0, 1, 0});
  const std::uint32_t mesh = f.node("Strip");
  f.child(base, tip);
  f.doc().nodes[mesh].mesh = f.mesh(strip);
  f.doc().nodes[mesh].skin = f.skin({base, tip}, {glm::mat4(1.f), glm::translate(glm::mat4(1.f), glm::vec3(0, -1, 0))});
  const std::uint32_t bend = f.animation("Bend");
  const glm::quat quarter = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  f.channel(bend, tip, "rotation", gltf::SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, quarter.x, quarter.y, quarter.z, quarter.w});
  f.scene({base, mesh});
  return f.import();
}

TEST(RenderPixels, SkinnedStripBentNinetyDegreesCoversTheL) {
  const Model model = bending_strip();
  const Camera camera = front_camera(animated_bounds(model));
  // At 0 s the straight strip.
  const render::Image straight = test::render_pose(model, 0, 0.0, camera, plain_settings());
  expect_shape(straight, kBlue, projected(camera, {{-0.1f, 0, 0}, {0.1f, 0, 0}, {0.1f, 2, 0}, {-0.1f, 2, 0}}),
               pixel_of(camera, {0, 1.5f, 0}));
  // At 1 s the L. Its outline, counter-clockwise (the bars overlap in x [-0.1, 0], y [0.9, 1]).
  const render::Image bent = test::render_pose(model, 0, 1.0, camera, plain_settings());
  const std::vector<glm::vec3> outline = {{-0.1f, 0, 0}, {0.1f, 0, 0}, {0.1f, 1, 0},      {0, 1, 0},
                                          {0, 1.1f, 0},  {-1, 1.1f, 0}, {-1, 0.9f, 0}, {-0.1f, 0.9f, 0}};
  expect_shape(bent, kBlue, projected(camera, outline), pixel_of(camera, {-0.6f, 1.f, 0}));
  // Nothing is left where the upper half stood.
  const render::Rgba8 above = bent(pixel_of(camera, {0, 1.6f, 0}).x, pixel_of(camera, {0, 1.6f, 0}).y);
  EXPECT_EQ(above, straight(0, 0));
}

// The seed's two-target triangle (0,0,0) (1,0,0) (0,1,0): target 0 moves every vertex +1 in Z
// (towards the camera), target 1 moves vertex 0 by +2 in X. A weights channel goes from (0, 0)
// at 0 s to (1, 1) at 1 s. The material is double-sided: at weights (1, 1) vertex 0 has crossed
// over, the triangle winds clockwise seen from +Z and shows its back face.
Model morph_triangle() {
  test::Fixture f;
  test::MeshData tri;
  tri.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  tri.normals.assign(3, glm::vec3(0, 0, 1));
  tri.position_targets = {{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, {{2, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
  tri.weights_default = {0.f, 0.f};
  tri.material = add_material(f, kRed, true);
  const std::uint32_t node = f.node("Triangle");
  f.doc().nodes[node].mesh = f.mesh(tri);
  const std::uint32_t anim = f.animation("Morph");
  f.channel(anim, node, "weights", gltf::SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 1, 1});
  f.scene({node});
  return f.import();
}

TEST(RenderPixels, MorphTriangleAtWeightsZeroAndOne) {
  const Model model = morph_triangle();
  const Camera camera = front_camera(animated_bounds(model));
  const render::Image rest = test::render_pose(model, 0, 0.0, camera, plain_settings());
  const std::vector<glm::dvec2> at0 = projected(camera, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  expect_shape(rest, kRed, at0, pixel_of(camera, {0.25f, 0.25f, 0}));
  // The back face: its authored normals (+Z) are reversed for lighting (glTF), so they face
  // away from the headlight and only the ambient term remains.
  const render::Image morphed = test::render_pose(model, 0, 1.0, camera, plain_settings());
  const std::vector<glm::dvec2> at1 = projected(camera, {{2, 0, 1}, {1, 0, 1}, {0, 1, 1}});
  expect_shape(morphed, kRed * render::Lighting{}.ambient, at1, pixel_of(camera, {1.f, 0.3f, 1}));
  // Closer to the camera, the same-size triangle looks larger; its centroid moved right.
  EXPECT_GT(test::polygon_area(at1), test::polygon_area(at0) * 1.05);
  EXPECT_GT(test::polygon_centroid(at1).x, test::polygon_centroid(at0).x + 20);
}

TEST(RenderPixels, SupersamplingSoftensEdges) {
  // With 1 sample per pixel every pixel is background or shape; with 4x4 the edge pixels of a
  // slanted shape take in-between values.
  const Model model = morph_triangle();
  const Camera camera = front_camera(animated_bounds(model));
  RenderSettings s = plain_settings();
  const auto partial = [&](int samples) {
    s.samples = samples;
    const render::Image image = test::render_pose(model, 0, 0.0, camera, s);
    const test::ShapeMeasure m = test::measure_shape(image, s.background, kRed);
    return m.touched - static_cast<std::size_t>(std::count_if(image.pixels().begin(), image.pixels().end(), [&](render::Rgba8 p) {
             return p.r == render::linear_to_srgb8(kRed.r) && p.g == render::linear_to_srgb8(kRed.g);
           }));
  };
  EXPECT_LT(partial(1), 5u);
  EXPECT_GT(partial(4), 100u);
}

}  // namespace
}  // namespace marrow
