// The software renderer. Targets (issue 6): a 512x512 frame of CesiumMan with 2x2 supersampling
// under 50 ms on one core; a 16-frame contact sheet of perf/big_skinned.glb (~100k skinned
// vertices) under 2 s. The frame benchmark measures the whole frame (pose, rasterize, resolve)
// with the camera and renderer set up once, as a player drawing frame after frame would; the
// sheet benchmark includes everything render_clip_sheet does (animated bounds, 16 renders,
// labels), from a loaded model.

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "presentation/clip_sheet.hpp"
#include "marrow/render/model_renderer.hpp"

namespace {

using namespace marrow;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

const char* const kCesiumMan = "gltf/CesiumMan/cesium_man.gltf";
const char* const kBigSkinned = "perf/big_skinned.glb";

Model load(const char* asset) {
  ModelFileOptions options;
  options.import.max_palette = 256;
  return load_model_file(shared_asset(asset), options);
}

void BM_RenderFrame_CesiumMan512(benchmark::State& state) {
  const Model model = load(kCesiumMan);
  render::RenderSettings settings;  // 512x512, 2x2 supersampling
  settings.samples = static_cast<int>(state.range(0));
  const render::Camera camera = render::frame_camera(
      animated_bounds(model), render::CameraFraming{render::view_angles(render::ViewPreset::Iso), 1.f});
  Animator animator(model);
  animator.play(0);
  render::ModelRenderer renderer(model);
  render::Image image;
  const Ticks step = ticks_from_seconds(1.0 / 60.0);
  for (auto _ : state) {
    animator.update(step);  // a new pose every frame, as when playing
    renderer.render(animator, camera, settings, image);
    benchmark::DoNotOptimize(image.pixels().data());
  }
  state.counters["triangles"] = static_cast<double>(model.meshes[0].parts[0].indices.size() / 3);
}

void BM_ContactSheet_BigSkinned16(benchmark::State& state) {
  const Model model = load(kBigSkinned);
  std::size_t vertices = 0;
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) vertices += part.vertex_count();
  }
  presentation::ClipSheetRequest request;
  request.clips = {0};
  request.frames = 16;
  request.title = "big_skinned.glb";
  for (auto _ : state) {
    const render::Image sheet = presentation::render_clip_sheet(model, request);
    benchmark::DoNotOptimize(sheet.pixels().data());
  }
  state.counters["vertices"] = static_cast<double>(vertices);
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("BM_RenderFrame_CesiumMan512", guarded(kCesiumMan, BM_RenderFrame_CesiumMan512))
      ->Arg(1)
      ->Arg(2)
      ->Arg(4)
      ->ArgName("samples")
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_ContactSheet_BigSkinned16", guarded(kBigSkinned, BM_ContactSheet_BigSkinned16))
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
