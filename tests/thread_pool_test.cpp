// X5: many instances posed in parallel give the results of one thread, bit for bit. CI runs
// these tests under ThreadSanitizer too (make test-tsan).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <vector>

#include "marrow/io/model_file.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/update_instances.hpp"
#include "marrow/runtime/thread_pool.hpp"

namespace marrow {
namespace {

template <class T>
bool same_bits(std::span<const T> a, std::span<const T> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Instances at spread times, on every animation of the model, stepped `frames` times.
std::vector<Animator> posed(const Model& model, const std::shared_ptr<const CompiledAnimations>& clips, ThreadPool* pool,
                            int frames) {
  std::vector<Animator> out;
  for (int i = 0; i < 64; ++i) {
    Animator& a = out.emplace_back(model, clips);
    if (!model.animations.empty()) a.play(i % static_cast<int>(model.animations.size()));
    a.update(Ticks{i * 1'234'567}, false);
  }
  for (int f = 0; f < frames; ++f) update_instances(out, Ticks{kTicksPerSecond / 60}, pool);
  return out;
}

void expect_identical(const Model& model, const std::vector<Animator>& a, const std::vector<Animator>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].current_time(), b[i].current_time());
    ASSERT_TRUE(same_bits(a[i].absolute_bone_transforms(), b[i].absolute_bone_transforms())) << "instance " << i;
    for (std::size_t s = 0; s < model.skins.size(); ++s) {
      ASSERT_TRUE(same_bits(a[i].player(s).skin_transforms(), b[i].player(s).skin_transforms())) << "instance " << i;
    }
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
      ASSERT_TRUE(same_bits(a[i].morph_weights(m), b[i].morph_weights(m))) << "instance " << i;
      for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
        ASSERT_TRUE(same_bits(a[i].vertex_bytes(m, p), b[i].vertex_bytes(m, p))) << "instance " << i;
      }
    }
  }
}

TEST(ThreadPool, X5_ParallelForVisitsEveryIndexExactlyOnce) {
  for (std::size_t threads : {1u, 2u, 3u, 8u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.thread_count(), threads);
    for (std::size_t count : {0u, 1u, 7u, 1000u}) {
      std::vector<std::atomic<int>> visits(count);
      pool.parallel_for(count, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) visits[i].fetch_add(1);
      });
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(visits[i].load(), 1) << i << " of " << count;
    }
  }
}

TEST(UpdateInstances, X5_ParallelPosesEqualOneThreadBitForBit) {
  const Model model = make_demo_character();  // skin, rigid clip, morph targets
  const auto clips = compile_animations(model);
  const auto single = posed(model, clips, nullptr, 20);
  for (std::size_t threads : {2u, 4u}) {
    ThreadPool pool(threads);
    expect_identical(model, single, posed(model, clips, &pool, 20));
  }
}

TEST(UpdateInstances, X5_CesiumManInParallelEqualsOneThread) {
  const std::filesystem::path file = std::filesystem::path(MARROW_SHARED_ASSETS) / "gltf/CesiumMan/cesium_man.gltf";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const Model model = load_model_file(file);
  const auto clips = compile_animations(model);
  ThreadPool pool(2);
  expect_identical(model, posed(model, clips, nullptr, 30), posed(model, clips, &pool, 30));
}

}  // namespace
}  // namespace marrow
