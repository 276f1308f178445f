#pragma once
// A clip compiled for playback on one skeleton: what the sampling job reads. The authoring
// format (AnimationClip, the seed contract) stays what importers and tools produce and edit;
// compile it once, then share the RuntimeClip (immutable) between any number of instances and
// threads, each with its own SamplingContext.
//
// Layout: every joint of the skeleton has exactly one key run, in joint order, so the sampler
// writes the pose without a scatter. A joint the clip does not animate gets one key holding
// its rest transform (decomposed from the rest matrix), and animated[j] == 0. When several
// tracks target one joint the later wins (as sample_tracks); tracks without keys or outside
// the skeleton are ignored (P5). Key times stay integer ticks, so brackets and holds are
// exactly those of the one sampler (track_sampler.hpp).
//
// Memory: 48 bytes per key (8-byte time, ten floats of T/R/S) and 5 bytes per joint.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/animation_clip.hpp"

namespace marrow {

struct SkinningData;

// One key's values: translation, rotation (x, y, z, w as stored), scale.
struct KeyValues {
  float t[3];
  float q[4];
  float s[3];
};

// Valid by construction: only compile_clip makes one, so the sampling job never re-checks it.
class RuntimeClip {
 public:
  RuntimeClip() = default;  // an empty clip of no joints

  const std::string& name() const noexcept { return name_; }
  Ticks duration() const noexcept { return duration_; }
  std::size_t joint_count() const noexcept { return animated_.size(); }
  std::size_t key_count() const noexcept { return key_times_.size(); }
  // Joint j's keys are [key_offsets()[j], key_offsets()[j + 1]), never empty.
  std::span<const std::uint32_t> key_offsets() const noexcept { return key_offsets_; }
  std::span<const Ticks> key_times() const noexcept { return key_times_; }
  std::span<const KeyValues> key_values() const noexcept { return key_values_; }
  // True when a track of the clip drives joint j (otherwise it holds its rest transform).
  bool animated(std::size_t joint) const noexcept { return animated_[joint] != 0; }
  std::size_t size_in_bytes() const noexcept;
  // Unique per compile_clip call (copies share it: same content); 0 for an empty clip. Lets a
  // SamplingContext tell that it is now used with another clip.
  std::uint64_t id() const noexcept { return id_; }

 private:
  friend RuntimeClip compile_clip(const AnimationClip& clip, std::span<const glm::mat4> rest_locals);

  std::string name_;
  Ticks duration_{};
  std::vector<std::uint32_t> key_offsets_;
  std::vector<Ticks> key_times_;
  std::vector<KeyValues> key_values_;
  std::vector<std::uint8_t> animated_;
  std::uint64_t id_ = 0;
};

// Compiles clip for a skeleton whose rest locals are given (one per joint; the rest of a
// joint no track drives). Throws std::invalid_argument as validate_clip does, for a non-finite
// rest matrix, or when the keys exceed what 32-bit offsets address.
RuntimeClip compile_clip(const AnimationClip& clip, std::span<const glm::mat4> rest_locals);

// The same with a skin's bind pose as the rest (JointPalette clips; a SceneNode clip is
// refused with std::invalid_argument, as AnimationPlayer::start_clip does).
RuntimeClip compile_clip(const AnimationClip& clip, const SkinningData& skeleton);

}  // namespace marrow
