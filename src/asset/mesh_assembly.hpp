#pragma once
// Private to the asset layer: making a mesh as a view of a shared Model, shared by the
// MeshBuilder and the AssetLoader, and the bounding box every mesh gets (T14).
#include <optional>

#include "marrow/asset/mesh.hpp"

namespace marrow::asset {

struct MeshAssembly {
  // A mesh of `meshes` of the shared model. Skeletal when skin >= 0: posed by that skin on
  // `skeleton`, its bones being the skin's palette entries `bone_joints` (bone b is palette
  // entry bone_joints[b]); registers with the skeleton and derives the bind palette.
  static std::shared_ptr<Mesh> view(std::string name, std::shared_ptr<SharedModel> shared, std::vector<int> meshes,
                                    int skin = -1, std::shared_ptr<SkeletonNodes> skeleton = nullptr,
                                    std::vector<int> bone_joints = {});
  // T14 through the one animated-bounds routine (model/animated_bounds.hpp): the bind pose
  // posed exactly, widened (when with_animations) by every animation at its key times, each
  // through the bones' boxes of the vertices they influence (S5, O(bones) per key time). Then
  // the override replaces it and the margin is added on every side.
  static void compute_bounds(Mesh& mesh, bool with_animations, const std::optional<BoundingBox>& override_box,
                             float margin);
  // The builder's access to what it changes after creation (animations, node names).
  static SharedModel& shared(Mesh& mesh) { return *mesh.shared_; }
  static SkeletonNodes* skeleton(Mesh& mesh) { return mesh.skeleton_.get(); }
};

}  // namespace marrow::asset
