#pragma once
// Instances of meshes and groups of instances (T6, T10). An instance is per-character state: a
// transform and its own bone palette. A group may be linked to an AnimationTable: playing one of
// the table's animations evaluates the shared skeleton once and poses every instance whose mesh
// is in the table; the other instances are left unchanged. One thread owns an instance or group.
#include <memory>
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/asset/animation_table.hpp"
#include "marrow/asset/mesh.hpp"
#include "marrow/asset/player_clock.hpp"
#include "marrow/asset/model_pose.hpp"

namespace marrow::asset {

class ModelInstance;

// Plays one animation of an instance's own mesh: by absolute time, or by delta with its own
// clock (rate, loop mode), as an Animator plays a Model.
class InstanceAnimationPlayer : public ClockedPlayer<InstanceAnimationPlayer> {
 private:
  friend class ModelInstance;
  friend class ClockedPlayer<InstanceAnimationPlayer>;
  InstanceAnimationPlayer(ModelInstance& instance, int animation, float duration_seconds)
      : ClockedPlayer(duration_seconds), instance_(instance), animation_(animation) {}
  void pose(float seconds);
  ModelInstance& instance_;
  int animation_;
};

class ModelInstance {
 public:
  explicit ModelInstance(std::shared_ptr<const Mesh> mesh, const glm::mat4& transform = glm::mat4(1.f));
  // A copy keeps the pose the instance has (its own player's is copied out of its Animator; a
  // group's stays shared) and makes its own Animator when it plays.
  ModelInstance(const ModelInstance& other);
  ModelInstance& operator=(const ModelInstance& other);
  ModelInstance(ModelInstance&&) noexcept = default;
  ModelInstance& operator=(ModelInstance&&) noexcept = default;
  ~ModelInstance() = default;

  const Mesh& mesh() const noexcept { return *mesh_; }
  const std::shared_ptr<const Mesh>& shared_mesh() const noexcept { return mesh_; }
  const glm::mat4& transform() const noexcept { return transform_; }
  void set_transform(const glm::mat4& transform) noexcept { transform_ = transform; }

  // The bone palette (model space: node world * bind-pose inversion), one per bone.
  std::span<const glm::mat4> bone_transforms() const noexcept { return palette_; }
  void apply_bind_pose();

  // The Model the instance's current pose was evaluated on: its mesh's (by its own player) or a
  // group's table's (by the group's player); null in the bind pose (before any player, after
  // apply_bind_pose). node_transforms() are that Model's model-space bone transforms, one per
  // Model node; Skeleton::get_posed_node_transforms reads them by node.
  const Model* posed_model() const noexcept { return posed_model_; }
  std::span<const glm::mat4> node_transforms() const noexcept {
    if (posed_model_ == nullptr) return {};
    return pose_ ? std::span<const glm::mat4>(*pose_) : evaluator_.worlds();
  }

  // Throws std::out_of_range when the animation is not one of this mesh's.
  InstanceAnimationPlayer animation_player(const MeshAnimation& animation);

  // Posed model-space vertices (positions, and normals when a span is given).
  void pose_vertices(std::span<glm::vec3> positions, std::span<glm::vec3> normals = {}) const;

 private:
  friend class InstanceAnimationPlayer;
  friend class GroupAnimationPlayer;
  std::shared_ptr<const Mesh> mesh_;
  glm::mat4 transform_;
  std::vector<glm::mat4> palette_;
  // Posed by a group: the pose's Model node transforms, shared with the group and its other
  // members rather than copied into each. Null when posed by its own player: they are its
  // Animator's (evaluator_), read in place.
  std::shared_ptr<std::vector<glm::mat4>> pose_;
  const Model* posed_model_ = nullptr;
  ModelPose evaluator_;  // its own player's

};

class ModelInstanceGroup;

// Plays one animation of a group's table: evaluates the table's skeleton once per pose and
// poses every member instance; by absolute time or by delta with its own clock.
class GroupAnimationPlayer : public ClockedPlayer<GroupAnimationPlayer> {
 private:
  friend class ModelInstanceGroup;
  friend class ClockedPlayer<GroupAnimationPlayer>;
  GroupAnimationPlayer(ModelInstanceGroup& group, int animation, float duration_seconds)
      : ClockedPlayer(duration_seconds), group_(group), animation_(animation) {}
  void pose(float seconds);
  ModelInstanceGroup& group_;
  int animation_;
};

class ModelInstanceGroup {
 public:
  ModelInstanceGroup() = default;
  explicit ModelInstanceGroup(std::vector<ModelInstance> instances, std::shared_ptr<const AnimationTable> table = nullptr);

  std::vector<ModelInstance>& instances() noexcept { return instances_; }
  const std::vector<ModelInstance>& instances() const noexcept { return instances_; }
  const AnimationTable* table() const noexcept { return table_.get(); }

  // The linked table's skeleton and animations; std::logic_error for an unlinked group.
  Skeleton skeleton() const;
  Animations animations() const;
  // std::logic_error for an unlinked group, std::out_of_range for an animation not in the table.
  GroupAnimationPlayer animation_player(const MeshAnimation& animation);

 private:
  friend class GroupAnimationPlayer;
  std::vector<ModelInstance> instances_;
  std::shared_ptr<const AnimationTable> table_;
  std::shared_ptr<std::vector<glm::mat4>> worlds_;  // the pose's Model node transforms, shared with members
  ModelPose evaluator_;
};

struct ModelBundle;

// A group of one instance per mesh of a bundle, linked to the bundle's table.
ModelInstanceGroup create_model_instances(const ModelBundle& bundle);
// Instances of the given meshes, linked to a table (which may be null: unlinked).
ModelInstanceGroup create_model_instances(std::span<const std::shared_ptr<Mesh>> meshes,
                                          std::shared_ptr<const AnimationTable> table);
ModelInstanceGroup group_model_instances(std::vector<ModelInstance> instances,
                                         std::shared_ptr<const AnimationTable> table);

}  // namespace marrow::asset
