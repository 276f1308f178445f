#pragma once
// THE track sampler: every path that turns authored keys into a local transform (rigid clips,
// bounds, the asset API) goes through this file; the sampling job (sampling_job.hpp) plays
// compiled clips with the same key search and the same interpolation kernel.
//
// Rule (P6): before the first key hold it, at or after the last key hold it; in between find
// the bracketing keys k, k+1 with t_k <= t < t_{k+1} (half-open: with equal times the later key
// wins), lerp translation and scale, slerp rotation along the shorter arc (normalised), with
// p = float(t - t_k) / float(t_{k+1} - t_k). Exactly on a key, that key's values are returned
// unchanged.
#include <cstddef>
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/bone_track.hpp"
#include "marrow/runtime/keyframe.hpp"
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

// p = (t - a) / (b - a) for a <= t < b, as every sampler of keys computes it (P6).
float key_fraction(Ticks a, Ticks b, Ticks t) noexcept;

// The blend of two keys at p in [0, 1] (lerp T/S, shortest-arc slerp R); p = 0 returns a
// unchanged. Exactly the arithmetic sample_track and sample_tracks apply to a bracket.
Trs interpolate_keys(const Keyframe& a, const Keyframe& b, float p) noexcept;

// The interpolated transform of a non-empty, sorted key list at time t.
Trs sample_track(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept;

// The same without a cursor (a search each call), for one-off sampling.
Trs sample_track(std::span<const Keyframe> keys, Ticks t) noexcept;

// Samples every track at t, eight at a time, and writes out[bone_index] = T * R * S. Tracks with
// no keys or a bone_index outside out are skipped; with two tracks on one bone the later wins.
// cursors holds one cursor per track, or is empty (a search per track). Allocates nothing.
void sample_tracks(std::span<const BoneTrack> tracks, Ticks t, std::span<TrackCursor> cursors,
                   std::span<glm::mat4> out) noexcept;

}  // namespace marrow
