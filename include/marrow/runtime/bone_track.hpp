#pragma once
// The keys of one bone in one clip, sorted by time (public contract, DESIGN.md).
#include <vector>

#include "marrow/runtime/keyframe.hpp"

namespace marrow {

struct BoneTrack {
  int bone_index = 0;  // palette index (JointPalette clips) or scene-node index (SceneNode clips)
  std::vector<Keyframe> keys;
};

}  // namespace marrow
