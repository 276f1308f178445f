// AnimationPlayer::update on synthetic skeletons: one 10 s clip keyed at 30 fps on every bone,
// played forward 1/60 s per iteration (the cursor fast path), looping.
//
// Counters: the iteration time is the cost of one frame; "bones/s" is bones updated per second,
// so ns per bone = 1e9 / bones/s.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>

#include "bench_guard.hpp"
#include "marrow/runtime/animation_player.hpp"
#include "marrow/core/ticks.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/runtime/skinning_data.hpp"

namespace {

constexpr int kKeysPerSecond = 30;
constexpr int kClipSeconds = 10;
constexpr marrow::Ticks kFrameStep{marrow::kTicksPerSecond / 60};

glm::quat random_rotation(std::mt19937& rng) {
  std::normal_distribution<float> g(0.f, 1.f);
  return glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
}

glm::vec3 random_vec3(std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  return {u(rng), u(rng), u(rng)};
}

// A binary tree (parent = (i - 1) / 2, so parents precede children) with random bind TRS and
// its exact inverse bind matrices, plus one clip with a smooth random track on every bone.
marrow::SkinningData make_skeleton(int bones) {
  std::mt19937 rng(12345u + static_cast<unsigned>(bones));
  marrow::SkinningData data;
  data.bone_count = bones;
  std::vector<glm::mat4> world(static_cast<std::size_t>(bones));
  for (int i = 0; i < bones; ++i) {
    const int parent = i == 0 ? -1 : (i - 1) / 2;
    const glm::mat4 local =
        marrow::compose_trs(random_vec3(rng, -1.f, 1.f), random_rotation(rng), random_vec3(rng, 0.8f, 1.2f));
    world[static_cast<std::size_t>(i)] = parent < 0 ? local : world[static_cast<std::size_t>(parent)] * local;
    data.skeleton_hierarchy.push_back(parent);
    data.bind_pose.push_back(local);
    data.inverse_bind_pose.push_back(glm::inverse(world[static_cast<std::size_t>(i)]));
  }

  marrow::AnimationClip clip;
  clip.name = "synthetic";
  clip.duration = marrow::Ticks{kClipSeconds * marrow::kTicksPerSecond};
  std::uniform_real_distribution<float> freq(0.1f, 1.5f);
  std::uniform_real_distribution<float> phase(0.f, 6.2831853f);
  for (int b = 0; b < bones; ++b) {
    // Sinusoids of random frequency and phase around a random rest TRS: smooth key to key.
    const glm::vec3 t0 = random_vec3(rng, -1.f, 1.f);
    const glm::quat r0 = random_rotation(rng);
    const glm::vec3 axis = glm::normalize(random_vec3(rng, -1.f, 1.f) + glm::vec3(0.f, 0.f, 1e-3f));
    const float ft = freq(rng), fr = freq(rng), fs = freq(rng), pt = phase(rng), pr = phase(rng), ps = phase(rng);
    marrow::BoneTrack track;
    track.bone_index = b;
    for (int k = 0; k <= kClipSeconds * kKeysPerSecond; ++k) {
      const float s = static_cast<float>(k) / kKeysPerSecond;
      marrow::Keyframe key;
      key.time = marrow::ticks_from_seconds(static_cast<double>(k) / kKeysPerSecond);
      key.translation = t0 + 0.2f * std::sin(ft * 6.2831853f * s + pt) * glm::vec3(1.f, 0.5f, 0.25f);
      key.rotation = glm::normalize(glm::angleAxis(0.8f * std::sin(fr * 6.2831853f * s + pr), axis) * r0);
      key.scale = glm::vec3(1.f + 0.1f * std::sin(fs * 6.2831853f * s + ps));
      track.keys.push_back(key);
    }
    clip.tracks.push_back(std::move(track));
  }
  data.animation_clips.emplace(clip.name, std::move(clip));
  return data;
}

void BM_PlayerUpdate(benchmark::State& state) {
  const int bones = static_cast<int>(state.range(0));
  const marrow::SkinningData data = make_skeleton(bones);
  marrow::AnimationPlayer player(data);
  player.start_clip(data.animation_clips.at("synthetic"));
  for (auto _ : state) {
    player.update(kFrameStep, /*relative_to_current_time=*/true, /*loop=*/true);
    benchmark::DoNotOptimize(player.skin_transforms().data());
    benchmark::ClobberMemory();
  }
  state.counters["bones/s"] = benchmark::Counter(bones, benchmark::Counter::kIsIterationInvariantRate);
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("BM_PlayerUpdate",
                               marrow::bench::guarded("AnimationPlayer on a synthetic skeleton", BM_PlayerUpdate))
      ->Arg(32)
      ->Arg(80)
      ->Arg(256);
  return true;
}();

}  // namespace
