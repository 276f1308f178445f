#include "marrow/anim/track_sampler.hpp"

#include <algorithm>

#include "marrow/core/slerp.hpp"

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

Trs sample_track(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept {
  const std::size_t k = find_key(keys, t, cursor);
  const Keyframe& a = keys[k];
  if (k + 1 >= keys.size() || t <= a.time) {
    // Before the first key, exactly on a key, or at/after the last key: hold.
    return Trs{a.translation, a.rotation, a.scale};
  }
  const Keyframe& b = keys[k + 1];
  const float p = static_cast<float>(static_cast<double>((t - a.time).count()) /
                                     static_cast<double>((b.time - a.time).count()));
  return Trs{a.translation + (b.translation - a.translation) * p, slerp_shortest(a.rotation, b.rotation, p),
             a.scale + (b.scale - a.scale) * p};
}

Trs sample_track(std::span<const Keyframe> keys, Ticks t) noexcept {
  TrackCursor cursor;
  return sample_track(keys, t, cursor);
}

}  // namespace marrow
