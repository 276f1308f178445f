// What one more instance of a loaded model costs (issue 30), on perf/big_skinned.glb (200 joints,
// one skin, no morph targets):
//
//   animator_construct/big_skinned   an Animator made from the model compiled once
//                                    (compile_model): sizing its buffers and its first pose
//   animator_construct_compiling/big_skinned
//                                    Animator(model): compiling the model for itself first
//                                    (validate(Model), bind worlds, rest poses, maps), for scale
//   animator_bytes/big_skinned       the bytes an instance holds (Animator::size_in_bytes) while
//                                    it plays one clip, no CPU vertex buffers asked for; counter
//                                    bytes_per_joint
#include <memory>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/compiled_model.hpp"

namespace {

using namespace marrow;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

const Model& big_skinned() {
  static const Model model = [] {
    ModelFileOptions options;
    options.import.max_palette = 256;
    return load_model_file(shared_asset("perf/big_skinned.glb"), options);
  }();
  return model;
}

void construct(benchmark::State& state) {
  const auto compiled = compile_model(big_skinned());
  for (auto _ : state) {
    Animator animator(compiled);
    benchmark::DoNotOptimize(animator.player(0).skin_transforms().data());
  }
}

void construct_compiling(benchmark::State& state) {
  const Model& model = big_skinned();
  const auto compiled = compile_model(model);  // the clips compiled once: only the model's own part is timed
  for (auto _ : state) {
    Animator animator(model, compiled->animations);
    benchmark::DoNotOptimize(animator.player(0).skin_transforms().data());
  }
}

void bytes(benchmark::State& state) {
  const Model& model = big_skinned();
  const auto compiled = compile_model(model);
  Animator animator(compiled);
  animator.play(0);
  animator.update(Ticks{166'667});
  for (auto _ : state) benchmark::DoNotOptimize(animator.size_in_bytes());
  const auto joints = static_cast<double>(model.skins.at(0).data.bone_count);
  state.counters["bytes_per_joint"] = static_cast<double>(animator.size_in_bytes()) / joints;
  state.counters["shared_bytes_per_joint"] = static_cast<double>(compiled->size_in_bytes()) / joints;
}

[[maybe_unused]] const bool registered = [] {
  const char* const file = "perf/big_skinned.glb";
  benchmark::RegisterBenchmark("animator_construct/big_skinned", guarded(file, construct));
  benchmark::RegisterBenchmark("animator_construct_compiling/big_skinned", guarded(file, construct_compiling));
  benchmark::RegisterBenchmark("animator_bytes/big_skinned", guarded(file, bytes));
  return true;
}();

}  // namespace
