#pragma once
// THE track sampler: every path that turns keys into a local transform (player, rigid clips,
// bounds, the asset API) calls this one function.
//
// Rule (P6): before the first key hold it, at or after the last key hold it; in between find
// the bracketing keys k, k+1 with t_k <= t < t_{k+1} (half-open: with equal times the later key
// wins), lerp translation and scale, slerp rotation along the shorter arc.
#include <cstddef>
#include <span>

#include "marrow/anim/keyframe.hpp"
#include "marrow/core/trs.hpp"

namespace marrow {

// Remembers the bracket found last time, so that playing forward finds the next bracket in
// O(1); any other jump falls back to a binary search. The result never depends on the cursor.
struct TrackCursor {
  std::size_t key = 0;
};

// Index k of the last key with keys[k].time <= t, clamped to [0, size - 1]. keys must be
// non-empty and sorted (validate_clip).
std::size_t find_key(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept;

// The interpolated transform of a non-empty, sorted key list at time t.
Trs sample_track(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept;

// The same without a cursor (a search each call), for one-off sampling.
Trs sample_track(std::span<const Keyframe> keys, Ticks t) noexcept;

}  // namespace marrow
