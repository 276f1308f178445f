#pragma once
// A named set of bone tracks and its duration (public contract, DESIGN.md).
#include <string>
#include <vector>

#include "marrow/runtime/bone_track.hpp"
#include "marrow/core/ticks.hpp"

namespace marrow {

// Which index space a clip's bone_index values live in: a skin's palette (skeletal clips,
// played by AnimationPlayer) or the model's scene nodes (rigid clips, apply_clip_to_bones).
enum class ClipTargetSpace { JointPalette, SceneNode };

struct AnimationClip {
  std::string name;
  Ticks duration{};
  std::vector<BoneTrack> tracks;
  ClipTargetSpace target_space = ClipTargetSpace::JointPalette;
};

// Throws std::invalid_argument naming the clip, track, key and value when the clip cannot be
// sampled safely: a negative duration, a non-finite translation/rotation/scale, or key times
// that decrease. Equal consecutive times are allowed (the later key wins at that instant).
// Empty tracks and bone indices outside the skeleton are not errors: players ignore them.
void validate_clip(const AnimationClip& clip);

}  // namespace marrow
