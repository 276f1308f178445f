// Loading a model from a path, as an application does: open, read (mapped), parse, validate,
// build a Model ready to play; one load per iteration, wall time. The counter `minflt` is the
// minor page faults per load (getrusage): memory the allocator returned to the kernel and
// faulted in again, or a file mapped page by page, shows up there.
//   import_path/big_skinned_glb  perf/big_skinned.glb (10.5 MB GLB, 200 joints, ~100k skinned vertices)
//   import_path/cesium_man       gltf/CesiumMan/cesium_man.gltf (688 KB, one base64 data: buffer)
//   native_load/big_skinned      big_skinned converted to marrow's native format (written once to a
//                                temporary file before the runs)
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/native/native_format.hpp"

namespace {

namespace fs = std::filesystem;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

marrow::ImportOptions options_for_big() {
  marrow::ImportOptions options;
  options.max_palette = 256;  // big_skinned has 200 joints
  return options;
}

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

template <class Load>
void run(benchmark::State& state, const fs::path& file, Load load) {
  const long before = minor_faults();
  for (auto _ : state) {
    marrow::Model model = load(file);
    benchmark::DoNotOptimize(model.meshes.data());
  }
  state.counters["minflt"] = benchmark::Counter(static_cast<double>(minor_faults() - before),
                                                benchmark::Counter::kAvgIterations);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(fs::file_size(file)));
}

void import_path(benchmark::State& state, const std::string& relative, marrow::ImportOptions options) {
  run(state, shared_asset(relative), [&](const fs::path& path) { return marrow::import_gltf(path, options); });
}

// big_skinned converted to the native format, in a temporary file removed at exit. A conversion
// that throws leaves no file behind (and, as a static, is tried again by the next benchmark).
struct NativeBigSkinned {
  const fs::path path =
      fs::temp_directory_path() / ("marrow_bench_big_skinned_" + std::to_string(::getpid()) + ".marrow");

  NativeBigSkinned() {
    const marrow::Model model = marrow::import_gltf(shared_asset("perf/big_skinned.glb"), options_for_big());
    try {
      marrow::write_native_file(model, path);
    } catch (...) {
      remove();
      throw;
    }
  }
  ~NativeBigSkinned() { remove(); }
  NativeBigSkinned(const NativeBigSkinned&) = delete;
  NativeBigSkinned& operator=(const NativeBigSkinned&) = delete;

  void remove() const {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

void native_load(benchmark::State& state) {
  static const NativeBigSkinned native;
  run(state, native.path, [](const fs::path& path) { return marrow::read_native_file(path); });
}

void register_all() {
  const std::string big = "perf/big_skinned.glb", cesium = "gltf/CesiumMan/cesium_man.gltf";
  benchmark::RegisterBenchmark("import_path/big_skinned_glb", guarded(big, import_path, big, options_for_big()))
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("import_path/cesium_man", guarded(cesium, import_path, cesium, marrow::ImportOptions{}))
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("native_load/big_skinned", guarded(big + " in the native format", native_load))
      ->Unit(benchmark::kMillisecond);
}

const int kRegistered = (register_all(), 0);

}  // namespace
