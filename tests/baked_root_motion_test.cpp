// BakedRootMotion (model/baked_root_motion.hpp): R1's offsets kept at key times, read back held
// before the first key and after the last, and linear between two keys.
#include <gtest/gtest.h>

#include <cstddef>

#include "marrow/model/baked_root_motion.hpp"

namespace marrow {
namespace {

BakedRootMotion two_keys() {
  BakedRootMotion path;
  path.times = {Ticks{100}, Ticks{300}, Ticks{700}};
  path.offsets = {RootMotion{{0.f, 0.f, 0.f}, 0.f}, RootMotion{{2.f, 0.f, -4.f}, 1.f}, RootMotion{{6.f, 0.f, -4.f}, 5.f}};
  return path;
}

TEST(BakedRootMotion, R1_HeldBeforeTheFirstKeyAndAfterTheLast) {
  const BakedRootMotion path = two_keys();
  std::size_t cursor = 0;
  EXPECT_EQ(path.at(Ticks{0}, cursor).yaw, 0.f);
  EXPECT_EQ(path.at(Ticks{100}, cursor).translation.x, 0.f);
  EXPECT_EQ(path.at(Ticks{900}, cursor).yaw, 5.f);
  EXPECT_EQ(path.at(Ticks{900}, cursor).translation.x, 6.f);
  cursor = 0;
  EXPECT_EQ(BakedRootMotion{}.at(Ticks{5}, cursor).yaw, 0.f);  // no keys: no motion
}

TEST(BakedRootMotion, R1_BetweenTwoKeysTheOffsetIsTheirLerp) {
  const BakedRootMotion path = two_keys();
  for (std::size_t hint : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{99}}) {
    std::size_t cursor = hint;  // any hint gives the same answer
    const RootMotion a = path.at(Ticks{200}, cursor);
    EXPECT_FLOAT_EQ(a.translation.x, 1.f);
    EXPECT_FLOAT_EQ(a.translation.z, -2.f);
    EXPECT_FLOAT_EQ(a.yaw, 0.5f);
    const RootMotion b = path.at(Ticks{600}, cursor);
    EXPECT_FLOAT_EQ(b.translation.x, 5.f);
    EXPECT_FLOAT_EQ(b.yaw, 4.f);
    EXPECT_EQ(path.at(Ticks{300}, cursor).yaw, 1.f);  // at a key: that key's
  }
}

}  // namespace
}  // namespace marrow
