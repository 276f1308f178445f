// B5 (rate and loop modes) and B7 (markers reached in order) on the clock every playback
// path uses (playback_clock.hpp, clip_markers.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "marrow/runtime/clip_markers.hpp"
#include "marrow/runtime/playback_clock.hpp"

namespace marrow {
namespace {

constexpr Ticks kD{1000};

std::vector<std::uint32_t> reached(const std::vector<Ticks>& markers, const ClockStep& step) {
  std::vector<std::uint32_t> out(64);
  out.resize(std::min<std::size_t>(markers_reached(markers, step, out), out.size()));
  return out;
}

TEST(PlaybackClock, B5_LoopWrapsByFloorModuloAtAnyRate) {
  PlaybackClock clock(kD, 1.f, LoopMode::Loop);
  clock.advance(Ticks{700});
  EXPECT_EQ(clock.time(), Ticks{700});
  clock.advance(Ticks{700});
  EXPECT_EQ(clock.time(), Ticks{400});   // 1400 mod 1000
  clock.set_rate(-2.f);                  // signed rate: backward, twice as fast
  clock.advance(Ticks{300});
  EXPECT_EQ(clock.time(), Ticks{800});   // 400 - 600 = -200 -> 800
  clock.set_rate(0.5f);
  clock.advance(Ticks{3});
  EXPECT_EQ(clock.time(), Ticks{802});   // 1.5 ticks rounds to nearest even (2)
  EXPECT_FALSE(clock.finished());        // a loop never finishes
  clock.advance(Ticks{2000 * 1000 + 396});
  EXPECT_EQ(clock.time(), Ticks{0});     // exactly on the seam: 0
}

TEST(PlaybackClock, B5_OnceClampsAndReportsFinishedInThePlayDirection) {
  PlaybackClock forward(kD, 1.f, LoopMode::Once);
  EXPECT_FALSE(forward.advance(Ticks{999}).finished);
  EXPECT_TRUE(forward.advance(Ticks{5}).finished);
  EXPECT_EQ(forward.time(), kD);
  EXPECT_TRUE(forward.finished());
  forward.advance(Ticks{-100});          // scrubbing back under a positive rate: not finished
  EXPECT_FALSE(forward.finished());
  EXPECT_EQ(forward.time(), Ticks{900});

  PlaybackClock backward(kD, -1.f, LoopMode::Once, kD);
  EXPECT_FALSE(backward.finished());
  backward.advance(Ticks{400});
  EXPECT_EQ(backward.time(), Ticks{600});
  EXPECT_TRUE(backward.advance(Ticks{601}).finished);
  EXPECT_EQ(backward.time(), Ticks{0});
  // Starting at 0 with a negative rate: already at its end.
  EXPECT_TRUE(PlaybackClock(kD, -1.f, LoopMode::Once).finished());
}

// The in-place forms (what a graph's clip slots use every frame) give the step the returning
// forms give, whatever the step held before; copy_step copies what a reader reads.
TEST(PlaybackClock, B5_AStepWrittenInPlaceIsTheStepReturned) {
  const auto same = [](const ClockStep& a, const ClockStep& b) {
    if (a.run_count != b.run_count || a.finished != b.finished) return false;
    for (std::size_t r = 0; r < a.run_count; ++r) {
      const ClockRun &x = a.runs[r], &y = b.runs[r];
      if (x.from != y.from || x.to != y.to || x.include_from != y.include_from || x.round_trip != y.round_trip || x.repeat != y.repeat)
        return false;
    }
    return true;
  };
  for (const LoopMode mode : {LoopMode::Loop, LoopMode::Once, LoopMode::PingPong}) {
    PlaybackClock returning(kD, 1.5f, mode), in_place(kD, 1.5f, mode);
    ClockStep used;  // holds a long path from the last call: three runs
    PlaybackClock(kD, 1.f, LoopMode::PingPong, Ticks{10}).advance_ticks(Ticks{3500}, LoopMode::PingPong, used);
    ASSERT_EQ(used.run_count, 3u);
    for (const std::int64_t dt : {0, 300, 2700, -900, 5, -4000, 1000}) {
      const ClockStep expected = returning.advance(Ticks{dt});
      in_place.advance(Ticks{dt}, used);
      EXPECT_TRUE(same(used, expected)) << "mode " << static_cast<int>(mode) << " dt " << dt;
      EXPECT_EQ(in_place.time(), returning.time());
      EXPECT_EQ(in_place.finished(), returning.finished());
      ClockStep copy;
      copy_step(copy, used);
      EXPECT_TRUE(same(copy, used));
    }
  }
  // A seek under Once finds finished as set_rate does: at the end in the play direction.
  PlaybackClock once(kD, -1.f, LoopMode::Once);
  once.seek(Ticks{0});
  EXPECT_TRUE(once.finished());
  once.seek(kD);
  EXPECT_FALSE(once.finished());
  once.set_rate(1.f);
  EXPECT_TRUE(once.finished());
}

TEST(PlaybackClock, B5_PingPongBouncesAtBothEnds) {
  PlaybackClock clock(kD, 1.f, LoopMode::PingPong);
  clock.advance(Ticks{1300});
  EXPECT_EQ(clock.time(), Ticks{700});   // up to 1000, back 300
  EXPECT_TRUE(clock.reversed());
  clock.advance(Ticks{800});
  EXPECT_EQ(clock.time(), Ticks{100});   // down to 0, up 100
  EXPECT_FALSE(clock.reversed());
  clock.advance(Ticks{900});
  EXPECT_EQ(clock.time(), kD);           // exactly at the end: the next step goes down
  clock.advance(Ticks{1});
  EXPECT_EQ(clock.time(), Ticks{999});
  clock.advance(Ticks{999 + 3 * 1000 + 10});  // down to 0, up, down, up (three legs), 10 down
  EXPECT_EQ(clock.time(), Ticks{990});
  clock.set_rate(-1.f);                  // a negative rate retraces: up again, bouncing at the end
  clock.advance(Ticks{30});
  EXPECT_EQ(clock.time(), Ticks{980});
  EXPECT_FALSE(clock.finished());
}

TEST(PlaybackClock, B5_ZeroDurationHoldsZeroAndHostileStepsSaturate) {
  PlaybackClock still(Ticks{0}, 3.f, LoopMode::Loop);
  still.advance(Ticks{12345});
  EXPECT_EQ(still.time(), Ticks{0});
  PlaybackClock clock(kD, 1.f, LoopMode::Loop);
  clock.advance(Ticks{std::numeric_limits<std::int64_t>::max()});
  EXPECT_EQ(clock.time(), Ticks{std::numeric_limits<std::int64_t>::max() % 1000});
  clock.advance_ticks(Ticks{std::numeric_limits<std::int64_t>::min()});
  EXPECT_GE(clock.time(), Ticks{0});
  EXPECT_LT(clock.time(), kD);
  EXPECT_EQ(scaled_ticks(Ticks{1'000'000}, std::numeric_limits<double>::quiet_NaN()), Ticks{0});
  EXPECT_EQ(scaled_ticks(Ticks{std::numeric_limits<std::int64_t>::max()}, 4.0),
            Ticks{std::numeric_limits<std::int64_t>::max()});
}

// Markers at 0, 250, 500 (two), 1000 of a 1000-tick clip.
const std::vector<Ticks> kMarkers = {Ticks{0}, Ticks{250}, Ticks{500}, Ticks{500}, Ticks{1000}};

TEST(ClipMarkers, B7_ForwardPlayReportsEachMarkerOnceInOrderIncludingTheStart) {
  PlaybackClock clock(kD, 1.f, LoopMode::Loop);
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{250})), (std::vector<std::uint32_t>{0, 1}));  // [0, 250]
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{249})), (std::vector<std::uint32_t>{}));       // (250, 499]
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{1})), (std::vector<std::uint32_t>{2, 3}));     // (499, 500]
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{0})), (std::vector<std::uint32_t>{}));
}

