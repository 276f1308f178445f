#pragma once
// M2: installs a skin's bind-pose palette (computed by a clip-less AnimationPlayer) on the
// skinned materials of exactly that skin's meshes, so a freshly loaded model draws in its bind
// pose instead of the identity palette. Holds no state; a later set_bone_transforms overwrites it.
#include <cstddef>

#include "marrow/model/model.hpp"

namespace marrow {

// Returns how many distinct materials were posed. Throws std::out_of_range for a bad index.
int apply_bind_pose_bone_transforms(Model& model, std::size_t skin_index);

// The older route without a skin-to-mesh mapping: every skinned material of every mesh gets the
// palette of `data`. Returns how many distinct materials were posed.
int apply_bind_pose_bone_transforms(Model& model, const SkinningData& data);

}  // namespace marrow
