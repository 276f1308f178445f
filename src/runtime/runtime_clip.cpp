#include "marrow/runtime/runtime_clip.hpp"

#include <atomic>
#include <limits>
#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/runtime/skinning_data.hpp"

namespace marrow {

namespace {

KeyValues values_of(const glm::vec3& t, const glm::quat& q, const glm::vec3& s) {
  return KeyValues{{t.x, t.y, t.z}, {q.x, q.y, q.z, q.w}, {s.x, s.y, s.z}};
}

}  // namespace

std::size_t RuntimeClip::size_in_bytes() const noexcept {
  return sizeof(RuntimeClip) + name_.capacity() + key_offsets_.capacity() * sizeof(std::uint32_t) +
         key_times_.capacity() * sizeof(Ticks) + key_values_.capacity() * sizeof(KeyValues) + animated_.capacity();
}

RuntimeClip compile_clip(const AnimationClip& clip, std::span<const glm::mat4> rest_locals) {
  validate_clip(clip);
  const std::size_t joints = rest_locals.size();
  for (std::size_t j = 0; j < joints; ++j) {
    if (!is_finite(rest_locals[j])) {
      throw std::invalid_argument("compile_clip: rest matrix of joint " + std::to_string(j) + " is not finite");
    }
  }
  // The track that drives each joint: the last usable one (sample_tracks' "later wins").
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> track_of(joints, kNone);
  std::size_t keys = 0;
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    const BoneTrack& track = clip.tracks[i];
    if (track.keys.empty() || track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= joints) continue;
    track_of[static_cast<std::size_t>(track.bone_index)] = i;
  }
  for (std::size_t j = 0; j < joints; ++j) keys += track_of[j] == kNone ? 1 : clip.tracks[track_of[j]].keys.size();
  if (keys > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("compile_clip: clip '" + clip.name + "' has " + std::to_string(keys) +
                                " keys, more than a runtime clip addresses");
  }

  static std::atomic<std::uint64_t> next_id{1};
  RuntimeClip out;
  out.id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  out.name_ = clip.name;
  out.duration_ = clip.duration;
  out.key_offsets_.reserve(joints + 1);
  out.key_times_.reserve(keys);
  out.key_values_.reserve(keys);
  out.animated_.assign(joints, 0);
  for (std::size_t j = 0; j < joints; ++j) {
    out.key_offsets_.push_back(static_cast<std::uint32_t>(out.key_times_.size()));
    if (track_of[j] == kNone) {
      const Trs rest = decompose_trs(rest_locals[j]);
      out.key_times_.push_back(Ticks{0});
      out.key_values_.push_back(values_of(rest.translation, rest.rotation, rest.scale));
      continue;
    }
    out.animated_[j] = 1;
    for (const Keyframe& key : clip.tracks[track_of[j]].keys) {
      out.key_times_.push_back(key.time);
      out.key_values_.push_back(values_of(key.translation, key.rotation, key.scale));
    }
  }
  out.key_offsets_.push_back(static_cast<std::uint32_t>(out.key_times_.size()));
  return out;
}

RuntimeClip compile_clip(const AnimationClip& clip, const SkinningData& skeleton) {
  if (clip.target_space != ClipTargetSpace::JointPalette) {
    throw std::invalid_argument("compile_clip: clip '" + clip.name + "' targets scene nodes, not a skeleton");
  }
  validate(skeleton);
  return compile_clip(clip, skeleton.bind_pose);
}

}  // namespace marrow
