// The renderer's pieces: size limits, camera framing, rasterizer edges, the skeleton overlay,
// PNG encoding, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "demo/demo_character.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/draw_mesh_job.hpp"
#include "marrow/render/framebuffer.hpp"
#include "marrow/render/png_file.hpp"
#include "marrow/render/rasterizer.hpp"
#include "marrow/render/skeleton_overlay.hpp"
#include "render_test_util.hpp"
#include "test_util.hpp"

namespace marrow::render {
namespace {

using test::throws_with;

TEST(RenderImage, SizesAreBoundedWithClearErrors) {
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { Image(0, 10); }, {"0x10", "at least 1"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { Image(100000, 100000); }, {"100000x100000", "too large"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { Image(16384, 16384); }, {"pixels in all"}));
  Framebuffer fb;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { fb.resize(64, 64, 5); }, {"supersampling 5"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { fb.resize(8192, 8192, 4); }, {"samples"}));
  EXPECT_NO_THROW(fb.resize(64, 32, 2));
  EXPECT_EQ(fb.sample_width(), 128);
  EXPECT_EQ(fb.sample_height(), 64);
}

TEST(RenderImage, BlitAndBlendClipToTheImage) {
  Image dst(4, 4, Rgba8{0, 0, 0, 255});
  const Image src(3, 3, Rgba8{200, 100, 50, 255});
  dst.blit(src, 2, -1);  // only a 2x2 corner lands
  EXPECT_EQ(dst(2, 0), (Rgba8{200, 100, 50, 255}));
  EXPECT_EQ(dst(3, 1), (Rgba8{200, 100, 50, 255}));
  EXPECT_EQ(dst(1, 1), (Rgba8{0, 0, 0, 255}));
  EXPECT_EQ(dst(2, 2), (Rgba8{0, 0, 0, 255}));
  dst.blend_rect(-5, -5, 100, 100, Rgba8{100, 100, 100, 255}, 0.5f);
  EXPECT_EQ(dst(0, 0), (Rgba8{50, 50, 50, 255}));
}

TEST(RenderImage, SrgbEncodingRoundTrips) {
  for (int v = 0; v < 256; ++v) {
    EXPECT_EQ(linear_to_srgb8(srgb8_to_linear(static_cast<std::uint8_t>(v))), v);
  }
  EXPECT_EQ(linear_to_srgb8(-1.f), 0);
  EXPECT_EQ(linear_to_srgb8(7.f), 255);
}

TEST(RenderCamera, EveryCornerOfTheBoxIsInsideThePicture) {
  BoundingBox box;
  box.extend({-1.f, 0.f, -0.5f});
  box.extend({3.f, 7.f, 2.f});
  for (const char* name : {"front", "side", "top", "iso"}) {
    for (float aspect : {0.5f, 1.f, 2.f}) {
      const Camera camera = frame_camera(box, CameraFraming{view_angles(view_preset_from_name(name)), aspect});
      double most = 0.0;
      for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y, (i & 4) ? box.max.z : box.min.z);
        const glm::vec4 c = camera.view_projection * glm::vec4(corner, 1.f);
        ASSERT_GT(c.w, 0.f) << name;
        EXPECT_GE(c.z / c.w, -1.f) << name;  // beyond the near plane
        EXPECT_LE(c.z / c.w, 1.f) << name;   // before the far plane
        most = std::max({most, static_cast<double>(std::fabs(c.x / c.w)), static_cast<double>(std::fabs(c.y / c.w))});
      }
      // Inside, and tight on the fuller side: the margin is 6% of each half.
      EXPECT_LE(most, 0.8801) << name << " aspect " << aspect;
      EXPECT_GE(most, 0.70) << name << " aspect " << aspect;
    }
  }
}

