#pragma once
// Plays one skeletal clip on one SkinningData (public contract, DESIGN.md; rules P1-P11), as a
// facade over the runtime jobs (X4): start_clip compiles the clip (compile_clip), update runs
//
//   SamplingJob -> local matrices -> LocalToModelJob -> SkinPaletteJob
//
// on per-instance state the player owns. It holds references: the SkinningData (and the clip
// given to start_clip, for current_clip()) must outlive it. One player is the per-instance
// state of one skin; give each thread or character its own. update() allocates nothing.
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/animation_clip.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skinning_data.hpp"

namespace marrow {

class AnimationPlayer {
 public:
  // P1/P4: validates data (std::invalid_argument, before any allocation for a negative
  // bone_count), copies the bind pose into the local array and computes the bind pose at once.
  explicit AnimationPlayer(const SkinningData& data);

  // P2: keeps a reference to clip and rewinds to 0. Throws std::invalid_argument for a clip
  // validate_clip refuses, or a SceneNode clip (its indices are not palette indices).
  void start_clip(const AnimationClip& clip);

  // P3: relative adds time to the position, otherwise seeks to it. A clip with positive
  // duration loops by floor-modulo on ticks, or clamps to [0, duration] when loop is false;
  // no clip, or a zero duration, holds 0 (playback_time). Then recomputes every array.
  void update(Ticks time, bool relative_to_current_time, bool loop = true);

  // Drops the current clip: the player holds the bind pose at time 0.
  void stop_clip();

  // Per-instance root prefixes used instead of skeleton_root_prefix from the next update on
  // (e.g. when an ancestor of the skeleton is animated); exactly bone_count matrices, or empty to
  // go back to the data's. The span is referenced, not copied: it must outlive its use.
  // Throws std::invalid_argument for another size.
  void set_root_prefixes(std::span<const glm::mat4> prefixes);

  Ticks current_time() const { return current_time_; }
  const AnimationClip* current_clip() const { return clip_; }

  std::span<const glm::mat4> bone_transforms() const { return local_; }   // local
  std::span<const glm::mat4> world_transforms() const { return world_; }  // model space
  std::span<const glm::mat4> skin_transforms() const { return skin_; }    // world * inverse_bind
  // The sampled local T/R/S of the current clip at the current time (B1), for blending.
  std::span<const TrsBlock> local_pose() const { return pose_; }

  const SkinningData& skinning_data() const { return data_; }

 private:
  void recompute();

  const SkinningData& data_;
  const AnimationClip* clip_ = nullptr;
  RuntimeClip runtime_clip_;
  Ticks current_time_{};
  SamplingContext context_;
  std::vector<TrsBlock> pose_;
  std::vector<std::size_t> untracked_;  // bones the current clip leaves at bind pose
  std::span<const glm::mat4> prefix_override_;
  std::vector<glm::mat4> local_;
  std::vector<glm::mat4> world_;
  std::vector<glm::mat4> skin_;
};

}  // namespace marrow
