// Retargeting (issue 27's targets): the job alone per frame on a 65-joint humanoid
// (retarget_frame/humanoid, <= 3 ns per target joint), beside sampling and composing the same
// rig (sample_compose/humanoid), and baking a 30 s clip at 30 Hz onto it
// (retarget_bake/humanoid_30s, <= 20 ms); and an Animator frame of the clip baked or played
// live (animator_update_baked|live/humanoid). The rigs are Mixamo's layout built in code
// (tools/demo/humanoid_rig.hpp): different proportions, up axes, units and local frames.
#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "demo/humanoid_rig.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/live_retarget.hpp"
#include "marrow/model/retarget_clips.hpp"
#include "marrow/model/retarget_map.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/playback_clock.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"

namespace marrow::bench {
namespace {

struct RetargetPairOfRigs {
  Model source, target;
  std::unique_ptr<RetargetMap> map;
};

const RetargetPairOfRigs& humanoids(double seconds, double rate) {
  static std::vector<std::pair<std::pair<double, double>, std::unique_ptr<RetargetPairOfRigs>>> cache;
  for (const auto& [key, rigs] : cache)
    if (key == std::pair{seconds, rate}) return *rigs;
  auto rigs = std::make_unique<RetargetPairOfRigs>();
  rigs->source = demo::humanoid_rig({.spine_bones = 3, .seed = 3, .fingers = true});
  demo::add_random_clip(rigs->source, "clip", 9, 0.6f, seconds, rate);
  rigs->target = demo::humanoid_rig({.spine_bones = 3,
                                     .height = 0.7f,
                                     .arm_length = 1.2f,
                                     .placement = glm::angleAxis(-1.5707964f, glm::vec3(1.f, 0.f, 0.f)),
                                     .unit = 100.f,
                                     .seed = 17,
                                     .fingers = true});
  rigs->map = std::make_unique<RetargetMap>(rigs->source, rigs->target);
  cache.emplace_back(std::pair{seconds, rate}, std::move(rigs));
  return *cache.back().second;
}

void per_joint(benchmark::State& state, double joints) {
  state.counters["ns_per_joint"] =
      benchmark::Counter(joints * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["joints"] = joints;
}

void retarget_frame(benchmark::State& state) {
  const RetargetPairOfRigs& rigs = humanoids(1.0, 30.0);
  const RetargetMap& map = *rigs.map;
  // A sampled pose of the source (any frame: the job's cost does not depend on the pose).
  std::vector<glm::mat4> locals(rigs.source.nodes.size());
  for (std::size_t n = 0; n < locals.size(); ++n) locals[n] = rigs.source.nodes[n].transform;
  for (const BoneTrack& track : rigs.source.animations[0].scene_clip.tracks) {
    const Keyframe& k = track.keys[track.keys.size() / 2];
    locals[static_cast<std::size_t>(track.bone_index)] = compose_trs(k.translation, k.rotation, k.scale);
  }
  std::vector<TrsBlock> source(pose_block_count(map.source_nodes().size())), target(pose_block_count(map.target_nodes().size()));
  map.gather_source(locals, source);
  RetargetContext context(map.rig());
  const RetargetJob job{.rig = &map.rig(), .context = &context, .source_pose = source, .target_pose = target};
  throw_if_invalid(job.validate(), "RetargetJob");
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(target.data());
    benchmark::ClobberMemory();
  }
  // Per joint of the 65-joint target rig (its nodes but the synthetic root and the armature);
  // the job's own joints (those it writes: the mapped ones and their ancestors) are fewer.
  per_joint(state, static_cast<double>(rigs.target.nodes.size() - 2));
  state.counters["job_joints"] = static_cast<double>(map.target_nodes().size());
}

// Sampling and composing the source rig's own clip, for scale.
void sample_compose_humanoid(benchmark::State& state) {
  const RetargetPairOfRigs& rigs = humanoids(1.0, 30.0);
  const Model& m = rigs.source;
  std::vector<glm::mat4> rest(m.nodes.size());
  std::vector<int> parents(m.nodes.size());
  for (std::size_t n = 0; n < m.nodes.size(); ++n) {
    rest[n] = m.nodes[n].transform;
    parents[n] = m.nodes[n].parent;
  }
  const RuntimeClip clip = compile_clip(m.animations[0].scene_clip, rest);
  SamplingContext context(clip);
  std::vector<TrsBlock> pose(pose_block_count(m.nodes.size()));
  std::vector<glm::mat4> models(m.nodes.size());
  Ticks time{};
  for (auto _ : state) {
    time = playback_time(time + Ticks{333'333}, clip.duration(), true);
    SamplingJob{&clip, time, &context, pose}.run();
    LocalToModelJob{.parents = parents, .local_pose = pose, .models = models}.run();
    benchmark::DoNotOptimize(models.data());
    benchmark::ClobberMemory();
  }
  per_joint(state, static_cast<double>(m.nodes.size() - 2));
}

void retarget_bake(benchmark::State& state) {
  const RetargetPairOfRigs& rigs = humanoids(30.0, 30.0);
  for (auto _ : state) {
    Model out = retarget_clips(rigs.source, rigs.target, *rigs.map);
    benchmark::DoNotOptimize(out.animations.data());
  }
  state.counters["target_joints"] = static_cast<double>(rigs.map->target_nodes().size());
}

// One Animator frame of the retargeted clip on the target, baked (its own keys) or live (the
// source sampled and retargeted each frame, live_retarget.hpp): what live retargeting costs.
void animator_update(benchmark::State& state, bool live) {
  const RetargetPairOfRigs& rigs = humanoids(1.0, 30.0);
  static const auto source = std::make_shared<const Model>(rigs.source);
  static const auto map = std::make_shared<const RetargetMap>(*source, rigs.target);
  static const Model baked = retarget_clips(*source, rigs.target, *map);
  static const Model played = retarget_live(source, rigs.target, map);
  Animator animator(live ? played : baked);
  animator.play("clip");
  for (auto _ : state) {
    animator.update(Ticks{166'667});
    benchmark::DoNotOptimize(animator.absolute_bone_transforms().data());
    benchmark::ClobberMemory();
  }
  per_joint(state, static_cast<double>(rigs.target.nodes.size() - 2));
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("retarget_frame/humanoid", guarded("retarget_frame", retarget_frame));
  benchmark::RegisterBenchmark("sample_compose/humanoid", guarded("sample_compose", sample_compose_humanoid));
  benchmark::RegisterBenchmark("retarget_bake/humanoid_30s", guarded("retarget_bake", retarget_bake))->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("animator_update_baked/humanoid", guarded("animator_update", animator_update, false));
  benchmark::RegisterBenchmark("animator_update_live/humanoid", guarded("animator_update", animator_update, true));
  return true;
}();

}  // namespace
}  // namespace marrow::bench
