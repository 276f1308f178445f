// A game's frame with layers (issue 10) on perf/big_skinned.glb (200 joints), next to the
// single clip:
//
//   layered_frame/big_skinned   the job pipeline: three SamplingJobs (two normal layers at
//                               0.3 / 0.7, and the clip's additive form compiled once with
//                               compile_additive_clip, at 0.5), BlendingJob, LocalToModelJob, a
//                               two-bone IK chain (TwoBoneIkJob, rotate_joint, LocalToModelJob
//                               from the chain), SkinPaletteJob; one instance, +1/60 s a frame
//   single_frame/big_skinned    the same pipeline with one clip and no blend or IK (what
//                               sample_compose_skin measures)
//   animator_layered/big_skinned  the Animator (the instance API) with the same layers and a
//                               two-bone IK chain; animator_single/big_skinned: one clip
//   palette_export/big_skinned  Animator::write_palette, 200 joints as 3x4 row-major floats (S6)
//   frame_bounds/big_skinned    Animator::bounds after an update: the box of every posed vertex
//                               from the per-joint boxes (S5; target under 2 us a frame)
//   frame_bounds_at_load/big_skinned  make_frame_bounds: the load-time walk over ~100k skinned
//                               vertices that makes the per-joint boxes (part of every import)
//
// Counter: ns_per_joint (the skeleton's joints).
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/runtime/additive_pose.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"
#include "marrow/runtime/two_bone_ik_job.hpp"

