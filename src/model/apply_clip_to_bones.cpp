#include "marrow/model/apply_clip_to_bones.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace marrow {

namespace {

void check_space(const AnimationClip& clip) {
  if (clip.target_space != ClipTargetSpace::SceneNode) {
    throw std::invalid_argument("apply_clip_to_bones: clip '" + clip.name +
                                "' targets a joint palette, not scene nodes; play it with an AnimationPlayer");
  }
}

Ticks clamped(const AnimationClip& clip, Ticks time) {
  return std::clamp(time, Ticks{0}, std::max(clip.duration, Ticks{0}));
}

}  // namespace

void apply_clip_to_bones(Model& model, const AnimationClip& clip, Ticks time) {
  check_space(clip);
  // The sampler writes whole matrices by bone index; gather the bones, sample, scatter back.
  std::vector<glm::mat4> locals(model.nodes.size());
  for (std::size_t i = 0; i < locals.size(); ++i) locals[i] = model.nodes[i].transform;
  sample_tracks(clip.tracks, clamped(clip, time), {}, locals);
  for (std::size_t i = 0; i < locals.size(); ++i) model.nodes[i].transform = locals[i];
}

void apply_clip_to_bones(std::span<glm::mat4> bone_locals, const AnimationClip& clip, Ticks time,
                         std::span<TrackCursor> cursors) {
  check_space(clip);
  sample_tracks(clip.tracks, clamped(clip, time), cursors, bone_locals);
}

}  // namespace marrow
