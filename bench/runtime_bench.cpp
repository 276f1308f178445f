// The runtime jobs on real skeletons (issue 9): CesiumMan (19 joints) and perf/big_skinned.glb
// (200 joints), as a game drives them.
//
//   sample_compose/<asset>       SamplingJob + LocalToModelJob, one instance, +1/60 s a frame,
//                                looping (playback_time), persistent context: the job pipeline
//   sample_compose_skin/<asset>  the same + SkinPaletteJob (skin matrices)
//   instances_1000/<asset>       1000 instances at spread times, one shared compiled clip, each
//                                with its own clock, context and model matrices (the local pose
//                                is per-thread scratch), on one core: sample + compose as in
//                                sample_compose (ozz's row is the same)
//   instances_1000_skin/<asset>  the same with skin matrices
//   random_seek/<asset>          a cold context (invalidated) at a random time each frame
//   sample_compose_compressed/<asset>
//                                sample_compose on the clip compressed at the default tolerance
//                                (1 mm at 10 cm, offline/clip_compression.hpp)
//   random_seek_compressed/<asset>
//                                random_seek on the compressed clip, its context made for it
//   compressed_context_bytes/<asset>
//                                no timing: `bytes_per_joint` is one instance's sampling context
//                                for the compressed clip (SamplingContext::size_in_bytes / joints)
//   clip_bytes/<asset>           no timing: the `bytes` counter is the compressed clip's size in
//                                memory (RuntimeClip::size_in_bytes), `uncompressed` the compiled one's
//   sample_compose_segmented/<asset>, random_seek_segmented/<asset>, clip_bytes_segmented/<asset>,
//   segmented_context_bytes/<asset>
//                                the same four on the clip compressed as segments of samples
//                                (ClipCompression::segmented: no cache, nothing kept per instance)
//   player_update/<asset>        AnimationPlayer::update, the seed facade (local, world, skin)
//   update_instances_1000/<asset>/threads:N
//                                1000 Animators (the instance API: scene, palettes) at spread
//                                times through update_instances on a pool of N threads (real
//                                time; X5 asks 2 threads >= 1.8x one)
//
// Counters: ns_per_joint (every joint of every instance), joints_per_second.
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/update_instances.hpp"
#include "marrow/runtime/animation_player.hpp"
#include "marrow/runtime/offline/clip_compression.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"

namespace {

using namespace marrow;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

constexpr Ticks kFrame{kTicksPerSecond / 60};

struct Asset {
  Model model;
  const SkinningData* skin = nullptr;
  const AnimationClip* clip = nullptr;
  RuntimeClip runtime;
  // At the default tolerance, made on first use: a clip compress_clip refuses fails only the
  // benchmarks that play it compressed.
  mutable std::optional<RuntimeClip> compressed_clip, segmented_clip;

  const RuntimeClip& compressed() const {
    if (!compressed_clip) compressed_clip = compress_clip(*clip, *skin, ClipCompression{});
    return *compressed_clip;
  }
  const RuntimeClip& segmented() const {
    if (!segmented_clip) segmented_clip = compress_clip(*clip, *skin, ClipCompression{.segmented = true});
    return *segmented_clip;
  }
  // 0: the compiled clip; 1: compressed, keyed; 2: compressed, segmented.
  const RuntimeClip& played(int form) const { return form == 0 ? runtime : form == 1 ? compressed() : segmented(); }
};

// Loaded once per process. A load that throws is not cached: the next benchmark loads (and
// reports) again.
const Asset& asset(const std::string& relative) {
  static std::vector<std::pair<std::string, std::unique_ptr<Asset>>> cache;
  for (const auto& [name, a] : cache) {
    if (name == relative) return *a;
  }
  auto a = std::make_unique<Asset>();
  ModelFileOptions options;
  options.import.max_palette = 256;
  a->model = load_model_file(shared_asset(relative), options);
  a->skin = &a->model.skins.at(0).data;
  a->clip = &a->skin->animation_clips.begin()->second;
  a->runtime = compile_clip(*a->clip, *a->skin);
  cache.emplace_back(relative, std::move(a));
  return *cache.back().second;
}

void set_counters(benchmark::State& state, double joints_per_iteration) {
  state.counters["ns_per_joint"] =
      benchmark::Counter(joints_per_iteration * 1e-9, benchmark::Counter::kIsIterationInvariantRate |
                                                          benchmark::Counter::kInvert);
  state.counters["joints_per_second"] =
      benchmark::Counter(joints_per_iteration, benchmark::Counter::kIsIterationInvariantRate);
}

// One instance's state for the job pipeline: its clock, sampling context and matrices. The
// local pose lives only between sampling and composing, so one buffer per thread serves every
// instance (as it would serve the layers of a blend).
struct Instance {
  SamplingContext context;
  std::vector<glm::mat4> models, palette;
  Ticks time{};

