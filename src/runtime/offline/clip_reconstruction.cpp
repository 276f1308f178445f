// The keys a compressed clip plays: reconstructed_channels and decompress_clip (clip_compression.hpp).
#include <algorithm>

#include "marrow/runtime/offline/clip_compression.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"
#include "marrow/runtime/track_sampler.hpp"

#include "key_codec.hpp"
#include "segmented_lanes.hpp"

namespace marrow {

namespace {

Keyframe key_of(std::size_t c, Ticks time, float* v) {
  Keyframe key;
  key.time = time;
  if (c == 1) {
    key.rotation = glm::quat(v[3], v[0], v[1], v[2]);
  } else {
    (c == 0 ? key.translation : key.scale) = glm::vec3(v[0], v[1], v[2]);
  }
  return key;
}

// A segmented channel's samples as keys (compressed_clip_data.hpp). A segment's first sample
// follows the previous segment's last at the same time when the two differ: the earlier is the
// limit from the left, as the sampler plays it.
std::vector<Keyframe> segmented_keys(const CompressedChannel& ch, std::size_t c, const std::vector<Ticks>& times) {
  std::vector<Keyframe> keys;
  std::size_t byte = 0;
  for (std::size_t s = 0; s < ch.segments.size(); ++s) {
    const CompressedSegment& seg = ch.segments[s];
    const std::size_t start = s * kCompressedSegmentLength, intervals = compressed_segment_intervals(times.size(), s);
    const std::size_t samples = compressed_segment_samples(intervals, seg.stride);
    const std::span<const std::uint8_t> bytes(ch.packed.data() + byte, ch.packed.size() - byte);
    for (std::size_t k = 0; k < samples; ++k) {
      const detail::PackedKey q = detail::unpack_key(bytes, k, seg.bits, false, false);
      float v[4];
      for (std::size_t i = 0; i < 3; ++i) {
        v[i] = detail::dequantise(q.q[i], detail::segment_low(ch.min[i], ch.extent[i], seg.low[i]),
                                  detail::segment_step(ch.extent[i], seg.extent[i], seg.bits[i]));
      }
      if (c == 1) detail::rotation_of_smallest_three(seg.dropped, v[0], v[1], v[2], v);
      const Keyframe key = key_of(c, times[start + std::min(k << seg.stride, intervals)], v);
      const bool same = !keys.empty() && keys.back().time == key.time && keys.back().translation == key.translation &&
                        keys.back().rotation == key.rotation && keys.back().scale == key.scale;
      if (!same) keys.push_back(key);
    }
    byte += detail::segment_bytes(seg, times.size(), s);
  }
  return keys;
}

// A channel's value just before t where it has two keys at t (the first of them); else at t.
Trs left_limit(const std::vector<Keyframe>& keys, Ticks t) {
  const auto at = std::lower_bound(keys.begin(), keys.end(), t, [](const Keyframe& k, Ticks u) { return k.time < u; });
  if (at != keys.end() && at + 1 != keys.end() && at->time == t && (at + 1)->time == t) return {at->translation, at->rotation, at->scale};
  TrackCursor cursor;
  return sample_track(keys, t, cursor);
}

}  // namespace

std::vector<ReconstructedJoint> reconstructed_channels(const RuntimeClip& clip) {
  const CompressedClipData data = compressed_clip_data(clip);
  std::vector<ReconstructedJoint> out(data.animated.size());
  for (std::size_t j = 0; j < out.size(); ++j) {
    BoneTrack* tracks[3] = {&out[j].translation, &out[j].rotation, &out[j].scale};
    for (std::size_t c = 0; c < 3; ++c) {
      const CompressedChannel& ch = data.channels[3 * j + c];
      BoneTrack& track = *tracks[c];
      track.bone_index = static_cast<int>(j);
      if (!ch.segments.empty()) {
        track.keys = segmented_keys(ch, c, data.times);
        continue;
      }
      for (std::size_t k = 0; k < ch.key_times.size(); ++k) {
        const detail::PackedKey q = detail::unpack_key(ch.packed, k, ch.bits, ch.uniform, c == 1);
        Keyframe key;
        key.time = data.times[ch.key_times[k]];
        float v[4];
        for (std::size_t i = 0; i < 3; ++i) {
          const std::size_t from = ch.uniform ? 0 : i;  // a uniform scale: x's range for y and z
          v[i] = detail::dequantise(q.q[i], ch.min[from], ch.step[from]);
        }
        if (c == 1) {
          detail::rotation_of_smallest_three(static_cast<int>(q.dropped), v[0], v[1], v[2], v);
          key.rotation = glm::quat(v[3], v[0], v[1], v[2]);
        } else {
          (c == 0 ? key.translation : key.scale) = glm::vec3(v[0], v[1], v[2]);
        }
        track.keys.push_back(key);
      }
    }
  }
  return out;
}

AnimationClip decompress_clip(const RuntimeClip& clip) {
  const std::vector<ReconstructedJoint> joints = reconstructed_channels(clip);
  AnimationClip out;
  out.name = clip.name();
  out.duration = clip.duration();
  for (std::size_t j = 0; j < joints.size(); ++j) {
    if (!clip.animated(j)) continue;
    const ReconstructedJoint& r = joints[j];
    std::vector<Ticks> times;
    for (const BoneTrack* track : {&r.translation, &r.rotation, &r.scale}) {
      for (const Keyframe& key : track->keys) times.push_back(key.time);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    BoneTrack track{static_cast<int>(j), {}};
    TrackCursor ct, cr, cs;
    for (Ticks t : times) {
      // A time where a channel has two keys (a segment boundary) gets two: the limits from the
      // left, then the values from t on (what the sampler gives at t).
      const Keyframe left{t, left_limit(r.translation.keys, t).translation, left_limit(r.rotation.keys, t).rotation,
                          left_limit(r.scale.keys, t).scale};
      const Keyframe at{t, sample_track(r.translation.keys, t, ct).translation, sample_track(r.rotation.keys, t, cr).rotation,
                        sample_track(r.scale.keys, t, cs).scale};
      if (left.translation != at.translation || left.rotation != at.rotation || left.scale != at.scale) track.keys.push_back(left);
      track.keys.push_back(at);
    }
    out.tracks.push_back(std::move(track));
  }
  return out;
}

}  // namespace marrow
