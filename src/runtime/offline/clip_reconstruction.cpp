// The keys a compressed clip plays: reconstructed_channels and decompress_clip (clip_compression.hpp).
#include <algorithm>

#include "marrow/runtime/offline/clip_compression.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"
#include "marrow/runtime/track_sampler.hpp"

#include "key_codec.hpp"

namespace marrow {

std::vector<ReconstructedJoint> reconstructed_channels(const RuntimeClip& clip) {
  const CompressedClipData data = compressed_clip_data(clip);
  std::vector<ReconstructedJoint> out(data.animated.size());
  for (std::size_t j = 0; j < out.size(); ++j) {
    BoneTrack* tracks[3] = {&out[j].translation, &out[j].rotation, &out[j].scale};
    for (std::size_t c = 0; c < 3; ++c) {
      const CompressedChannel& ch = data.channels[3 * j + c];
      BoneTrack& track = *tracks[c];
      track.bone_index = static_cast<int>(j);
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
      track.keys.push_back(Keyframe{t, sample_track(r.translation.keys, t, ct).translation,
                                    sample_track(r.rotation.keys, t, cr).rotation, sample_track(r.scale.keys, t, cs).scale});
    }
    out.tracks.push_back(std::move(track));
  }
  return out;
}

}  // namespace marrow
