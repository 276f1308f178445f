#include "marrow/runtime/track_sampler.hpp"

#include <cstdint>

#include "bracket.hpp"
#include "key_search.hpp"
#include "kernels/pose_kernels.hpp"

namespace marrow {

namespace {

detail::KeyValues values_of(const Keyframe& k) {
  return detail::KeyValues{{k.translation.x, k.translation.y, k.translation.z},
                   {k.rotation.x, k.rotation.y, k.rotation.z, k.rotation.w},
                   {k.scale.x, k.scale.y, k.scale.z}};
}

// The bracket for t into one lane: hold (p = 0 on key a) outside or exactly on a key.
void load_bracket(detail::BracketBlock& block, float* p, std::size_t lane, std::span<const Keyframe> keys, Ticks t,
                  TrackCursor& cursor) {
  const std::size_t k = find_key(keys, t, cursor);
  const Keyframe& a = keys[k];
  if (k + 1 >= keys.size() || t <= a.time) {
    detail::set_bracket(block, lane, values_of(a), values_of(a));
    p[lane] = 0.f;
    return;
  }
  const Keyframe& b = keys[k + 1];
  detail::set_bracket(block, lane, values_of(a), values_of(b));
  p[lane] = key_fraction(a.time, b.time, t);
}

// The one interpolation kernel (pose_kernels.inl), with the exact slerp.
void interpolate(const detail::BracketBlock& block, const float* p, TrsBlock& out) {
  detail::pose_kernels(simd_choice()).interpolate(&block, p, 1, &out, /*exact_slerp=*/true);
}

Trs sample_lane0(const detail::BracketBlock& block, const float* p) {
  TrsBlock out;
  interpolate(block, p, out);
  return pose_joint(std::span<const TrsBlock>(&out, 1), 0);
}

}  // namespace

float key_fraction(Ticks a, Ticks b, Ticks t) noexcept {
  // In float: exact tick counts below 2^24 (1.6 s), within 2e-7 relative beyond. Unsigned
  // differences: t >= a and b > a, so they fit even when hostile key times span more than half
  // the range of Ticks.
  const auto since = static_cast<std::uint64_t>(t.count()) - static_cast<std::uint64_t>(a.count());
  const auto span = static_cast<std::uint64_t>(b.count()) - static_cast<std::uint64_t>(a.count());
  return static_cast<float>(since) / static_cast<float>(span);
}

std::size_t find_key(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept {
  cursor.key = detail::find_key_index(keys.size(), [keys](std::size_t i) { return keys[i].time; }, t, cursor.key);
  return cursor.key;
}

Trs interpolate_keys(const Keyframe& a, const Keyframe& b, float p) noexcept {
  detail::BracketBlock block = detail::empty_bracket_block();
  detail::set_bracket(block, 0, values_of(a), values_of(b));
  const float blend[kPoseLanes] = {p};
  return sample_lane0(block, blend);
}

Trs sample_track(std::span<const Keyframe> keys, Ticks t, TrackCursor& cursor) noexcept {
  detail::BracketBlock block = detail::empty_bracket_block();
  float p[kPoseLanes] = {};
  load_bracket(block, p, 0, keys, t, cursor);
  return sample_lane0(block, p);
}

Trs sample_track(std::span<const Keyframe> keys, Ticks t) noexcept {
  TrackCursor cursor;
  return sample_track(keys, t, cursor);
}

void sample_tracks(std::span<const BoneTrack> tracks, Ticks t, std::span<TrackCursor> cursors,
                   std::span<glm::mat4> out) noexcept {
  detail::BracketBlock block = detail::empty_bracket_block();
  float p[kPoseLanes] = {};
  glm::mat4* targets[kPoseLanes];
  std::size_t filled = 0;
  const auto flush = [&] {
    TrsBlock trs;
    interpolate(block, p, trs);
    for (std::size_t l = 0; l < filled; ++l) *targets[l] = compose_trs(pose_joint(std::span<const TrsBlock>(&trs, 1), l));
    filled = 0;
  };
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const BoneTrack& track = tracks[i];
    if (track.keys.empty() || track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= out.size()) {
      continue;
    }
    TrackCursor scratch;
    load_bracket(block, p, filled, track.keys, t, i < cursors.size() ? cursors[i] : scratch);
    targets[filled] = &out[static_cast<std::size_t>(track.bone_index)];
    if (++filled == kPoseLanes) flush();
  }
  if (filled > 0) flush();
}

}  // namespace marrow
