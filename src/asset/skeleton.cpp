#include "marrow/asset/skeleton.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "marrow/asset/model_instance.hpp"

namespace marrow::asset {

std::string SkeletonNodes::name(std::size_t node) const {
  const int bone = model_nodes[node];
  if (bone == 0) return "root";
  const std::string& name = shared->model.nodes[static_cast<std::size_t>(bone)].name;
  return name.empty() ? "node_" + std::to_string(node) : name;
}

int SkeletonNodes::node_of(int model_bone) const noexcept {
  for (std::size_t i = 0; i < model_nodes.size(); ++i) {
    if (model_nodes[i] == model_bone) return static_cast<int>(i);
  }
  return -1;
}

namespace {

MeshNode describe(const SkeletonNodes& nodes, std::size_t index) {
  return MeshNode{static_cast<int>(index), nodes.name(index), nodes.node_bones[index]};
}

}  // namespace

std::size_t Skeleton::checked(int index) const {
  if (index < 0 || static_cast<std::size_t>(index) >= node_count()) {
    throw std::out_of_range("Skeleton: node " + std::to_string(index) + " of " + std::to_string(node_count()));
  }
  return static_cast<std::size_t>(index);
}

MeshNode Skeleton::node(std::size_t index) const {
  if (index >= node_count()) {
    throw std::out_of_range("Skeleton: node " + std::to_string(index) + " of " + std::to_string(node_count()));
  }
  return describe(*nodes_, index);
}

MeshNode Skeleton::node(std::string_view name) const {
  if (auto found = try_get_node_by_name(name)) return *found;
  throw std::out_of_range("Skeleton: no node named '" + std::string(name) + "'");
}

std::optional<MeshNode> Skeleton::try_get_node_by_name(std::string_view name) const {
  for (std::size_t i = 0; i < node_count(); ++i) {
    if (nodes_->name(i) == name) return describe(*nodes_, i);
  }
  return std::nullopt;
}

void Skeleton::get_bind_pose_node_transforms(const MeshNode& node, glm::mat4& out) const {
  if (!nodes_) {
    out = glm::mat4(1.f);
    return;
  }
  out = nodes_->shared->bind_worlds[static_cast<std::size_t>(nodes_->model_nodes[checked(node.index)])];
}

void Skeleton::get_bind_pose_node_transforms(std::span<const MeshNode> nodes, std::span<glm::mat4> out) const {
  if (out.size() < nodes.size()) {
    throw std::invalid_argument("Skeleton::get_bind_pose_node_transforms: " + std::to_string(out.size()) +
                                " outputs for " + std::to_string(nodes.size()) + " nodes");
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) get_bind_pose_node_transforms(nodes[i], out[i]);
}

void Skeleton::get_bind_pose_node_transforms(std::span<const int> indices, std::span<glm::mat4> out) const {
  if (out.size() < indices.size()) {
    throw std::invalid_argument("Skeleton::get_bind_pose_node_transforms: " + std::to_string(out.size()) +
                                " outputs for " + std::to_string(indices.size()) + " indices");
  }
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] < 0) throw std::out_of_range("Skeleton: node index " + std::to_string(indices[i]) + " is negative");
    get_bind_pose_node_transforms(MeshNode{indices[i], {}, -1}, out[i]);
  }
}

glm::mat4 Skeleton::posed_node_transform(const ModelInstance& instance, const MeshNode& node) const {
  glm::mat4 bind;
  get_bind_pose_node_transforms(node, bind);  // also checks the index
  const Model* posed = instance.posed_model();
  if (!nodes_ || posed == nullptr) return bind;
  const std::span<const glm::mat4> worlds = instance.node_transforms();
  const auto index = static_cast<std::size_t>(node.index);
  if (posed == &nodes_->shared->model) return worlds[static_cast<std::size_t>(nodes_->model_nodes[index])];
  const std::string name = nodes_->name(index);
  for (std::size_t b = 1; b < posed->nodes.size(); ++b) {
    if (posed->nodes[b].name == name) return worlds[b];
  }
  return bind;
}

void Skeleton::get_posed_node_transforms(const ModelInstance& instance, std::span<const MeshNode> nodes,
                                         std::span<glm::mat4> out) const {
  if (out.size() < nodes.size()) {
    throw std::invalid_argument("Skeleton::get_posed_node_transforms: " + std::to_string(out.size()) + " outputs for " +
                                std::to_string(nodes.size()) + " nodes");
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) out[i] = posed_node_transform(instance, nodes[i]);
}

void Skeleton::apply_bind_pose(ModelInstance& instance) const {
  if (!nodes_) return;  // T7: nothing to do without a skeleton
  for (const Mesh* mesh : nodes_->meshes) {
    if (mesh == &instance.mesh()) {
      instance.apply_bind_pose();
      return;
    }
  }
}

void Skeleton::apply_bind_pose(ModelInstanceGroup& group) const {
  for (ModelInstance& instance : group.instances()) apply_bind_pose(instance);
}

}  // namespace marrow::asset
