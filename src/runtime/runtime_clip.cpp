#include "marrow/runtime/runtime_clip.hpp"

#include <atomic>
#include <limits>
#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/runtime/skinning_data.hpp"

#include "bracket.hpp"
#include "clip_id.hpp"
#include "compressed_storage.hpp"

namespace marrow {

std::uint64_t detail::next_clip_id() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

namespace {

KeyRecord record_of(Ticks time, const glm::vec3& t, const glm::quat& q, const glm::vec3& s) {
  KeyRecord r{};
  r.time = time;
  r.t[0] = t.x, r.t[1] = t.y, r.t[2] = t.z;
  r.q[0] = q.x, r.q[1] = q.y, r.q[2] = q.z, r.q[3] = q.w;
  r.s[0] = s.x, r.s[1] = s.y, r.s[2] = s.z;
  r.sign = 1.f;
  r.cos_next = 1.f;
  return r;
}

// Links one joint's run of records (its closing copy included): each key's cosine to the next
// and 1 / span, and rotation signs chained so that each stored rotation lies in its
// predecessor's hemisphere. The flips are decided on the authored rotations, exactly as the
// one sampler's brackets decide them (rotation_pair), so sign * stored reproduces its
// brackets bit for bit.
void link_run(std::span<KeyRecord> run) {
  float sign = 1.f;
  for (std::size_t k = 0; k < run.size(); ++k) {
    KeyRecord& r = run[k];
    r.length = detail::rotation_pair(r.q, r.q).len_a;
    const bool last = k + 2 >= run.size();  // the last key (or its copy): a hold
    bool flip = false;
    if (!last) {
      const KeyRecord& next = run[k + 1];
      const detail::RotationPair pair = detail::rotation_pair(r.q, next.q);
      flip = pair.flip;
      r.cos_next = pair.cosine;
      const auto span = static_cast<std::uint64_t>(next.time.count()) - static_cast<std::uint64_t>(r.time.count());
      r.inv_span = span == 0 ? 0.f : 1.f / static_cast<float>(span);
    }
    r.sign = sign;
    for (float& c : r.q) c *= sign;
    if (flip) sign = -sign;
  }
}

}  // namespace

std::size_t RuntimeClip::key_count() const noexcept {
  if (compressed_) return compressed_->keys;
  return compiled_ ? compiled_->records.size() - 2 * joints_ : 0;
}

bool RuntimeClip::animated(std::size_t joint) const noexcept {
  if (compressed_) return compressed_->animated_joints()[joint] != 0;
  return compiled_->animated[joint] != 0;
}

bool RuntimeClip::caches_keys() const noexcept { return compressed_ != nullptr && !compressed_->animated().empty(); }

std::size_t RuntimeClip::size_in_bytes() const noexcept {
  // The name's characters when they are not inside the string itself (a short name is).
  const auto* self = reinterpret_cast<const char*>(&name_);
  const bool inside = name_.data() >= self && name_.data() < self + sizeof(name_);
  std::size_t bytes = sizeof(RuntimeClip) + (inside ? 0 : name_.capacity() + 1);
  if (compiled_) {
    bytes += sizeof(detail::CompiledRecords) + compiled_->key_offsets.capacity() * sizeof(std::uint32_t) +
             compiled_->records.capacity() * sizeof(KeyRecord) + compiled_->animated.capacity();
  }
  if (compressed_) {
    bytes += sizeof(detail::CompressedStorage) + compressed_->buffer_bytes();
  }
  return bytes;
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
  keys += 2 * joints;  // the framing copies
  if (keys > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("compile_clip: clip '" + clip.name + "' has " + std::to_string(keys) +
                                " keys, more than a runtime clip addresses");
  }

  RuntimeClip out;
  out.id_ = detail::next_clip_id();
  out.name_ = clip.name;
  out.duration_ = clip.duration;
  out.joints_ = static_cast<std::uint32_t>(joints);
  auto compiled = std::make_shared<detail::CompiledRecords>();
  detail::CompiledRecords& c = *compiled;
  c.key_offsets.reserve(joints + 1);
  c.records.reserve(keys);
  c.animated.assign(joints, 0);
  for (std::size_t j = 0; j < joints; ++j) {
    const std::size_t opening = c.records.size();
    c.key_offsets.push_back(static_cast<std::uint32_t>(opening));
    c.records.emplace_back();  // the opening copy, filled once the run is linked
    if (track_of[j] == kNone) {
      const Trs rest = decompose_trs(rest_locals[j]);
      c.records.push_back(record_of(Ticks{0}, rest.translation, rest.rotation, rest.scale));
    } else {
      c.animated[j] = 1;
      for (const Keyframe& key : clip.tracks[track_of[j]].keys) {
        c.records.push_back(record_of(key.time, key.translation, key.rotation, key.scale));
      }
    }
    c.records.push_back(c.records.back());  // the closing copy: the last key holds until
    c.records.back().time = detail::kMaxTicks;   // the end of time
    link_run(std::span(c.records).subspan(opening + 1));
    // The first key held from the beginning of time (a hold: p = 0, its inv_span being 0).
    c.records[opening] = c.records[opening + 1];
    c.records[opening].time = detail::kMinTicks;
    c.records[opening].cos_next = 1.f;
    c.records[opening].inv_span = 0.f;
  }
  c.key_offsets.push_back(static_cast<std::uint32_t>(c.records.size()));
  out.compiled_ = std::move(compiled);
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
