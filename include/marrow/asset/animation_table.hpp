#pragma once
// One skeleton plus the animations that drive it, shared by every skinned mesh of a file (T9).
// Each member mesh keeps its own bones; the table knows which of its Model's bones each one is,
// so one evaluation of the table's skeleton poses every member (T10).
#include <memory>
#include <vector>

#include "marrow/asset/mesh.hpp"
#include "marrow/asset/mesh_animation.hpp"
#include "marrow/asset/skeleton.hpp"

namespace marrow::asset {

class AnimationTable {
 public:
  // A table over these nodes of a shared Model (the AssetLoader makes one per file).
  explicit AnimationTable(std::shared_ptr<SkeletonNodes> nodes);
  // A table of a skeletal mesh's own skeleton and animations (other meshes join by node name).
  // Throws std::invalid_argument for a mesh without skeletal data.
  static std::shared_ptr<AnimationTable> of(const Mesh& mesh);

  Skeleton skeleton() const { return Skeleton(nodes_); }
  Animations animations() const { return Animations(nodes_); }
  const SharedModel& shared() const noexcept { return *nodes_->shared; }

  bool contains(const Mesh& mesh) const noexcept { return bone_model_nodes(mesh) != nullptr; }
  // Per bone of a member mesh: the table Model's bone it follows; nullptr for a mesh outside.
  const std::vector<int>* bone_model_nodes(const Mesh& mesh) const noexcept;

  // Adds a skeletal mesh: each of its bones follows the table node that is the same Model node
  // (a mesh of the table's file), else the table node of the same name. Throws
  // std::invalid_argument when a bone has neither. A mesh without skeletal data is ignored.
  void add_member(const Mesh& mesh);
  // Adds a skeletal mesh with an explicit table node per bone. Throws std::invalid_argument for
  // a count or a node index that does not fit.
  void add_member(const Mesh& mesh, const std::vector<int>& bone_nodes);

 private:
  struct Member {
    const Mesh* mesh;
    std::vector<int> model_nodes;
  };
  std::shared_ptr<SkeletonNodes> nodes_;
  std::vector<Member> members_;
};

}  // namespace marrow::asset
