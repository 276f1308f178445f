// The native format against glTF for the same model: big_skinned.glb (200 joints, ~100k skinned
// vertices, 600 channels x 301 keys) imported once, written to native bytes, then both loaded
// from memory (warm page cache, no disk I/O in the loop) into a Model ready to play.
// BM_NativeRead / BM_GltfImport is the headline ratio; BM_NativeWrite is the conversion cost.
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/native/native_format.hpp"

namespace {

namespace fs = std::filesystem;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

const char* const kBigSkinned = "perf/big_skinned.glb";

marrow::ImportOptions big_options() {
  marrow::ImportOptions options;
  options.max_palette = 256;  // big_skinned has 200 joints
  return options;
}

// The model and both encodings, built once for every benchmark. A build that throws leaves
// nothing behind: the next benchmark builds (and reports) again.
struct Fixture {
  fs::path base;  // the folder of the .glb
  std::vector<std::byte> glb;
  marrow::Model model;
  std::vector<std::byte> native;
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture out;
    const fs::path path = shared_asset(kBigSkinned);
    out.base = path.parent_path();
    const marrow::FileBytes file = marrow::read_file(path, {});
    out.glb.assign(file.data(), file.data() + file.size());
    out.model = marrow::import_gltf(out.glb, big_options(), &out.base);
    out.native = marrow::write_native(out.model);
    return out;
  }();
  return f;
}

void BM_GltfImport(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    marrow::Model model = marrow::import_gltf(f.glb, big_options(), &f.base);
    benchmark::DoNotOptimize(model.meshes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.glb.size()));
}

void BM_NativeRead(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    marrow::Model model = marrow::read_native(f.native);
    benchmark::DoNotOptimize(model.meshes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.native.size()));
}

void BM_NativeWrite(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    std::vector<std::byte> bytes = marrow::write_native(f.model);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.native.size()));
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("BM_GltfImport", guarded(kBigSkinned, BM_GltfImport))->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_NativeRead", guarded(kBigSkinned, BM_NativeRead))->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_NativeWrite", guarded(kBigSkinned, BM_NativeWrite))->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
