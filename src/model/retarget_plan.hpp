#pragma once
// Private: what the baked (retarget_clips.cpp) and the live (live_retarget.cpp) retargets share:
// which source clips a call asks for, their key times, and which target joints a retargeted clip
// drives.
#include <cstddef>
#include <vector>

#include "marrow/model/retarget_clips.hpp"

namespace marrow::detail {

// The source animations options.clips names (every one when empty), checked: std::invalid_argument
// for a clip the source lacks, or a new name (prefix + name) the target has or two clips share.
std::vector<int> asked_clips(const Model& source, const Model& target, const RetargetClipsOptions& options);

// Every key time of an animation's parts (skeletal per skin, rigid), within its duration,
// sorted, once each, 0 included: the times a retargeted clip is keyed at.
std::vector<Ticks> key_times(const Model& model, const ModelAnimation& animation);

// The target joints of the rig a retargeted clip keys: mapped, the chains' bones, the hips.
std::vector<std::size_t> driven_joints(const RetargetRig& rig);

}  // namespace marrow::detail
