// The one track sampler: its cursor must never change a result (P6), whatever the time sequence.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "marrow/runtime/track_sampler.hpp"
#include "marrow/core/slerp.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

// The seed's rule written the slow, obvious way: a linear scan for the bracketing keys.
Trs linear_search_sample(const std::vector<Keyframe>& keys, Ticks t) {
  std::size_t k = 0;  // the last key at or before t (half-open intervals), 0 before the first
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].time <= t) k = i;
  }
  const Keyframe& a = keys[k];
  if (k + 1 == keys.size() || t <= a.time) return Trs{a.translation, a.rotation, a.scale};  // hold
  const Keyframe& b = keys[k + 1];
  const float p = static_cast<float>((t - a.time).count()) / static_cast<float>((b.time - a.time).count());
  return interpolate_keys(a, b, p);
}

std::vector<Keyframe> random_track(std::mt19937& rng, int count, bool duplicates) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> gap(duplicates ? 0 : 1, 2000);
  std::vector<Keyframe> keys;
  Ticks t{std::uniform_int_distribution<int>(-500, 500)(rng)};
  for (int i = 0; i < count; ++i) {
    Keyframe k;
    k.time = t;
    k.translation = {u(rng), u(rng), u(rng)};
    k.rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    k.scale = {1 + u(rng) * 0.5f, 1 + u(rng) * 0.5f, 1 + u(rng) * 0.5f};
    keys.push_back(k);
    t += Ticks{gap(rng)};
  }
  return keys;
}

bool identical(const Trs& a, const Trs& b) {
  return a.translation == b.translation && a.scale == b.scale && a.rotation.x == b.rotation.x &&
         a.rotation.y == b.rotation.y && a.rotation.z == b.rotation.z && a.rotation.w == b.rotation.w;
}

void check_sequence(const std::vector<Keyframe>& keys, const std::vector<Ticks>& times) {
  TrackCursor cursor;
  for (Ticks t : times) {
    const Trs fast = sample_track(keys, t, cursor);
    const Trs slow = linear_search_sample(keys, t);
    ASSERT_TRUE(identical(fast, slow)) << "at t = " << t.count() << " with " << keys.size() << " keys";
  }
}

TEST(TrackSampler, P6_CursorMatchesLinearSearchPlayingForward) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    const auto keys = random_track(rng, 1 + trial % 40, trial % 3 == 0);
    std::vector<Ticks> times;
    Ticks t = keys.front().time - Ticks{300};
    const Ticks end = keys.back().time + Ticks{300};
    while (t < end) {
      times.push_back(t);
      t += Ticks{std::uniform_int_distribution<int>(0, 700)(rng)};
    }
    check_sequence(keys, times);
  }
}

TEST(TrackSampler, P6_CursorMatchesLinearSearchBackwardAndJumping) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 200; ++trial) {
    const auto keys = random_track(rng, 1 + trial % 60, trial % 2 == 0);
    const Ticks lo = keys.front().time - Ticks{1000}, hi = keys.back().time + Ticks{1000};
    std::uniform_int_distribution<std::int64_t> any(lo.count(), hi.count());
    std::vector<Ticks> times;
    // Backward sweep, then random jumps, including exact key times.
    for (Ticks t = hi; t > lo; t -= Ticks{std::uniform_int_distribution<int>(1, 900)(rng)}) times.push_back(t);
    for (int i = 0; i < 300; ++i) {
      times.push_back(i % 4 == 0 ? keys[static_cast<std::size_t>(i) % keys.size()].time : Ticks{any(rng)});
    }
    check_sequence(keys, times);
  }
}

TEST(TrackSampler, P6_HalfOpenIntervalLaterDuplicateKeyWins) {
  std::vector<Keyframe> keys = {Keyframe{Ticks{0}, glm::vec3(0)}, Keyframe{Ticks{10}, glm::vec3(1)},
                                Keyframe{Ticks{10}, glm::vec3(5)}, Keyframe{Ticks{20}, glm::vec3(7)}};
  EXPECT_EQ(sample_track(keys, Ticks{10}).translation, glm::vec3(5));
  EXPECT_EQ(sample_track(keys, Ticks{15}).translation, glm::vec3(6));
  EXPECT_EQ(sample_track(keys, Ticks{5}).translation, glm::vec3(0.5f));
}

TEST(TrackSampler, P6_InterpolateKeysLerpsAndSlerps) {
  Keyframe a{Ticks{0}, glm::vec3(0, 2, 4)}, b{Ticks{10}, glm::vec3(2, 2, 0)};
  a.scale = glm::vec3(1.f);
  b.scale = glm::vec3(3.f, 1.f, 0.f);
  a.rotation = glm::angleAxis(0.2f, glm::vec3(0, 1, 0));
  b.rotation = -glm::angleAxis(1.0f, glm::vec3(0, 1, 0));  // -q: still the short way
  const Trs mid = interpolate_keys(a, b, 0.25f);
  EXPECT_TRUE(test::near(mid.translation, {0.5f, 2, 3}));
  EXPECT_TRUE(test::near(mid.scale, {1.5f, 1, 0.75f}));
  EXPECT_TRUE(test::same_rotation(mid.rotation, glm::angleAxis(0.4f, glm::vec3(0, 1, 0)), 1e-6f));
  EXPECT_TRUE(test::same_rotation(mid.rotation, slerp_shortest(a.rotation, b.rotation, 0.25f), 1e-6f));
  const Trs at_a = interpolate_keys(a, b, 0.f);
  EXPECT_EQ(at_a.rotation, a.rotation);
  EXPECT_EQ(at_a.translation, a.translation);
}

TEST(TrackSampler, P6_ForwardPlaybackStaysOnTheCursor) {
  std::vector<Keyframe> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(Keyframe{Ticks{i * 100}, glm::vec3(static_cast<float>(i))});
  TrackCursor cursor;
  for (int frame = 0; frame < 1000; ++frame) {
    const std::size_t k = find_key(keys, Ticks{frame * 100 + 50}, cursor);
    ASSERT_EQ(k, static_cast<std::size_t>(frame));
    ASSERT_EQ(cursor.key, k);
  }
}

}  // namespace
}  // namespace marrow