  // The context is sized for `played` (a compressed clip's keep its decoded keys).
  Instance(const Asset& a, Ticks start, const RuntimeClip* played = nullptr)
      : context(played != nullptr ? *played : a.runtime),
        models(a.runtime.joint_count()),
        palette(a.runtime.joint_count()),
        time(start) {}

  void frame(const Asset& a, bool skin, std::span<TrsBlock> pose, const RuntimeClip* clip = nullptr) {
    if (clip == nullptr) clip = &a.runtime;
    time = playback_time(time + kFrame, clip->duration(), true);
    SamplingJob{clip, time, &context, pose}.run();
    LocalToModelJob compose;
    compose.parents = a.skin->skeleton_hierarchy;
    compose.local_pose = pose;
    compose.root_prefix = has_root_prefix(*a.skin) ? std::span<const glm::mat4>(a.skin->skeleton_root_prefix)
                                                   : std::span<const glm::mat4>();
    compose.models = models;
    compose.run();
    if (skin) {
      SkinPaletteJob palette_job;
      palette_job.models = models;
      palette_job.inverse_binds = a.skin->inverse_bind_pose;
      palette_job.palette = palette;
      palette_job.run();
    }
  }
};

void sample_compose(benchmark::State& state, const std::string& file, bool skin, int form) {
  const Asset& a = asset(file);
  const RuntimeClip* clip = &a.played(form);
  Instance instance(a, Ticks{0}, clip);
  std::vector<TrsBlock> pose(pose_block_count(a.runtime.joint_count()));
  for (auto _ : state) {
    instance.frame(a, skin, pose, clip);
    benchmark::DoNotOptimize(instance.models.data());
    benchmark::DoNotOptimize(instance.palette.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(a.runtime.joint_count()));
}

void instances(benchmark::State& state, const std::string& file, int count, bool skin) {
  const Asset& a = asset(file);
  std::vector<Instance> all;
  all.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) all.emplace_back(a, Ticks{a.runtime.duration().count() * i / count});
  std::vector<TrsBlock> pose(pose_block_count(a.runtime.joint_count()));
  for (auto _ : state) {
    for (Instance& instance : all) instance.frame(a, skin, pose);
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(a.runtime.joint_count()) * count);
}

void random_seek(benchmark::State& state, const std::string& file, int form) {
  const Asset& a = asset(file);
  const RuntimeClip* clip = &a.played(form);
  Instance instance(a, Ticks{0}, clip);
  std::vector<TrsBlock> pose(pose_block_count(a.runtime.joint_count()));
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::int64_t> when(0, a.runtime.duration().count());
  std::vector<Ticks> times(1024);
  for (Ticks& t : times) t = Ticks{when(rng)};
  std::size_t i = 0;
  for (auto _ : state) {
    instance.context.invalidate();
    SamplingJob{clip, times[i++ & 1023], &instance.context, pose}.run();
    benchmark::DoNotOptimize(pose.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(a.runtime.joint_count()));
}

void clip_bytes(benchmark::State& state, const std::string& file, int form) {
  const Asset& a = asset(file);
  const RuntimeClip& compressed = a.played(form);
  for (auto _ : state) benchmark::DoNotOptimize(compressed.size_in_bytes());
  state.counters["bytes"] = static_cast<double>(compressed.size_in_bytes());
  state.counters["uncompressed"] = static_cast<double>(a.runtime.size_in_bytes());
}

void compressed_context_bytes(benchmark::State& state, const std::string& file, int form) {
  const Asset& a = asset(file);
  const SamplingContext context(a.played(form));
  for (auto _ : state) benchmark::DoNotOptimize(context.size_in_bytes());
  state.counters["bytes"] = static_cast<double>(context.size_in_bytes());
  state.counters["bytes_per_joint"] = static_cast<double>(context.size_in_bytes()) / static_cast<double>(a.runtime.joint_count());
}

void player_update(benchmark::State& state, const std::string& file) {
  const Asset& a = asset(file);
  AnimationPlayer player(*a.skin);
  player.start_clip(*a.clip);
  for (auto _ : state) {
    player.update(kFrame, true, true);
    benchmark::DoNotOptimize(player.skin_transforms().data());
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(a.skin->bone_count));
}

void update_many(benchmark::State& state, const std::string& file, int count) {
  const Asset& a = asset(file);
  const auto clips = compile_animations(a.model);
  std::vector<Animator> animators;
  animators.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    Animator& animator = animators.emplace_back(a.model, clips);
    animator.play(0);
    animator.update(Ticks{a.runtime.duration().count() * i / count}, false);
  }
  ThreadPool pool(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    update_instances(animators, kFrame, &pool);
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(a.model.nodes.size()) * count);
}

const char* const kCesium = "gltf/CesiumMan/cesium_man.gltf";
const char* const kBig = "perf/big_skinned.glb";

[[maybe_unused]] const bool registered = [] {
  for (const auto& [name, file] : {std::pair{"cesium_man", kCesium}, std::pair{"big_skinned", kBig}}) {
    const std::string n = name, f = file;
    benchmark::RegisterBenchmark(("sample_compose/" + n).c_str(), guarded(f, sample_compose, f, false, 0));
    benchmark::RegisterBenchmark(("sample_compose_skin/" + n).c_str(), guarded(f, sample_compose, f, true, 0));
    benchmark::RegisterBenchmark(("sample_compose_compressed/" + n).c_str(), guarded(f, sample_compose, f, false, 1));
    benchmark::RegisterBenchmark(("random_seek_compressed/" + n).c_str(), guarded(f, random_seek, f, 1));
    benchmark::RegisterBenchmark(("clip_bytes/" + n).c_str(), guarded(f, clip_bytes, f, 1));
    benchmark::RegisterBenchmark(("compressed_context_bytes/" + n).c_str(), guarded(f, compressed_context_bytes, f, 1));
    benchmark::RegisterBenchmark(("sample_compose_segmented/" + n).c_str(), guarded(f, sample_compose, f, false, 2));
    benchmark::RegisterBenchmark(("random_seek_segmented/" + n).c_str(), guarded(f, random_seek, f, 2));
    benchmark::RegisterBenchmark(("clip_bytes_segmented/" + n).c_str(), guarded(f, clip_bytes, f, 2));
    benchmark::RegisterBenchmark(("segmented_context_bytes/" + n).c_str(), guarded(f, compressed_context_bytes, f, 2));
    benchmark::RegisterBenchmark(("instances_1000/" + n).c_str(), guarded(f, instances, f, 1000, false))
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("instances_1000_skin/" + n).c_str(), guarded(f, instances, f, 1000, true))
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("player_update/" + n).c_str(), guarded(f, player_update, f));
    benchmark::RegisterBenchmark(("update_instances_1000/" + n).c_str(), guarded(f, update_many, f, 1000))
        ->ArgName("threads")
        ->Arg(1)
        ->Arg(2)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("random_seek/big_skinned", guarded(kBig, random_seek, std::string(kBig), 0));
  return true;
}();

}  // namespace
