// glTF import time per shared asset, from bytes already in memory (warm page cache, no disk
// I/O in the loop): parse, validate, skeleton, clips, meshes, ready to play. Counters: MB/s of
// file bytes. big_skinned.glb (200 joints, ~100k skinned vertices, 600 channels x 301 keys) is
// the headline figure; it needs max_palette >= 200.
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "marrow/io/file_bytes.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kAssets = MARROW_SHARED_ASSETS;

void import_file(benchmark::State& state, const fs::path& file, bool union_only) {
  if (!fs::exists(file)) {
    state.SkipWithError(("missing " + file.string()).c_str());
    return;
  }
  marrow::ImportOptions options;
  options.max_palette = 256;
  options.union_only = union_only;
  const marrow::FileBytes file_bytes = marrow::read_file(file, options.limits);
  const std::vector<std::byte> bytes(file_bytes.data(), file_bytes.data() + file_bytes.size());
  const fs::path base = file.parent_path();
  for (auto _ : state) {
    marrow::Model model = marrow::import_gltf(bytes, options, &base);
    benchmark::DoNotOptimize(model.meshes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes.size()));
}

void register_all() {
  benchmark::RegisterBenchmark("BM_Import/perf/big_skinned.glb", import_file, kAssets / "perf/big_skinned.glb", false)
      ->Unit(benchmark::kMillisecond);
  for (const char* file : {"gltf/CesiumMan/cesium_man.gltf", "gltf/Fox/Fox.gltf", "gltf/RiggedSimple/rigged_simple.gltf",
                           "gltf/BoxAnimated/box_animated.gltf", "gltf/WebXRGenericHand/left.glb"}) {
    benchmark::RegisterBenchmark((std::string("BM_Import/") + file).c_str(), import_file, kAssets / file, false)
        ->Unit(benchmark::kMillisecond);
  }
}

const int kRegistered = (register_all(), 0);

}  // namespace
