#pragma once
// A clip's root motion (R1, root_motion.hpp) measured once at its root joint's key times, for a
// player that moves the character itself from shared data (MotionClips bakes one per clip, and
// MotionMatcher reads it instead of the Animator's root motion: no slerp, arctangent or blend a
// frame).
//
// offsets[k] is R1's offset at times[k]: the joint's horizontal motion and unwrapped yaw since
// time 0, exactly what Animator::root_motion_offset() reports after a seek to that time. Between
// two keys the offset is their linear interpolation (translation and yaw), at the fraction
// key_fraction() gives every sampler; before the first key the first, after the last the last
// (P6). At the keys it is R1's; between them R1 takes the yaw of the slerped rotation, which
// differs from the interpolated yaw by second-order terms in the turn between the two keys.
#include <cstddef>
#include <vector>

#include "marrow/core/ticks.hpp"
#include "marrow/model/root_motion.hpp"

namespace marrow {

struct BakedRootMotion {
  std::vector<Ticks> times;          // ascending, one per key of the root joint's track
  std::vector<RootMotion> offsets;   // R1's offset since time 0 at each

  // The offset at t (zero for an empty path). cursor: where the last call found its keys, kept
  // by the caller (any value is valid; forward play finds the next keys in a step).
  RootMotion at(Ticks t, std::size_t& cursor) const noexcept;
};

}  // namespace marrow
