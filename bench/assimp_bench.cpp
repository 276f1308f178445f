// Assimp imports of shared assets, in process and in the isolating child process (the default):
// the difference is the price of the fork, the worker's limits and the native-format round trip.
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "marrow/io/assimp/assimp_importer.hpp"

namespace {

namespace fs = std::filesystem;

void BM_AssimpImport(benchmark::State& state, const std::string& relative, marrow::AssimpOptions::Isolation isolation) {
  const fs::path path = fs::path(MARROW_SHARED_ASSETS) / relative;
  if (!fs::exists(path)) {
    state.SkipWithError(("missing " + path.string()).c_str());
    return;
  }
  marrow::AssimpOptions options;
  options.isolation = isolation;
  for (auto _ : state) {
    marrow::Model model = marrow::import_assimp(path, options);
    benchmark::DoNotOptimize(model.nodes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(fs::file_size(path)));
}

using I = marrow::AssimpOptions::Isolation;
BENCHMARK_CAPTURE(BM_AssimpImport, seymour_dae_in_process, "dae/seymour.dae", I::InProcess)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AssimpImport, seymour_dae_child, "dae/seymour.dae", I::ChildProcess)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AssimpImport, jog_fbx_in_process, "fbx/pab/jog.fbx", I::InProcess)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AssimpImport, jog_fbx_child, "fbx/pab/jog.fbx", I::ChildProcess)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AssimpImport, cube_dae_in_process, "dae/cube.dae", I::InProcess)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AssimpImport, cube_dae_child, "dae/cube.dae", I::ChildProcess)->Unit(benchmark::kMillisecond);

}  // namespace
