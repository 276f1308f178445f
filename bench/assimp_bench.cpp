// Assimp imports of shared assets, in process and in the isolating child process (the default):
// the difference is the price of the fork, the worker's limits and the native-format round trip.
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"

namespace {

namespace fs = std::filesystem;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

void BM_AssimpImport(benchmark::State& state, const std::string& relative, marrow::AssimpOptions::Isolation isolation) {
  const fs::path path = shared_asset(relative);
  marrow::AssimpOptions options;
  options.isolation = isolation;
  for (auto _ : state) {
    marrow::Model model = marrow::import_assimp(path, options);
    benchmark::DoNotOptimize(model.nodes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(fs::file_size(path)));
}

[[maybe_unused]] const bool registered = [] {
  const auto add = [](const char* name, const std::string& file, marrow::AssimpOptions::Isolation isolation) {
    benchmark::RegisterBenchmark((std::string("BM_AssimpImport/") + name).c_str(),
                                 guarded(file, BM_AssimpImport, file, isolation))
        ->Unit(benchmark::kMillisecond);
  };
  using I = marrow::AssimpOptions::Isolation;
  add("seymour_dae_in_process", "dae/seymour.dae", I::InProcess);
  add("seymour_dae_child", "dae/seymour.dae", I::ChildProcess);
  add("jog_fbx_in_process", "fbx/pab/jog.fbx", I::InProcess);
  add("jog_fbx_child", "fbx/pab/jog.fbx", I::ChildProcess);
  add("cube_dae_in_process", "dae/cube.dae", I::InProcess);
  add("cube_dae_child", "dae/cube.dae", I::ChildProcess);
  return true;
}();

}  // namespace
