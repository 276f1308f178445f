// The renderer on real files: every shared glTF asset renders to a sensible picture, one asset
// matches a stored golden image, and rendering is deterministic.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "shared_assets.hpp"
#include "marrow/io/model_file.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/skeleton_bones.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "presentation/clip_sheet.hpp"
#include "marrow/render/png_file.hpp"
#include "render_test_util.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;

using test::kAssets;
const fs::path kGolden = fs::path(MARROW_TEST_DATA) / "render" / "cesium_man_walk_1s.png";

Model load(const fs::path& file) {
  ModelFileOptions options;
  options.import.max_palette = 256;
  return load_model_file(file, options);
}

render::Rgba8 background_srgb() {
  const glm::vec3 b = render::RenderSettings{}.background;
  return {render::linear_to_srgb8(b.r), render::linear_to_srgb8(b.g), render::linear_to_srgb8(b.b), 255};
}

// Halfway through the first clip, or the loaded pose; iso view, no caption.
render::Image render_midway(const Model& model, int size) {
  render::RenderSettings settings;
  settings.width = settings.height = size;
  const render::Camera camera = render::frame_camera(animated_bounds(model),
                                                     render::CameraFraming{render::view_angles(render::ViewPreset::Iso), 1.f});
  const bool animated = !model.animations.empty();
  const double half = animated ? seconds_from_ticks(model.animations[0].duration) / 2 : 0.0;
  return test::render_pose(model, animated ? 0 : -1, half, camera, settings);
}

std::vector<fs::path> shared_gltf_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kAssets / "gltf")) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(RenderAssets, EverySharedGltfAssetFillsASensiblePartOfThePicture) {
  if (!fs::is_directory(kAssets / "gltf")) GTEST_SKIP() << "no shared glTF assets at " << (kAssets / "gltf").string();
  const std::vector<fs::path> files = shared_gltf_files();
  ASSERT_GE(files.size(), 9u);
  constexpr int kSize = 160;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Model model = load(file);
    // Skeleton-only files (animation libraries such as KayKit's) are framed on every clip's
    // joints: SkeletonOnlyFilesDrawTheirSkeletonFramedOnItsJoints checks them.
    if (model.meshes.empty()) continue;
    const render::Image image = render_midway(model, kSize);
    const test::ShapeMeasure m = test::touched_pixels(image, background_srgb());
    // Not empty, not everything; the framed box spans most of the picture, so the model's own
    // extent reaches a good part of it on at least one axis. (A quarter: the box is the one
    // animated-bounds routine's, made of per-joint and per-mesh boxes turned with the pose, so
    // a spinning shape such as AnimatedTriangle is framed with room for its box's corners.)
    const double fraction = m.area / (kSize * kSize);
    EXPECT_GT(fraction, 0.01) << "almost nothing drawn";
    EXPECT_LT(fraction, 0.9) << "the model covers the whole picture";
    const int extent = std::max(m.max_x - m.min_x, m.max_y - m.min_y) + 1;
    EXPECT_GT(extent, kSize / 4) << "the model is a speck";
    EXPECT_GE(m.min_x, 0);
    // Framed inside the margin: nothing touches the picture's border.
    EXPECT_GT(m.min_x, 0);
    EXPECT_GT(m.min_y, 0);
    EXPECT_LT(m.max_x, kSize - 1);
    EXPECT_LT(m.max_y, kSize - 1);
  }
}

