// The blending job (B2, B3) on perf/big_skinned.glb (200 joints): only the job is timed; the
// layers are sampled once beforehand.
//
//   blend_2_layers/big_skinned           two poses of one clip at different times, weights
//                                        0.3 and 0.7 (above the threshold: no rest pose)
//   blend_2_layers_masked/big_skinned    the same with a per-joint mask on the second layer
//   blend_2_layers_additive/big_skinned  the two layers plus one additive layer (the clip's
//                                        delta from its first frame, weight 0.5)
//
// Counter: ns_per_joint.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/runtime/additive_pose.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/sampling_job.hpp"

namespace {

namespace fs = std::filesystem;
using namespace marrow;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

struct BlendAsset {
  std::size_t joints = 0;
  std::vector<TrsBlock> walk_a, walk_b, rest, delta;
  std::vector<float> mask;
};

std::vector<TrsBlock> sample(const RuntimeClip& clip, Ticks t) {
  SamplingContext context(clip.joint_count());
  std::vector<TrsBlock> pose(pose_block_count(clip.joint_count()));
  SamplingJob{&clip, t, &context, pose}.run();
  return pose;
}

// Loaded once per process. A load that throws leaves nothing behind: the next benchmark loads
// (and reports) again.
const BlendAsset& big_skinned() {
  static const std::unique_ptr<BlendAsset> asset = [] {
    const fs::path file = shared_asset("perf/big_skinned.glb");
    ModelFileOptions options;
    options.import.max_palette = 256;
    const Model model = load_model_file(file, options);
    const SkinningData& skin = model.skins.at(0).data;
    const AnimationClip& clip = skin.animation_clips.begin()->second;
    const RuntimeClip runtime = compile_clip(clip, skin);
    auto a = std::make_unique<BlendAsset>();
    a->joints = runtime.joint_count();
    a->walk_a = sample(runtime, Ticks{clip.duration.count() / 5});
    a->walk_b = sample(runtime, Ticks{clip.duration.count() * 3 / 5});
    a->rest.resize(pose_block_count(a->joints));
    for (std::size_t j = 0; j < a->joints; ++j) set_pose_joint(a->rest, j, decompose_trs(skin.bind_pose[j]));
    const RuntimeClip additive =
        compile_additive_clip(make_additive_clip(clip, clip_reference_pose(clip, skin.bind_pose)), a->joints);
    a->delta = sample(additive, Ticks{clip.duration.count() / 2});
    for (std::size_t j = 0; j < a->joints; ++j) a->mask.push_back(j % 3 == 0 ? 0.f : 1.f);
    return a;
  }();
  return *asset;
}

void set_counters(benchmark::State& state, double joints_per_iteration) {
  state.counters["ns_per_joint"] = benchmark::Counter(
      joints_per_iteration * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void blend_layers(benchmark::State& state, bool masked, bool additive) {
  const BlendAsset& a = big_skinned();
  std::vector<TrsBlock> out(pose_block_count(a.joints));
  const BlendingLayer layers[] = {{a.walk_a, 0.3f}, {a.walk_b, 0.7f, masked ? std::span<const float>(a.mask) : std::span<const float>()}};
  const BlendingLayer additive_layers[] = {{a.delta, 0.5f}};
  BlendingJob job;
  job.layers = layers;
  if (additive) job.additive_layers = additive_layers;
  job.rest_pose = a.rest;
  job.joint_count = a.joints;
  job.output = out;
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(a.joints));
}

[[maybe_unused]] const bool registered = [] {
  const char* const file = "perf/big_skinned.glb";
  benchmark::RegisterBenchmark("blend_2_layers/big_skinned", guarded(file, blend_layers, false, false));
  benchmark::RegisterBenchmark("blend_2_layers_masked/big_skinned", guarded(file, blend_layers, true, false));
  benchmark::RegisterBenchmark("blend_2_layers_additive/big_skinned", guarded(file, blend_layers, false, true));
  return true;
}();

}  // namespace
