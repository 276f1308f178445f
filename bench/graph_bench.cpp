// Animation graphs (issue 28) on perf/big_skinned.glb (200 joints), one character, +1/60 s a
// frame, the whole frame timed (GraphInstance::update: the graph's clocks and weights, then the
// Animator's sampling, blending, composition and palette):
//
//   graph_blend2d/big_skinned        a 2-D blend space of five clips (three weighted) under a
//                                    state machine
//   graph_blend2d_jobs/big_skinned   the baseline: the same three clips sampled and blended with
//                                    the jobs by hand, then composed and made a palette
//                                    (SamplingJob x3, BlendingJob, LocalToModelJob, SkinPaletteJob)
//   graph_single_clip/big_skinned    a graph that plays one clip
//   graph_inertialize/big_skinned    a frame inside an inertialized transition (one clip sampled,
//                                    the offsets decaying)
//   graph_crossfade/big_skinned      a frame inside a cross-fade (two clips sampled and blended)
//
// The five clips are the asset's clip with its key times stretched by 1, 1.13, 1.26, 1.39 and
// 1.52: five copies in memory, as five authored clips would be. Counter: ns_per_joint.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animation_graph.hpp"
#include "marrow/model/graph_instance.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"

namespace {

using namespace marrow;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

constexpr Ticks kFrame{166'667};
constexpr int kClips = 5;
// Where the blend space is sampled: inside the triangle of clips 0, 1 and 4.
constexpr float kTurn = 0.55f, kSpeed = 0.2f;

const Model& five_clips() {
  static const std::unique_ptr<const Model> model = [] {
    ModelFileOptions options;
    options.import.max_palette = 256;
    auto m = std::make_unique<Model>(load_model_file(shared_asset("perf/big_skinned.glb"), options));
    const ModelAnimation base = m->animations.at(0);
    SkinningData& skin = m->skins.at(0).data;
    const AnimationClip clip = skin.animation_clips.at(base.name);
    m->animations.clear();
    skin.animation_clips.clear();
    for (int k = 0; k < kClips; ++k) {
      const double stretch = 1.0 + 0.13 * k;
      AnimationClip c = clip;
      c.name = "c" + std::to_string(k);
      c.duration = Ticks{std::llround(static_cast<double>(clip.duration.count()) * stretch)};
      for (BoneTrack& track : c.tracks)
        for (Keyframe& key : track.keys) key.time = Ticks{std::llround(static_cast<double>(key.time.count()) * stretch)};
      ModelAnimation a = base;
      a.name = c.name;
      a.duration = c.duration;
      skin.animation_clips.emplace(c.name, c);
      m->animations.push_back(a);
    }
    return m;
  }();
  return *model;
}

GraphNode clip_node(const std::string& name) {
  GraphNode n;
  n.name = name;
  n.clip.clip = name;
  return n;
}

// A machine over the 2-D space "steer" and a single clip "c3", with a trigger each way.
GraphDescription bench_graph(const std::string& initial, GraphBlendMode blend) {
  GraphDescription g;
  g.parameters = {{"turn", GraphParameterType::Float, kTurn}, {"speed", GraphParameterType::Float, kSpeed},
                  {"go", GraphParameterType::Trigger, 0.f}};
  for (int k = 0; k < kClips; ++k) g.nodes.push_back(clip_node("c" + std::to_string(k)));
  GraphNode steer;
  steer.name = "steer";
  steer.kind = GraphNodeKind::Blend2d;
  steer.blend.parameters = {"turn", "speed"};
  steer.blend.samples = {{"c0", {0.f, 0.f}}, {"c1", {1.f, 0.f}}, {"c2", {0.f, 1.f}}, {"c3", {1.f, 1.f}}, {"c4", {0.5f, 0.5f}}};
  g.nodes.push_back(steer);
  GraphNode main;
  main.name = "main";
  main.kind = GraphNodeKind::StateMachine;
  main.state_machine.initial = initial;
  main.state_machine.states = {{"steering", "steer"}, {"single", "c3"}, {"other", "c2"}};
  // Transitions that last longer than any run: every timed frame is inside them.
  main.state_machine.transitions = {{.from = "single", .to = "other", .conditions = {{"go", GraphConditionOp::Trigger, 0.f}},
                                     .duration = 1e6f, .blend = blend},
                                    {.from = "steering", .to = "single", .conditions = {{"go", GraphConditionOp::Trigger, 0.f}},
                                     .duration = 1e6f, .blend = blend}};
  g.nodes.push_back(main);
  g.root = "main";
  return g;
}

void per_joint(benchmark::State& state, double joints) {
  state.counters["ns_per_joint"] =
      benchmark::Counter(joints * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void graph_frame(benchmark::State& state, std::string initial, bool transition, GraphBlendMode blend) {
  const Model& model = five_clips();
  const auto graph = std::make_shared<const AnimationGraph>(bench_graph(initial, blend), model);
  Animator animator(model);
  GraphInstance character(graph, animator);
  for (int i = 0; i < 10; ++i) character.update(kFrame);
  if (transition) {
    character.fire("go");
    character.update(kFrame);
  }
  for (auto _ : state) {
    character.update(kFrame);
    benchmark::DoNotOptimize(animator.player(0).skin_transforms().data());
    benchmark::ClobberMemory();
  }
  per_joint(state, static_cast<double>(model.skins[0].data.bone_count));
}

// The baseline: what the graph's frame does for three weighted clips, with the jobs by hand.
void jobs_frame(benchmark::State& state) {
  const Model& model = five_clips();
  const SkinningData& skin = model.skins[0].data;
  const auto joints = static_cast<std::size_t>(skin.bone_count);
  std::vector<float> weights(kClips);
  const BlendSpace2d space(std::vector<glm::vec2>{{0.f, 0.f}, {1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}, {0.5f, 0.5f}});
  space.weights({kTurn, kSpeed}, weights);
  std::vector<RuntimeClip> clips;
  std::vector<float> active;
  for (int k = 0; k < kClips; ++k) {
    if (weights[static_cast<std::size_t>(k)] <= 0.f) continue;
    clips.push_back(compile_clip(skin.animation_clips.at("c" + std::to_string(k)), skin));
    active.push_back(weights[static_cast<std::size_t>(k)]);
  }
  if (clips.size() != 3) throw std::runtime_error("the blend space weighs " + std::to_string(clips.size()) + " clips, not 3");
  std::vector<SamplingContext> contexts;
  std::vector<std::vector<TrsBlock>> poses(clips.size(), std::vector<TrsBlock>(pose_block_count(joints)));
  std::vector<BlendingLayer> layers;
  for (std::size_t c = 0; c < clips.size(); ++c) {
    contexts.emplace_back(clips[c]);
    layers.push_back(BlendingLayer{poses[c], active[c]});
  }
  std::vector<TrsBlock> rest(pose_block_count(joints)), blended(pose_block_count(joints));
  for (std::size_t j = 0; j < joints; ++j) set_pose_joint(rest, j, decompose_trs(skin.bind_pose[j]));
  std::vector<glm::mat4> models(joints), palette(joints);
  std::vector<Ticks> times(clips.size());
  for (auto _ : state) {
    for (std::size_t c = 0; c < clips.size(); ++c) {
      times[c] = playback_time(times[c] + kFrame, clips[c].duration(), true);
      SamplingJob{&clips[c], times[c], &contexts[c], poses[c]}.run();
    }
    BlendingJob{.layers = layers, .rest_pose = rest, .joint_count = joints, .output = blended}.run();
    LocalToModelJob compose;
    compose.parents = skin.skeleton_hierarchy;
    compose.local_pose = blended;
    compose.root_prefix = has_root_prefix(skin) ? std::span<const glm::mat4>(skin.skeleton_root_prefix) : std::span<const glm::mat4>();
    compose.models = models;
    compose.run();
    SkinPaletteJob{.models = models, .inverse_binds = skin.inverse_bind_pose, .palette = palette}.run();
    benchmark::DoNotOptimize(palette.data());
    benchmark::ClobberMemory();
  }
  per_joint(state, static_cast<double>(joints));
}

[[maybe_unused]] const bool registered = [] {
  const char* const file = "perf/big_skinned.glb";
  benchmark::RegisterBenchmark("graph_blend2d/big_skinned",
                               guarded(file, graph_frame, std::string("steering"), false, GraphBlendMode::Crossfade));
  benchmark::RegisterBenchmark("graph_blend2d_jobs/big_skinned", guarded(file, jobs_frame));
  benchmark::RegisterBenchmark("graph_single_clip/big_skinned",
                               guarded(file, graph_frame, std::string("single"), false, GraphBlendMode::Crossfade));
  benchmark::RegisterBenchmark("graph_inertialize/big_skinned",
                               guarded(file, graph_frame, std::string("single"), true, GraphBlendMode::Inertialize));
  benchmark::RegisterBenchmark("graph_crossfade/big_skinned",
                               guarded(file, graph_frame, std::string("single"), true, GraphBlendMode::Crossfade));
  return true;
}();

}  // namespace
