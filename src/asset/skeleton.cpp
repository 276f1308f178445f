#include "marrow/asset/skeleton.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "marrow/asset/model_instance.hpp"

namespace marrow::asset {

namespace {

MeshNode describe(const SkeletalRig& rig, std::size_t index) {
  return MeshNode{static_cast<int>(index), rig.nodes[index].name, rig.nodes[index].bone};
}

}  // namespace

MeshNode Skeleton::node(std::size_t index) const {
  if (index >= node_count()) {
    throw std::out_of_range("Skeleton: node " + std::to_string(index) + " of " + std::to_string(node_count()));
  }
  return describe(*rig_, index);
}

MeshNode Skeleton::node(std::string_view name) const {
  if (auto found = try_get_node_by_name(name)) return *found;
  throw std::out_of_range("Skeleton: no node named '" + std::string(name) + "'");
}

std::optional<MeshNode> Skeleton::try_get_node_by_name(std::string_view name) const {
  for (std::size_t i = 0; i < node_count(); ++i) {
    if (rig_->nodes[i].name == name) return describe(*rig_, i);
  }
  return std::nullopt;
}

glm::mat4 Skeleton::bind_transform(std::size_t index) const {
  if (!rig_) return glm::mat4(1.f);
  if (index >= rig_->nodes.size()) {
    throw std::out_of_range("Skeleton: node " + std::to_string(index) + " of " + std::to_string(rig_->nodes.size()));
  }
  return rig_->bind_worlds[index];
}

void Skeleton::get_bind_pose_node_transforms(const MeshNode& node, glm::mat4& out) const {
  out = rig_ ? bind_transform(static_cast<std::size_t>(node.index)) : glm::mat4(1.f);
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
    out[i] = rig_ ? bind_transform(static_cast<std::size_t>(indices[i])) : glm::mat4(1.f);
  }
}

glm::mat4 Skeleton::posed_node_transform(const ModelInstance& instance, const MeshNode& node) const {
  if (!rig_) return glm::mat4(1.f);
  if (node.index < 0) throw std::out_of_range("Skeleton: node index " + std::to_string(node.index) + " is negative");
  const auto index = static_cast<std::size_t>(node.index);
  const glm::mat4 bind = bind_transform(index);  // also checks the index
  const SkeletalRig* posed = instance.posed_rig();
  const std::span<const glm::mat4> worlds = instance.node_transforms();
  if (posed == nullptr) return bind;
  if (posed == rig_.get()) return worlds[index];
  const std::string& name = rig_->nodes[index].name;
  for (std::size_t i = 0; i < posed->nodes.size(); ++i) {
    if (posed->nodes[i].name == name) return worlds[i];
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
  if (!rig_) return;  // T7: nothing to do without a skeleton
  for (const Mesh* mesh : rig_->meshes) {
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
