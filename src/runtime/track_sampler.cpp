#include "marrow/runtime/track_sampler.hpp"

#include <algorithm>
#include <cstdint>

#include "key_lanes.hpp"

namespace marrow {

std::size_t find_key(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept {
  const std::size_t n = keys.size();
  std::size_t k = cursor.key < n ? cursor.key : 0;
  if (keys[k].time <= t) {
    // Forward play moves at most a key or two per frame: step a few times before searching.
    for (int steps = 0; steps < 4; ++steps) {
      if (k + 1 >= n || keys[k + 1].time > t) {
        cursor.key = k;
        return k;
      }
      ++k;
    }
  }
  // Jump: the first key after t, then one back (or 0 when t precedes every key).
  const auto after = std::upper_bound(keys.begin(), keys.end(), t,
                                      [](Ticks value, const Keyframe& key) { return value < key.time; });
  k = after == keys.begin() ? 0 : static_cast<std::size_t>(after - keys.begin()) - 1;
  cursor.key = k;
  return k;
}

namespace {

// Loads the bracket for t into one lane: hold (p = 0 on key a) outside or exactly on a key.
void load_bracket(detail::KeyLanes& lanes, std::size_t lane, std::span<const Keyframe> keys, Ticks t,
                  TrackCursor& cursor) {
  const std::size_t k = find_key(keys, t, cursor);
  const Keyframe& a = keys[k];
  if (k + 1 >= keys.size() || t <= a.time) {
    lanes.load(lane, a, a, 0.f, 1.f);
    return;
  }
  const Keyframe& b = keys[k + 1];
  // p = (t - t_k) / (t_k+1 - t_k) in float: exact tick counts below 2^24 (1.6 s), and within
  // 2e-7 relative beyond.
  // Differences in unsigned arithmetic: t >= a.time and b.time > a.time, so they fit even when
  // the key times span more than half the range of Ticks (hostile files).
  const auto since = static_cast<std::uint64_t>(t.count()) - static_cast<std::uint64_t>(a.time.count());
  const auto span = static_cast<std::uint64_t>(b.time.count()) - static_cast<std::uint64_t>(a.time.count());
  lanes.load(lane, a, b, static_cast<float>(since), static_cast<float>(span));
}

}  // namespace

namespace {

Trs interpolate_one(detail::KeyLanes& lanes) {
  lanes.pad(1);
  detail::TrsLanes out;
  detail::interpolate(lanes, out);
  return out.lane(0);
}

}  // namespace

Trs interpolate_keys(const Keyframe& a, const Keyframe& b, float p) noexcept {
  detail::KeyLanes lanes;
  lanes.load(0, a, b, p, 1.f);
  return interpolate_one(lanes);
}

Trs sample_track(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept {
  detail::KeyLanes lanes;
  load_bracket(lanes, 0, keys, t, cursor);
  return interpolate_one(lanes);
}

Trs sample_track(std::span<const Keyframe> keys, Ticks t) noexcept {
  TrackCursor cursor;
  return sample_track(keys, t, cursor);
}

void sample_tracks(std::span<const BoneTrack> tracks, Ticks t, std::span<TrackCursor> cursors,
                   std::span<glm::mat4> out) noexcept {
  detail::KeyLanes lanes;
  glm::mat4* targets[detail::kLanes];
  std::size_t filled = 0;
  const auto flush = [&] {
    lanes.pad(filled);
    detail::interpolate_compose(lanes, targets, filled);
    filled = 0;
  };
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const BoneTrack& track = tracks[i];
    if (track.keys.empty() || track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= out.size()) {
      continue;
    }
    TrackCursor scratch;
    load_bracket(lanes, filled, track.keys, t, i < cursors.size() ? cursors[i] : scratch);
    targets[filled] = &out[static_cast<std::size_t>(track.bone_index)];
    if (++filled == detail::kLanes) flush();
  }
  if (filled > 0) flush();
}

}  // namespace marrow
