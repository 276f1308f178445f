// RootMotionTrack (model/root_motion.hpp), R1 at the track: its places between keys, and the memo
// a playing clip keeps, which saves samples and never changes a result.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/quaternion.hpp>
#include <gtest/gtest.h>

#include "marrow/model/root_motion.hpp"
#include "marrow/runtime/playback_clock.hpp"

namespace {

using namespace marrow;

// A root that walks and turns at uneven speeds: 41 keys over 2 s, more than a whole turn.
std::vector<Keyframe> wandering_keys() {
  std::vector<Keyframe> keys;
  for (int k = 0; k <= 40; ++k) {
    const float s = 0.05f * static_cast<float>(k);
    Keyframe key;
    key.time = ticks_from_seconds(static_cast<double>(s));
    key.translation = {std::sin(3.f * s), 0.9f + 0.05f * std::cos(5.f * s), 1.5f * s};
    key.rotation = glm::angleAxis(4.f * s + 0.3f * std::sin(7.f * s), glm::vec3(0.f, 1.f, 0.f)) *
                   glm::angleAxis(0.2f * std::sin(2.f * s), glm::vec3(1.f, 0.f, 0.f));
    keys.push_back(key);
  }
  return keys;
}

TEST(RootMotionTrack, R1_APlaceBetweenKeysIsTheLerpOfThePositionsAndTheYawUnwrapped) {
  const std::vector<Keyframe> keys = wandering_keys();
  const glm::mat4 parent = glm::translate(glm::mat4(1.f), glm::vec3(0.f, 0.f, 2.f)) * glm::scale(glm::mat4(1.f), glm::vec3(0.01f));
  const RootMotionTrack track(keys, Trs{}, parent);
  TrackCursor cursor;
  // Held before the first key and after the last.
  EXPECT_EQ(track.place(Ticks{-5}, cursor).position, track.place(Ticks{0}, cursor).position);
  const RootPlace end = track.place(keys.back().time, cursor);
  EXPECT_EQ(track.place(keys.back().time + Ticks{1'000'000}, cursor).yaw, end.yaw);
  // Halfway between keys 10 and 11: the ground positions' midpoint; the yaw between theirs.
  const Ticks mid = keys[10].time + (keys[11].time - keys[10].time) / 2;
  const RootPlace a = track.place(keys[10].time, cursor), b = track.place(keys[11].time, cursor), m = track.place(mid, cursor);
  EXPECT_NEAR(glm::distance(m.position, 0.5f * (a.position + b.position)), 0.f, 1e-6f);
  EXPECT_EQ(m.position.y, 0.f);
  EXPECT_GT(m.yaw, std::min(a.yaw, b.yaw));
  EXPECT_LT(m.yaw, std::max(a.yaw, b.yaw));
  // Unwrapped: the whole 8.3 radians of the clip's twist about +Y, not folded into (-pi, pi].
  EXPECT_NEAR(end.yaw - track.place(Ticks{0}, cursor).yaw, 8.f + 0.3f * std::sin(14.f), 1e-4f);
}

// The up axis names the ground and the yaw's axis: a track in a scene turned so that +Y goes to
// `up`, read with that up, gives the places of the unturned scene read with +Y, turned the same
// way; the yaw moves by the same angles.
TEST(RootMotionTrack, R1_TheUpAxisChoosesTheGroundAndTheYawAxis) {
  const std::vector<Keyframe> keys = wandering_keys();
  const RootMotionTrack y_up(keys, Trs{}, glm::mat4(1.f));
  for (const glm::vec3& up : {glm::vec3(0.f, 0.f, 1.f), glm::vec3(-1.f, 0.f, 0.f), glm::normalize(glm::vec3(1.f, 2.f, -3.f)),
                              glm::vec3(0.f, -1.f, 0.f)}) {
    const glm::quat turn = glm::dot(up, glm::vec3(0.f, 1.f, 0.f)) < -0.5f ? glm::angleAxis(glm::radians(180.f), glm::vec3(0.f, 0.f, 1.f))
                                                                          : glm::rotation(glm::vec3(0.f, 1.f, 0.f), up);
    const RootMotionTrack turned(keys, Trs{}, glm::mat4_cast(turn), up);
    TrackCursor a, b;
    // The yaw's zero is where the turn to +Y puts it; what is reported, the yaw since a time, is the same.
    const float p0 = y_up.place(Ticks{0}, a).yaw, q0 = turned.place(Ticks{0}, b).yaw;
    for (int i = 0; i <= 50; ++i) {
      const Ticks t = ticks_from_seconds(0.041 * i);
      const RootPlace p = y_up.place(t, a), q = turned.place(t, b);
      EXPECT_LT(glm::distance(q.position, turn * p.position), 2e-6f) << up.x << " " << up.y << " " << up.z << " at " << i;
      EXPECT_NEAR(glm::dot(q.position, up), 0.f, 2e-6f) << "on the ground";
      EXPECT_NEAR(q.yaw - q0, p.yaw - p0, 2e-5f) << up.x << " " << up.y << " " << up.z << " at " << i;
    }
  }
}

TEST(RootMotionTrack, R1_TheMemoNeverChangesTheMotion) {
  const std::vector<Keyframe> keys = wandering_keys();
  const RootMotionTrack track(keys, Trs{}, glm::mat4(1.f)), other(keys, Trs{}, glm::mat4(1.f));
  const Ticks duration = keys.back().time;
  PlaybackClock clock(duration, 1.f, LoopMode::Loop);
  RootMotionMemo memo;
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> frames(0, 45);
  std::uniform_int_distribution<int> pick(0, 9);
  for (int step = 0; step < 2000; ++step) {
    // Mostly frames forward; sometimes backward, a seek, or a whole cycle and more.
    const int kind = pick(rng);
    if (kind == 0) clock.set_rate(-clock.rate());
    if (kind == 1) clock.seek(Ticks{static_cast<std::int64_t>(rng() % static_cast<std::uint32_t>(duration.count()))});
    const Ticks dt = kind == 2 ? duration + ticks_from_seconds(0.3) : ticks_from_seconds(static_cast<double>(frames(rng)) / 60.0);
    const ClockStep s = clock.advance(dt);
    RootMotionMemo fresh;
    const RootMotion with = track.along(s, memo), without = track.along(s, fresh);
    ASSERT_EQ(with.translation, without.translation) << step;
    ASSERT_EQ(with.yaw, without.yaw) << step;
    const RootMotion since = track.since_start(clock.time(), memo), since_fresh = track.since_start(clock.time(), RootMotionMemo{});
    ASSERT_EQ(since.translation, since_fresh.translation) << step;
    ASSERT_EQ(since.yaw, since_fresh.yaw) << step;
  }
  // A memo of another track is not read: it is started again.
  const RootPlace p = other.place(clock.time(), memo);
  EXPECT_EQ(memo.track, &other);
  TrackCursor cursor;
  EXPECT_EQ(p.yaw, other.place(clock.time(), cursor).yaw);
}

}  // namespace
