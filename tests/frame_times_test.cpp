// Which times of a clip the pictures and the Python module's frame sampling show (frame_times.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "presentation/frame_times.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::throws_with;

TEST(FrameTimes, SpreadAndRate) {
  const Ticks second = ticks_from_seconds(1.0);
  EXPECT_EQ(spread_frame_time(second, 0, 5), Ticks{0});
  EXPECT_EQ(spread_frame_time(second, 2, 5), ticks_from_seconds(0.5));
  EXPECT_EQ(spread_frame_time(second, 4, 5), second);
  EXPECT_EQ(spread_frame_time(second, 0, 1), Ticks{0});
  const Ticks huge{std::numeric_limits<std::int64_t>::max()};
  EXPECT_EQ(spread_frame_time(huge, 3, 4), huge);  // no overflow
  EXPECT_EQ(frame_count_at_rate(ticks_from_seconds(2.0), 12.0, 100), 24);
  EXPECT_EQ(frame_count_at_rate(Ticks{0}, 12.0, 100), 1);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { frame_count_at_rate(second, 0.0, 100); }, {"frame rate"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { frame_count_at_rate(ticks_from_seconds(100.0), 30.0, 1000); },
                                                 {"3000", "at most 1000"}));
}

}  // namespace
}  // namespace marrow