TEST(RenderCamera, ViewsLookFromWhereTheirNamesSay) {
  BoundingBox box;
  box.extend({-1, -1, -1});
  box.extend({1, 1, 1});
  const auto eye = [&](ViewPreset p) { return frame_camera(box, CameraFraming{view_angles(p), 1.f}).eye; };
  EXPECT_GT(eye(ViewPreset::Front).z, 1.f);
  EXPECT_NEAR(eye(ViewPreset::Front).x, 0.f, 1e-5f);
  EXPECT_GT(eye(ViewPreset::Side).x, 1.f);
  EXPECT_GT(eye(ViewPreset::Top).y, 1.f);
  const glm::vec3 iso = eye(ViewPreset::Iso);
  EXPECT_NEAR(iso.x, iso.z, 1e-4f);
  EXPECT_NEAR(iso.y, iso.x, 1e-4f);  // the cube diagonal
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { view_preset_from_name("below"); }, {"below", "front, side, top or iso"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { frame_camera(box, CameraFraming{{0.f, NAN}, 1.f}); }, {"finite"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { frame_camera(box, CameraFraming{{}, 0.f}); }, {"aspect"}));
  // An empty box still gives a usable camera.
  const Camera empty = frame_camera(BoundingBox{}, CameraFraming{});
  EXPECT_TRUE(std::isfinite(empty.view_projection[3][3]));
}

TEST(RenderRasterizer, TrianglesSharingAnEdgeCoverEachSampleOnce) {
  // A slanted quad split along its diagonal, the halves in two colours: every sample inside is
  // one of the two (no crack shows the background), and the halves' areas add up.
  Framebuffer fb;
  fb.resize(64, 64, 1);
  fb.clear(glm::vec3(0.f));
  const glm::vec3 a(1, 0, 0), b(0, 1, 0);
  const RasterVertex p0{{-0.71f, -0.43f, 0, 1}, a}, p1{{0.63f, -0.77f, 0, 1}, a}, p2{{0.81f, 0.59f, 0, 1}, a};
  const RasterVertex q0{{-0.71f, -0.43f, 0, 1}, b}, q2{{0.81f, 0.59f, 0, 1}, b}, q3{{-0.53f, 0.87f, 0, 1}, b};
  rasterize_triangle(fb, p0, p1, p2);
  rasterize_triangle(fb, q0, q2, q3);
  // Drawn again at the same depth, the first triangle keeps its samples (ties keep the first).
  rasterize_triangle(fb, RasterVertex{p0.clip, b}, RasterVertex{p1.clip, b}, RasterVertex{p2.clip, b});
  int red = 0, green = 0;
  for (const glm::vec3& c : fb.colours()) {
    red += c == a;
    green += c == b;
  }
  // Interior samples of the convex quad that are neither colour would be cracks: count the
  // background samples strictly inside the quad with a point-in-polygon test.
  const auto inside = [](glm::vec2 s) {
    const glm::vec2 v[4] = {{-0.71f, -0.43f}, {0.63f, -0.77f}, {0.81f, 0.59f}, {-0.53f, 0.87f}};
    for (int i = 0; i < 4; ++i) {
      const glm::vec2 e = v[(i + 1) % 4] - v[i], d = s - v[i];
      if (e.x * d.y - e.y * d.x <= 0.01f) return false;
    }
    return true;
  };
  int cracks = 0;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const glm::vec2 ndc((static_cast<float>(x) + 0.5f) / 32.f - 1.f, 1.f - (static_cast<float>(y) + 0.5f) / 32.f);
      if (inside(ndc) && fb.colours()[static_cast<std::size_t>(y * 64 + x)] == glm::vec3(0.f)) ++cracks;
    }
  }
  EXPECT_EQ(cracks, 0);
  EXPECT_GT(red, 400);
  EXPECT_GT(green, 400);
}

