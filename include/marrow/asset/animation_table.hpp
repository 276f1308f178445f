#pragma once
// One skeleton plus the animations that drive it, shared by every skinned mesh of a file (T9).
// Each member mesh keeps its own bones; the table knows which of its nodes each bone is, so one
// evaluation of the table's skeleton poses every member (T10).
#include <memory>
#include <vector>

#include "marrow/asset/mesh.hpp"
#include "marrow/asset/mesh_animation.hpp"
#include "marrow/asset/skeleton.hpp"

namespace marrow::asset {

class AnimationTable {
 public:
  Skeleton skeleton() const { return Skeleton(rig_); }
  Animations animations() const { return Animations(rig_); }
  const SkeletalRig& rig() const noexcept { return *rig_; }

  bool contains(const Mesh& mesh) const noexcept { return bone_nodes(mesh) != nullptr; }
  // Per bone of a member mesh: the table node it is; nullptr for a mesh outside the table.
  const std::vector<int>* bone_nodes(const Mesh& mesh) const noexcept;

  // Adds a skeletal mesh: each of its bones is matched to the table node of the same name.
  // Throws std::invalid_argument when a bone's node has no namesake in the table.
  void add_member(const Mesh& mesh);
  // Adds a skeletal mesh with an explicit table node per bone (loaders know them exactly).
  // Throws std::invalid_argument for a count or a node index that does not fit.
  void add_member(const Mesh& mesh, std::vector<int> bone_nodes);

  explicit AnimationTable(std::shared_ptr<SkeletalRig> rig) : rig_(std::move(rig)) {}

 private:
  struct Member {
    const Mesh* mesh;
    std::vector<int> bone_nodes;
  };
  std::shared_ptr<SkeletalRig> rig_;
  std::vector<Member> members_;
};

}  // namespace marrow::asset
