#pragma once
// A clip compiled for playback on one skeleton: what the sampling job reads. The authoring
// format (AnimationClip, the seed contract) stays what importers and tools produce and edit;
// compile it once, then share the RuntimeClip (immutable) between any number of instances and
// threads, each with its own SamplingContext.
//
// Layout: every joint of the skeleton has exactly one run of keys, in joint order, so the
// sampler writes the pose without a scatter. A key is one 64-byte record (KeyRecord): its
// time, its values and what interpolating towards the next key needs (the cosine between the
// two rotations, 1 / span), so sampling a joint reads two adjacent records of the shared clip
// and the per-instance context holds only a record index per joint (4 bytes). Each run is
// framed by copies of its first key (at the earliest time: the hold before the clip) and of its
// last key (at the latest time: the hold after it), so the pair (k, k + 1) always exists and a
// time is inside its pair exactly when t_k <= t < t_k+1. Rotations are stored with
// their signs chained so that consecutive keys lie in one hemisphere, and `sign` restores the
// authored sign: the sampled rotation is exactly the one sampler's, sign included.
//
// A joint the clip does not animate gets one key holding its rest transform (decomposed from
// the rest matrix), and animated[j] == 0. When several tracks target one joint the later wins
// (as sample_tracks); tracks without keys or outside the skeleton are ignored (P5). Key times
// stay integer ticks, so brackets and holds are exactly those of the one sampler
// (track_sampler.hpp).
//
// Memory: 64 bytes per key, plus two records and 5 bytes per joint.
//
// A compressed clip (compress_clip, offline/clip_compression.hpp) is a RuntimeClip too, played
// by the same job: it holds 16-bit keys per channel instead of records (records() and
// key_offsets() are then empty; compressed() says which).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/animation_clip.hpp"

namespace marrow {

struct SkinningData;
struct CompressedClipData;
struct CompressedRestPose;
namespace detail {
struct CompressedStorage;
}

// One key of a compiled clip, as the sampling job reads it (one cache line).
struct alignas(64) KeyRecord {
  Ticks time;
  float t[3];
  float q[4];         // the key's rotation times `sign` (in the previous key's hemisphere)
  float s[3];
  float sign;         // +1 or -1: q * sign is the authored rotation
  float length;       // |q| (1 for unit keys)
  float cos_next;     // cosine between this rotation and the next key's (1 for the last)
  float inv_span;     // 1 / (t_next - t) in ticks (0 for the last key and equal times)
};
// The sampling kernels read a record as sixteen floats: 0-1 time, 2-4 t, 5-8 q, 9-11 s,
// 12 sign, 13 length, 14 cos_next, 15 inv_span.
static_assert(sizeof(KeyRecord) == 64 && offsetof(KeyRecord, t) == 8 && offsetof(KeyRecord, q) == 20 &&
              offsetof(KeyRecord, s) == 36 && offsetof(KeyRecord, sign) == 48 && offsetof(KeyRecord, inv_span) == 60);

namespace detail {
// A compiled clip's records (RuntimeClip's layout above), shared by its copies.
struct CompiledRecords {
  std::vector<std::uint32_t> key_offsets;
  std::vector<KeyRecord> records;
  std::vector<std::uint8_t> animated;
};
}  // namespace detail

// Valid by construction: only compile_clip makes one, so the sampling job never re-checks it.
class RuntimeClip {
 public:
  RuntimeClip() = default;  // an empty clip of no joints

  const std::string& name() const noexcept { return name_; }
  Ticks duration() const noexcept { return duration_; }
  std::size_t joint_count() const noexcept { return joints_; }
  // Keys of every joint, the framing copies not counted (compressed: keys of every channel).
  std::size_t key_count() const noexcept;
  // True for a clip made by compress_clip or make_compressed_clip.
  bool compressed() const noexcept { return compressed_ != nullptr; }
  // Whether sampling it gains from a context's cache of decoded keys (a compressed clip with
  // keyed channels; segmented ones decode in place).
  bool caches_keys() const noexcept;
  // Joint j's records are [key_offsets()[j], key_offsets()[j + 1]): a copy of its first key at
  // the minimum of Ticks, its keys (never none), a copy of its last key at the maximum.
  std::span<const std::uint32_t> key_offsets() const noexcept {
    return compiled_ ? std::span<const std::uint32_t>(compiled_->key_offsets) : std::span<const std::uint32_t>();
  }
  std::span<const KeyRecord> records() const noexcept {
    return compiled_ ? std::span<const KeyRecord>(compiled_->records) : std::span<const KeyRecord>();
  }
  // True when a track of the clip drives joint j < joint_count() (otherwise it holds its rest
  // transform).
  bool animated(std::size_t joint) const noexcept;
  std::size_t size_in_bytes() const noexcept;
  // Unique per compile_clip call (copies share it: same content); 0 for an empty clip. Lets a
  // SamplingContext tell that it is now used with another clip.
  std::uint64_t id() const noexcept { return id_; }

 private:
  friend RuntimeClip compile_clip(const AnimationClip& clip, std::span<const glm::mat4> rest_locals);
  friend RuntimeClip make_compressed_clip(std::string name, Ticks duration, const CompressedClipData& data,
                                         std::shared_ptr<const CompressedRestPose> rest);
  friend CompressedClipData compressed_clip_data(const RuntimeClip& clip);
  friend struct SamplingJob;

  std::string name_;
  Ticks duration_{};
  std::uint64_t id_ = 0;
  std::uint32_t joints_ = 0;
  std::shared_ptr<const detail::CompiledRecords> compiled_;      // a compiled clip's; immutable, shared by copies
  std::shared_ptr<const detail::CompressedStorage> compressed_;  // or a compressed one's
};

// Compiles clip for a skeleton whose rest locals are given (one per joint; the rest of a
// joint no track drives). Throws std::invalid_argument as validate_clip does, for a non-finite
// rest matrix, or when the keys exceed what 32-bit offsets address.
RuntimeClip compile_clip(const AnimationClip& clip, std::span<const glm::mat4> rest_locals);

// The same with a skin's bind pose as the rest (JointPalette clips; a SceneNode clip is
// refused with std::invalid_argument, as AnimationPlayer::start_clip does).
RuntimeClip compile_clip(const AnimationClip& clip, const SkinningData& skeleton);

}  // namespace marrow
