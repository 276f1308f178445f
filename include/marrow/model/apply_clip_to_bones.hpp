#pragma once
// G10: rigid scene-node clips. The time is clamped to [0, duration] (no looping), each tracked
// bone's local transform is replaced by the sampled one, untracked bones are left alone, and a
// JointPalette clip is refused with std::invalid_argument (its indices are palette indices;
// applying them to scene nodes would silently pose the wrong bones). Tracks with no keys or
// a bone index outside the array are ignored, as in the player.
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/animation_clip.hpp"
#include "marrow/runtime/track_sampler.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

// Poses the model's own bones (the seed's route; mutates the shared model).
void apply_clip_to_bones(Model& model, const AnimationClip& clip, Ticks time);

// Poses a per-instance array of scene-node local transforms. cursors, when not empty, holds one
// cursor per track and makes forward playback O(1) per track.
void apply_clip_to_bones(std::span<glm::mat4> bone_locals, const AnimationClip& clip, Ticks time,
                         std::span<TrackCursor> cursors = {});

}  // namespace marrow
