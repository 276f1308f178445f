#include "marrow/model/apply_clip_to_bones.hpp"

#include <algorithm>
#include <stdexcept>

namespace marrow {

namespace {

void check_space(const AnimationClip& clip) {
  if (clip.target_space != ClipTargetSpace::SceneNode) {
    throw std::invalid_argument("apply_clip_to_bones: clip '" + clip.name +
                                "' targets a joint palette, not scene nodes; play it with an AnimationPlayer");
  }
}

template <class Write>
void sample_into(const AnimationClip& clip, Ticks time, std::size_t bone_count, std::span<TrackCursor> cursors,
                 Write write) {
  const Ticks t = std::clamp(time, Ticks{0}, std::max(clip.duration, Ticks{0}));
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    const BoneTrack& track = clip.tracks[i];
    if (track.keys.empty() || track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= bone_count) {
      continue;
    }
    TrackCursor scratch;
    TrackCursor& cursor = i < cursors.size() ? cursors[i] : scratch;
    write(static_cast<std::size_t>(track.bone_index), compose_trs(sample_track(track.keys, t, cursor)));
  }
}

}  // namespace

void apply_clip_to_bones(Model& model, const AnimationClip& clip, Ticks time) {
  check_space(clip);
  sample_into(clip, time, model.bones.size(), {},
              [&](std::size_t bone, const glm::mat4& m) { model.bones[bone].transform = m; });
}

void apply_clip_to_bones(std::span<glm::mat4> bone_locals, const AnimationClip& clip, Ticks time,
                         std::span<TrackCursor> cursors) {
  check_space(clip);
  sample_into(clip, time, bone_locals.size(), cursors,
              [&](std::size_t bone, const glm::mat4& m) { bone_locals[bone] = m; });
}

}  // namespace marrow