TEST(ClipMarkers, B7_AWrapReportsTheEndThenTheStartThenWholeCycles) {
  PlaybackClock clock(kD, 1.f, LoopMode::Loop, Ticks{900});
  clock.advance(Ticks{0});  // the start is reached (nothing there)
  // (900, 1000], then re-entry [0, 300]
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{400})), (std::vector<std::uint32_t>{4, 0, 1}));
  // (300, 1000], a whole cycle [0, 1000], then [0, 100]
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{1800})),
            (std::vector<std::uint32_t>{2, 3, 4, 0, 1, 2, 3, 4, 0}));
}

TEST(ClipMarkers, B7_ReversePlayReportsInDescendingOrderAcrossTheWrap) {
  PlaybackClock clock(kD, -1.f, LoopMode::Loop, Ticks{600});
  clock.advance(Ticks{0});
  // [500, 600) descending: the two markers at 500 in reverse list order
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{100})), (std::vector<std::uint32_t>{3, 2}));
  // [0, 500): 250, 0; re-entry at the end: [700, 1000] -> 1000
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{800})), (std::vector<std::uint32_t>{1, 0, 4}));
  EXPECT_EQ(clock.time(), Ticks{700});
}

TEST(ClipMarkers, B7_PingPongReportsTheTurnOnceAndRetracesBackward) {
  PlaybackClock clock(kD, 1.f, LoopMode::PingPong, Ticks{400});
  clock.advance(Ticks{0});
  // (400, 1000] up, then [200, 1000) down: 500 500 1000 | 500 500 250
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{1400})), (std::vector<std::uint32_t>{2, 3, 4, 3, 2, 1}));
  EXPECT_EQ(clock.time(), Ticks{200});
  // A whole round trip from 0: down (200 -> 0], up to 1000, down to 0, then up to 100.
  EXPECT_EQ(reached(kMarkers, clock.advance(Ticks{200 + 2000 + 100})),
            (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 3, 2, 1, 0}));
}

TEST(ClipMarkers, B7_OnceStopsAtTheEndAndManyCyclesAreCountedNotWalked) {
  PlaybackClock once(kD, 1.f, LoopMode::Once, Ticks{800});
  once.advance(Ticks{0});
  EXPECT_EQ(reached(kMarkers, once.advance(Ticks{5000})), (std::vector<std::uint32_t>{4}));
  EXPECT_EQ(reached(kMarkers, once.advance(Ticks{5000})), (std::vector<std::uint32_t>{}));

  PlaybackClock loop(kD, 1.f, LoopMode::Loop);
  loop.advance(Ticks{0});
  std::vector<std::uint32_t> few(5);
  // 10^15 whole cycles: five markers each, far more than the buffer holds.
  const std::size_t total = markers_reached(kMarkers, loop.advance(Ticks{1'000'000'000'000'000'000}), few);
  EXPECT_GE(total, std::size_t{5'000'000'000'000'000});
  EXPECT_EQ(few, (std::vector<std::uint32_t>{1, 2, 3, 4, 0}));  // (0, 1000], then the re-entry at 0
}

}  // namespace
}  // namespace marrow