namespace {

using namespace std::chrono_literals;

using namespace marrow;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

constexpr Ticks kFrame{kTicksPerSecond / 60};

struct Rig {
  Model model;
  const SkinningData* skin = nullptr;
  RuntimeClip clip, additive;
  std::vector<TrsBlock> rest;
  int start = -1, mid = -1, end = -1;  // a chain parent -> child -> grandchild, deep in the tree
};

std::unique_ptr<Rig> load_rig() {
  auto r = std::make_unique<Rig>();
  ModelFileOptions options;
  options.import.max_palette = 256;
  r->model = load_model_file(shared_asset("perf/big_skinned.glb"), options);
  r->skin = &r->model.skins.at(0).data;
  const AnimationClip& authored = r->skin->animation_clips.begin()->second;
  r->clip = compile_clip(authored, *r->skin);
  const std::size_t n = r->clip.joint_count();
  r->additive = compile_additive_clip(make_additive_clip(authored, clip_reference_pose(authored, r->skin->bind_pose)), n);
  r->rest.resize(pose_block_count(n));
  for (std::size_t j = 0; j < n; ++j) set_pose_joint(r->rest, j, decompose_trs(r->skin->bind_pose[j]));
  const std::vector<int>& parents = r->skin->skeleton_hierarchy;
  for (std::size_t j = n; j-- > 0;) {  // the last joint with a grandparent: a leaf's chain
    const int p = parents[j];
    if (p >= 0 && parents[static_cast<std::size_t>(p)] >= 0) {
      r->end = static_cast<int>(j), r->mid = p, r->start = parents[static_cast<std::size_t>(p)];
      break;
    }
  }
  return r;
}

// Loaded once per process. A load that throws leaves nothing behind: the next benchmark loads
// (and reports) again.
const Rig& rig() {
  static const std::unique_ptr<Rig> r = load_rig();
  return *r;
}

void set_counters(benchmark::State& state, double joints) {
  state.counters["ns_per_joint"] =
      benchmark::Counter(joints * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void job_frame(benchmark::State& state, bool layered) {
  const Rig& r = rig();
  const std::size_t n = r.clip.joint_count();
  const SkinningData& skin = *r.skin;
  SamplingContext contexts[3] = {SamplingContext(n), SamplingContext(n), SamplingContext(n)};
  std::vector<TrsBlock> poses[3], blended(pose_block_count(n));
  for (auto& p : poses) p.resize(pose_block_count(n));
  std::vector<glm::mat4> models(n), palette(n);
  const Ticks d = r.clip.duration();
  Ticks times[3] = {Ticks{0}, Ticks{d.count() / 3}, Ticks{2 * d.count() / 3}};
  const glm::vec3 target(0.f, 50.f, 20.f);
  for (auto _ : state) {
    for (Ticks& t : times) t = playback_time(t + kFrame, d, true);
    const int sources = layered ? 3 : 1;
    for (int i = 0; i < sources; ++i) SamplingJob{i == 2 ? &r.additive : &r.clip, times[i], &contexts[i], poses[i]}.run();
    std::span<const TrsBlock> local = poses[0];
    if (layered) {
      const BlendingLayer normal[] = {{poses[0], 0.3f, {}}, {poses[1], 0.7f, {}}};
      const BlendingLayer additive[] = {{poses[2], 0.5f, {}}};
      BlendingJob{normal, additive, r.rest, n, 0.1f, blended}.run();
      local = blended;
    }
    LocalToModelJob compose;
    compose.parents = skin.skeleton_hierarchy;
    compose.local_pose = local;
    compose.root_prefix = has_root_prefix(skin) ? std::span<const glm::mat4>(skin.skeleton_root_prefix) : std::span<const glm::mat4>();
    compose.models = models;
    compose.run();
    if (layered) {
      glm::quat start_correction, mid_correction;
      TwoBoneIkJob ik;
      ik.start = &models[static_cast<std::size_t>(r.start)];
      ik.mid = &models[static_cast<std::size_t>(r.mid)];
      ik.end = &models[static_cast<std::size_t>(r.end)];
      ik.target = target;
      ik.start_correction = &start_correction;
      ik.mid_correction = &mid_correction;
      ik.run();
      rotate_joint(blended, static_cast<std::size_t>(r.start), start_correction);
      rotate_joint(blended, static_cast<std::size_t>(r.mid), mid_correction);
      compose.from = static_cast<std::size_t>(r.start);
      compose.run();
    }
    SkinPaletteJob{models, skin.inverse_bind_pose, {}, nullptr, palette, {}}.run();
    benchmark::DoNotOptimize(palette.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(n));
}

void animator_frame(benchmark::State& state, bool layered) {
  const Rig& r = rig();
  Animator a(r.model);
  a.play(0);
  if (layered) {
    a.set_layer_weight(0, 0.3f);
    a.set_layer(1, {.weight = 0.7f, .mask = "", .additive = false});
    a.play(0, {.start = 3s, .layer = 1});
    a.set_layer(2, {.weight = 0.5f, .mask = "", .additive = true});
    a.play(0, {.start = 6s, .layer = 2});
    const auto node = [&](int joint) { return r.model.nodes[static_cast<std::size_t>(r.model.skins[0].palette_to_scene[static_cast<std::size_t>(joint)])].name; };
    const std::size_t chain = a.add_two_bone_ik(node(r.start), node(r.mid), node(r.end));
    a.set_two_bone_ik(chain, {0.f, 50.f, 20.f});
  }
  for (auto _ : state) {
    a.update(kFrame);
    benchmark::DoNotOptimize(a.player(0).skin_transforms().data());
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(r.clip.joint_count()));
}

void palette_export(benchmark::State& state) {
  const Rig& r = rig();
  Animator a(r.model);
  a.play(0);
  a.update(kFrame);
  std::vector<float> gpu(r.clip.joint_count() * 12);
  for (auto _ : state) {
    a.write_palette(0, PaletteFormat::RowMajor3x4, gpu);
    benchmark::DoNotOptimize(gpu.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(r.clip.joint_count()));
}

void frame_bounds(benchmark::State& state) {
  const Rig& r = rig();
  Animator a(r.model);
  a.play(0);
  a.update(kFrame);
  for (auto _ : state) {
    BoundingBox box = a.bounds();
    benchmark::DoNotOptimize(box);
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<double>(r.clip.joint_count()));
}

void frame_bounds_at_load(benchmark::State& state) {
  const Rig& r = rig();
  for (auto _ : state) {
    FrameBounds bounds = make_frame_bounds(r.model);
    benchmark::DoNotOptimize(bounds.skins.data());
  }
}

[[maybe_unused]] const bool registered = [] {
  const char* const file = "perf/big_skinned.glb";
  benchmark::RegisterBenchmark("palette_export/big_skinned", guarded(file, palette_export));
  benchmark::RegisterBenchmark("frame_bounds/big_skinned", guarded(file, frame_bounds));
  benchmark::RegisterBenchmark("frame_bounds_at_load/big_skinned", guarded(file, frame_bounds_at_load));
  benchmark::RegisterBenchmark("layered_frame/big_skinned", guarded(file, job_frame, true));
  benchmark::RegisterBenchmark("single_frame/big_skinned", guarded(file, job_frame, false));
  benchmark::RegisterBenchmark("animator_layered/big_skinned", guarded(file, animator_frame, true));
  benchmark::RegisterBenchmark("animator_single/big_skinned", guarded(file, animator_frame, false));
  return true;
}();

}  // namespace
