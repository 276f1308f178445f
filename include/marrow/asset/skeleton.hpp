#pragma once
// The skeleton view of a mesh or an animation table (T4, T5, T7): every node from the file's
// root down to the joints (non-joint ancestors included), by index and by name, and model-space
// bind-pose transforms of nodes. The nodes are bones of a Model (shared_model.hpp), viewed, not
// copied. A mesh without skeletal data has no nodes; its bind-pose transforms are identities
// and apply_bind_pose does nothing.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/asset/shared_model.hpp"

namespace marrow::asset {

inline constexpr int kMaxSkeletalBones = 255;

class Mesh;
class ModelInstance;
class ModelInstanceGroup;

struct MeshNode {
  int index = 0;       // position in its skeleton's node list
  std::string name;    // from the file, node_<index> when it had none
  int bone = -1;       // the bone it corresponds to, -1 if none
};

// What a Skeleton views: some bones of a shared Model, in an order of their own.
struct SkeletonNodes {
  std::shared_ptr<SharedModel> shared;
  std::vector<int> model_nodes;    // per node: its Model node
  std::vector<int> node_bones;     // per node: the mesh bone it is, -1 if none
  std::vector<const Mesh*> meshes; // the meshes posed on this skeleton (apply_bind_pose)

  std::size_t size() const noexcept { return model_nodes.size(); }
  // The node's name: its Model node's, "root" for the synthetic root, node_<index> when empty.
  std::string name(std::size_t node) const;
  // The node that is this Model node, or -1.
  int node_of(int model_bone) const noexcept;
};

class Skeleton {
 public:
  Skeleton() = default;
  explicit Skeleton(std::shared_ptr<const SkeletonNodes> nodes) : nodes_(std::move(nodes)) {}

  std::size_t node_count() const noexcept { return nodes_ ? nodes_->size() : 0; }
  // Throws std::out_of_range naming the index or name (the seed's KeyNotFoundException).
  MeshNode node(std::size_t index) const;
  MeshNode node(std::string_view name) const;
  MeshNode operator[](std::size_t index) const { return node(index); }
  MeshNode operator[](std::string_view name) const { return node(name); }
  std::optional<MeshNode> try_get_node_by_name(std::string_view name) const;

  // Model-space transform(s) in the bind pose (relative to the model's origin: multiply by an
  // instance's transform for world space). Without a skeleton: identities. The span forms
  // throw std::invalid_argument when out is smaller than the input, std::out_of_range for an
  // index outside the skeleton.
  void get_bind_pose_node_transforms(const MeshNode& node, glm::mat4& out) const;
  void get_bind_pose_node_transforms(std::span<const MeshNode> nodes, std::span<glm::mat4> out) const;
  void get_bind_pose_node_transforms(std::span<const int> indices, std::span<glm::mat4> out) const;

  // The same in an instance's current pose: what its last animation player (its own, or its
  // group's) evaluated, read from the Model that player posed (ModelInstance::posed_model) by
  // the node's Model node when that is this skeleton's Model, else by the node's name (a mesh
  // and another file's table name their nodes alike). The bind pose before any player, after
  // apply_bind_pose, or when the posed Model has no node of that name. Throws as the bind-pose
  // forms.
  glm::mat4 posed_node_transform(const ModelInstance& instance, const MeshNode& node) const;
  glm::mat4 posed_node_transform(const ModelInstance& instance, std::string_view name) const {
    return posed_node_transform(instance, this->node(name));
  }
  void get_posed_node_transforms(const ModelInstance& instance, std::span<const MeshNode> nodes,
                                 std::span<glm::mat4> out) const;

  // T6: returns the instance to its bind pose if its mesh uses this skeleton (or belongs to the
  // table this skeleton is); every such instance of a group; others are untouched.
  void apply_bind_pose(ModelInstance& instance) const;
  void apply_bind_pose(ModelInstanceGroup& group) const;

  const SkeletonNodes* nodes() const noexcept { return nodes_.get(); }

 private:
  std::size_t checked(int index) const;
  std::shared_ptr<const SkeletonNodes> nodes_;
};

}  // namespace marrow::asset