// Skeleton-only animation files (no mesh; cameras, lights and their targets beside the
// skeleton) are drawn as their skeleton, framed on its joints: before, the picture was empty,
// and the cameras set the framing.
TEST(RenderAssets, SkeletonOnlyFilesDrawTheirSkeletonFramedOnItsJoints) {
  for (const char* name : {"fbx/pab/jog.fbx", "dae/pab/walk.dae"}) {
    const fs::path file = kAssets / name;
    if (!fs::exists(file)) GTEST_SKIP() << "no shared asset " << file.string();
    SCOPED_TRACE(name);
    const Model model = load(file);
    ASSERT_TRUE(model.meshes.empty());
    // The skeleton holds Hips and not the cameras (names as the exporter wrote them).
    const std::vector<std::uint8_t> skeleton = skeleton_bones(model);
    bool hips = false;
    for (std::size_t b = 0; b < model.nodes.size(); ++b) {
      if (skeleton[b] == 0) continue;
      hips = hips || model.nodes[b].name == "Hips";
      EXPECT_EQ(model.nodes[b].name.find("Camera"), std::string::npos) << model.nodes[b].name;
      EXPECT_EQ(model.nodes[b].name.find("Sky"), std::string::npos) << model.nodes[b].name;
    }
    EXPECT_TRUE(hips);
    constexpr int kSize = 160;
    const render::Image image = render_midway(model, kSize);  // no RenderSettings::skeleton
    const test::ShapeMeasure m = test::touched_pixels(image, background_srgb());
    EXPECT_GT(m.area, 200.0) << "almost nothing drawn";
    EXPECT_GT(std::max(m.max_x - m.min_x, m.max_y - m.min_y) + 1, kSize * 3 / 10) << "the skeleton is a speck";
  }
}

// Mean absolute difference per channel, 0-255.
double mean_absolute_error(const render::Image& a, const render::Image& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.pixels().size(); ++i) {
    const render::Rgba8 p = a.pixels()[i], q = b.pixels()[i];
    sum += std::abs(p.r - q.r) + std::abs(p.g - q.g) + std::abs(p.b - q.b);
  }
  return sum / (3.0 * static_cast<double>(a.pixels().size()));
}

// CesiumMan's walk at 1 s, iso view, skeleton overlay, 128x128. MARROW_UPDATE_GOLDEN=1 rewrites
// the stored picture (after a deliberate change to the renderer; look at it before committing).
TEST(RenderAssets, CesiumManMatchesTheGoldenImage) {
  const fs::path file = kAssets / "gltf/CesiumMan/cesium_man.gltf";
  if (!fs::exists(file)) GTEST_SKIP() << "no shared asset " << file.string();
  const Model model = load(file);
  render::RenderSettings settings;
  settings.width = settings.height = 128;
  settings.skeleton = true;
  const render::Camera camera = render::frame_camera(animated_bounds(model),
                                                     render::CameraFraming{render::view_angles(render::ViewPreset::Iso), 1.f});
  const render::Image image = test::render_pose(model, 0, 1.0, camera, settings);
  if (std::getenv("MARROW_UPDATE_GOLDEN")) render::write_png(image, kGolden);
  const render::Image golden = render::read_png(kGolden);
  ASSERT_EQ(golden.width(), image.width());
  ASSERT_EQ(golden.height(), image.height());
  // Identical on the machine that stored it; the tolerance covers other compilers' rounding.
  EXPECT_LT(mean_absolute_error(image, golden), 0.5);
  // And the comparison can fail: the pose half a second later is far from the golden.
  const render::Image later = test::render_pose(model, 0, 1.5, camera, settings);
  EXPECT_GT(mean_absolute_error(later, golden), 1.0);
}

TEST(RenderAssets, RenderingIsDeterministic) {
  const Model model = make_demo_character();
  presentation::ClipSheetRequest request;
  request.clips = {0, 1};
  request.frames = 3;
  request.tile.width = request.tile.height = 96;
  request.tile.skeleton = true;
  request.title = "determinism";
  const render::Image first = presentation::render_clip_sheet(model, request);
  const render::Image second = presentation::render_clip_sheet(model, request);
  ASSERT_EQ(first.pixels().size(), second.pixels().size());
  EXPECT_TRUE(std::equal(first.pixels().begin(), first.pixels().end(), second.pixels().begin()));
  EXPECT_EQ(render::encode_png(first), render::encode_png(second));
}

}  // namespace
}  // namespace marrow
