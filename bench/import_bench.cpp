// glTF import time per shared asset, from bytes already in memory (warm page cache, no disk
// I/O in the loop): parse, validate, skeleton, clips, meshes, ready to play. Counters: MB/s of
// file bytes. big_skinned.glb (200 joints, ~100k skinned vertices, 600 channels x 301 keys) is
// the headline figure; it needs max_palette >= 200.
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"

namespace {

namespace fs = std::filesystem;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

void import_file(benchmark::State& state, const std::string& relative, bool union_only) {
  const fs::path file = shared_asset(relative);
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
  for (const char* file : {"perf/big_skinned.glb", "gltf/CesiumMan/cesium_man.gltf", "gltf/Fox/Fox.gltf",
                           "gltf/RiggedSimple/rigged_simple.gltf", "gltf/BoxAnimated/box_animated.gltf",
                           "gltf/WebXRGenericHand/left.glb"}) {
    benchmark::RegisterBenchmark((std::string("BM_Import/") + file).c_str(), guarded(file, import_file, file, false))
        ->Unit(benchmark::kMillisecond);
  }
}

const int kRegistered = (register_all(), 0);

}  // namespace
