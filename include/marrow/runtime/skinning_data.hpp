#pragma once
// A skin's skeleton and its clips (public contract, DESIGN.md). Arrays are indexed by palette
// index; parents come before children (topological order).
//
// Thread safety: immutable once loaded; any number of players may read it concurrently.
#include <map>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/animation_clip.hpp"

namespace marrow {

struct SkinningData {
  int bone_count = 0;
  std::vector<int> skeleton_hierarchy;             // parent per bone, negative = root
  std::vector<glm::mat4> bind_pose;                // bone-local
  std::vector<glm::mat4> inverse_bind_pose;
  std::vector<glm::mat4> skeleton_root_prefix;     // empty, or bone_count entries
  std::map<std::string, AnimationClip> animation_clips;
  int skeleton_root_node_index = -1;               // informational only
  std::string skeleton_root_name;                  // informational only
};

// Throws std::invalid_argument naming the field, index and value for anything a player could
// not use safely: a negative bone_count, an array whose size differs from bone_count (the
// prefix may also be empty), a parent index >= its own index, or a non-finite matrix.
// Clips are checked by validate_clip when a player starts them.
void validate(const SkinningData& data);

// True when the root prefix applies (P8): exactly bone_count entries; otherwise identity.
inline bool has_root_prefix(const SkinningData& data) noexcept {
  return data.bone_count > 0 && data.skeleton_root_prefix.size() == static_cast<std::size_t>(data.bone_count);
}

}  // namespace marrow
