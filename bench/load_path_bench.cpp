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

#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/native/native_format.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kAssets = MARROW_SHARED_ASSETS;

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
  if (!fs::exists(file)) {
    state.SkipWithError(("missing " + file.string()).c_str());
    return;
  }
  const long before = minor_faults();
  for (auto _ : state) {
    marrow::Model model = load(file);
    benchmark::DoNotOptimize(model.meshes.data());
  }
  state.counters["minflt"] = benchmark::Counter(static_cast<double>(minor_faults() - before),
                                                benchmark::Counter::kAvgIterations);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(fs::file_size(file)));
}

void import_path(benchmark::State& state, const fs::path& file, marrow::ImportOptions options) {
  run(state, file, [&](const fs::path& path) { return marrow::import_gltf(path, options); });
}

// big_skinned in the native format, written once per process.
const fs::path& native_big_skinned() {
  static const fs::path path = [] {
    const fs::path glb = kAssets / "perf/big_skinned.glb";
    const fs::path out = fs::temp_directory_path() / ("marrow_bench_big_skinned_" + std::to_string(::getpid()) + ".marrow");
    if (fs::exists(glb)) marrow::write_native_file(marrow::import_gltf(glb, options_for_big()), out);
    return out;
  }();
  return path;
}

struct RemoveNative {
  ~RemoveNative() {
    std::error_code ec;
    if (!native_big_skinned().empty()) fs::remove(native_big_skinned(), ec);
  }
};

void native_load(benchmark::State& state) {
  static RemoveNative remove_at_exit;
  run(state, native_big_skinned(), [](const fs::path& path) { return marrow::read_native_file(path); });
}

void register_all() {
  benchmark::RegisterBenchmark("import_path/big_skinned_glb", import_path, kAssets / "perf/big_skinned.glb",
                               options_for_big())
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("import_path/cesium_man", import_path, kAssets / "gltf/CesiumMan/cesium_man.gltf",
                               marrow::ImportOptions{})
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("native_load/big_skinned", native_load)->Unit(benchmark::kMillisecond);
}

const int kRegistered = (register_all(), 0);

}  // namespace