TEST(RenderRasterizer, NearPlaneAndNonFiniteTrianglesAreSafe) {
  Framebuffer fb;
  fb.resize(32, 32, 1);
  fb.clear(glm::vec3(0.f));
  const glm::vec3 c(1.f);
  // One vertex behind the eye: clipped, the visible part drawn.
  rasterize_triangle(fb, {{-0.5f, -0.5f, 0.f, 1.f}, c}, {{0.5f, -0.5f, 0.f, 1.f}, c}, {{0.f, 2.f, -3.f, -1.f}, c});
  EXPECT_GT(std::count(fb.colours().begin(), fb.colours().end(), c), 10);
  // Huge and non-finite coordinates draw nothing wrong and do not crash.
  fb.clear(glm::vec3(0.f));
  rasterize_triangle(fb, {{NAN, 0.f, 0.f, 1.f}, c}, {{1.f, 0.f, 0.f, 1.f}, c}, {{0.f, 1.f, 0.f, 1.f}, c});
  EXPECT_EQ(std::count(fb.colours().begin(), fb.colours().end(), c), 0);
  // A triangle far larger than the picture is clipped to the guard band and covers it all.
  rasterize_triangle(fb, {{-1e4f, -1e4f, 0.f, 1.f}, c}, {{1e4f, -1e4f, 0.f, 1.f}, c}, {{0.f, 1e4f, 0.f, 1.f}, c});
  EXPECT_EQ(std::count(fb.colours().begin(), fb.colours().end(), c), 32 * 32);
  // Absurd ones lose float precision in clipping, but stay inside the buffer.
  rasterize_triangle(fb, {{-1e30f, -1e30f, 0.f, 1.f}, c}, {{1e30f, -1e30f, 0.f, 1.f}, c}, {{0.f, 1e30f, 0.f, 1.f}, c});
}

TEST(RenderDrawMeshJob, ValidateNamesTheField) {
  Framebuffer fb;
  fb.resize(8, 8, 1);
  const Camera camera;
  const glm::vec3 positions[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const glm::vec3 normals[2] = {};
  const std::uint32_t indices[3] = {0, 1, 3};
  glm::vec4 scratch[3];
  DrawMeshJob job;
  job.positions = positions;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.validate(); }, {"no camera"}));
  job.camera = &camera;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.validate(); }, {"no target"}));
  job.target = &fb;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.validate(); }, {"clip_scratch"}));
  job.clip_scratch = scratch;
  job.normals = normals;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.validate(); }, {"2 normals for 3 positions"}));
  job.normals = {};
  job.indices = indices;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.validate(); }, {"index 2 is 3"}));
  job.indices = {};
  fb.clear(glm::vec3(0.f));
  job.camera = &camera;
  EXPECT_NO_THROW(job.run());
  job.mode = PrimitiveMode::Lines;
  EXPECT_EQ(job.run(), 0u);
}

TEST(RenderSkeleton, DepthColoursDifferAlongAChain) {
  EXPECT_NE(skeleton_depth_colour(0), skeleton_depth_colour(1));
  EXPECT_EQ(skeleton_depth_colour(0), skeleton_depth_colour(7));  // the ramp repeats
  const Model model = make_demo_character();
  Framebuffer fb;
  fb.resize(16, 16, 1);
  const std::vector<glm::mat4> too_few(3);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { draw_skeleton(model, too_few, Camera{}, fb); }, {"3 transforms for 13 bones"}));
}

TEST(RenderFiles, PngRoundTripsExactly) {
  Image image(7, 5);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 7; ++x) image(x, y) = Rgba8{static_cast<std::uint8_t>(x * 30), static_cast<std::uint8_t>(y * 50), 77, 255};
  }
  const std::vector<std::uint8_t> png = encode_png(image);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(std::memcmp(png.data(), "\x89PNG", 4), 0);
  const Image back = decode_png(png);
  ASSERT_EQ(back.width(), 7);
  EXPECT_TRUE(std::equal(back.pixels().begin(), back.pixels().end(), image.pixels().begin()));
  image(3, 3).a = 10;  // translucent: written as RGBA
  EXPECT_EQ(decode_png(encode_png(image))(3, 3).a, 10);
  const std::uint8_t junk[] = {1, 2, 3, 4};
  EXPECT_THROW(decode_png(junk), std::runtime_error);
  EXPECT_TRUE(throws_with<std::runtime_error>([] { read_png("/nonexistent/x.png"); }, {"cannot read", "x.png"}));
  EXPECT_TRUE(throws_with<std::runtime_error>([&] { write_png(image, "/nonexistent/x.png"); }, {"cannot write"}));
}

}  // namespace
}  // namespace marrow::render
