// Every SIMD level's kernels are tested on every host (simd_level.hpp): natively where the
// processor has the level, else through SIMDe. These tests check the coverage itself, and that
// the emulated copies compute what the native ones do, so that an emulated pass stands for a
// native one on processors the suite never ran on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "demo/demo_character.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/model/model.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "shared_assets.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;

TEST(SimdLevels, X3_EveryLevelRunsHereNativelyOrEmulated) {
  const std::vector<SimdChoice> choices = runnable_simd_choices();
  for (const SimdLevel level : {SimdLevel::Sse2, SimdLevel::Avx2, SimdLevel::Avx512}) {
    const bool covered = std::any_of(choices.begin(), choices.end(), [&](const SimdChoice& c) { return c.level == level; });
    EXPECT_TRUE(covered) << to_string(level) << " runs in no test here: the processor lacks it and this build has no "
                         << "emulated kernels (configure with -DMARROW_SIMD_EMULATION=ON)";
  }
  // A choice is what it says: set, it is in force; SSE2 is never emulated.
  const SimdChoice saved = simd_choice();
  for (const SimdChoice& c : choices) EXPECT_EQ(set_simd_choice(c), c) << to_string(c);
  EXPECT_EQ(set_simd_choice({SimdLevel::Sse2, true}), (SimdChoice{SimdLevel::Sse2, false}));
  set_simd_choice(saved);
}

// One instance's frame through every kernel family: sampling (compiled or compressed clips),
// blending of two layers, an inertialized switch, composing, palettes, CPU skinning with normals.
struct Frame {
  std::vector<glm::mat4> bones;
  std::vector<glm::vec3> positions, normals;
};

std::vector<Frame> play(const Model& model, int clips) {
  std::vector<Frame> frames;
  Animator a(model);
  for (int clip = 0; clip < clips; ++clip) {
    a.play(clip);
    if (clips > 1) {
      a.play((clip + 1) % clips, {.layer = 1});
      a.set_layer_weight(1, 0.4f);
    }
    for (int step = 0; step < 18; ++step) {
      // Then an inertialized switch (AG4) to the pose at 0.2 s, relaxing over 0.5 s.
      if (step == 12) a.inertialize(ticks_from_seconds(0.5));
      if (step < 12) {
        a.update(ticks_from_seconds(0.037 * step), false);
      } else {
        a.update(ticks_from_seconds(step == 12 ? 0.2 : 0.05), step > 12);
      }
      Frame f;
      const auto bones = a.absolute_bone_transforms();
      f.bones.assign(bones.begin(), bones.end());
      for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
          const std::size_t n = model.meshes[m].parts[p].vertex_count();
          std::vector<glm::vec3> pos(n), nrm(n);
          a.pose_part(m, p, pos, model.meshes[m].parts[p].layout.has(VertexAttribute::Normal) ? std::span<glm::vec3>(nrm) : std::span<glm::vec3>());
          f.positions.insert(f.positions.end(), pos.begin(), pos.end());
          f.normals.insert(f.normals.end(), nrm.begin(), nrm.end());
        }
      }
      frames.push_back(std::move(f));
    }
  }
  return frames;
}

float largest_difference(const std::vector<Frame>& a, const std::vector<Frame>& b) {
  float worst = 0.f;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < a[i].bones.size(); ++j) {
      for (int c = 0; c < 4; ++c) worst = std::max(worst, glm::length(a[i].bones[j][c] - b[i].bones[j][c]));
    }
    for (std::size_t v = 0; v < a[i].positions.size(); ++v) {
      worst = std::max({worst, glm::length(a[i].positions[v] - b[i].positions[v]), glm::length(a[i].normals[v] - b[i].normals[v])});
    }
  }
  return worst;
}

// The models: the built-in character, and the Fox and CesiumMan when the shared assets are
// here, each with its clips as imported and compressed (1 mm).
std::vector<std::pair<std::string, Model>> models() {
  std::vector<std::pair<std::string, Model>> out;
  out.emplace_back("demo", make_demo_character());
  for (const char* file : {"gltf/Fox/Fox.gltf", "gltf/CesiumMan/cesium_man.gltf"}) {
    if (fs::exists(test::kAssets / file)) out.emplace_back(file, load_model_file(test::kAssets / file));
  }
  const std::size_t plain = out.size();
  for (std::size_t i = 0; i < plain; ++i) {
    Model compressed = out[i].second;
    ClipCompression options;
    options.tolerance = 1e-3f;
    compress_model_clips(compressed, options);
    out.emplace_back(out[i].first + " compressed", std::move(compressed));
  }
  return out;
}

// Each copy gives SSE2's frames within float rounding (the scalar-order reference level), and an
// emulated copy gives its native twin's where the processor has the level.
TEST(SimdLevels, X1_S1_EveryCopyPlaysTheFramesOfTheOthers) {
  const SimdChoice saved = simd_choice();
  for (const auto& [name, model] : models()) {
    SCOPED_TRACE(name);
    const int clips = static_cast<int>(std::min<std::size_t>(3, model.animations.size()));
    ASSERT_GT(clips, 0);
    set_simd_level(SimdLevel::Sse2);
    const std::vector<Frame> reference = play(model, clips);
    float size = 0.f;
    for (const Frame& f : reference) {
      for (const glm::vec3& p : f.positions) size = std::max(size, glm::length(p));
    }
    std::vector<std::pair<SimdChoice, std::vector<Frame>>> played;
    for (const SimdChoice& c : runnable_simd_choices()) {
      set_simd_choice(c);
      played.emplace_back(c, play(model, clips));
      EXPECT_LE(largest_difference(played.back().second, reference), 2e-5f * std::max(1.f, size)) << to_string(c) << " against sse2";
    }
    for (const auto& [emulated, frames] : played) {
      if (!emulated.emulated) continue;
      for (const auto& [native, twin] : played) {
        if (native.emulated || native.level != emulated.level) continue;
        EXPECT_LE(largest_difference(frames, twin), 2e-5f * std::max(1.f, size)) << to_string(emulated) << " against native";
      }
    }
  }
  set_simd_choice(saved);
}

}  // namespace
}  // namespace marrow
