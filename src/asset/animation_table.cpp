#include "marrow/asset/animation_table.hpp"

#include <stdexcept>
#include <string>

namespace marrow::asset {

AnimationTable::AnimationTable(std::shared_ptr<SkeletonNodes> nodes) : nodes_(std::move(nodes)) {
  if (!nodes_ || !nodes_->shared) throw std::invalid_argument("AnimationTable: no skeleton");
}

std::shared_ptr<AnimationTable> AnimationTable::of(const Mesh& mesh) {
  if (!mesh.is_skeletal()) {
    throw std::invalid_argument("AnimationTable::of: mesh '" + mesh.name() + "' has no skeletal data");
  }
  auto nodes = std::make_shared<SkeletonNodes>(*mesh.skeleton_nodes());
  nodes->meshes.clear();
  auto table = std::make_shared<AnimationTable>(std::move(nodes));
  table->add_member(mesh);
  return table;
}

const std::vector<int>* AnimationTable::bone_model_nodes(const Mesh& mesh) const noexcept {
  for (const Member& m : members_) {
    if (m.mesh == &mesh) return &m.model_nodes;
  }
  return nullptr;
}

void AnimationTable::add_member(const Mesh& mesh) {
  if (!mesh.is_skeletal() || contains(mesh)) return;
  const bool same_model = &mesh.shared() == nodes_->shared.get();
  std::vector<int> bone_nodes;
  for (std::size_t b = 0; b < mesh.bone_count(); ++b) {
    const int model_bone = mesh.bone_model_nodes()[b];
    int found = same_model ? nodes_->node_of(model_bone) : -1;
    if (found >= 0) {
      bone_nodes.push_back(found);
      continue;
    }
    const int own_node = mesh.skeleton_nodes()->node_of(model_bone);
    const std::string name = own_node >= 0 ? mesh.skeleton_nodes()->name(static_cast<std::size_t>(own_node)) : std::string();
    for (std::size_t n = 0; n < nodes_->size() && found < 0; ++n) {
      if (nodes_->name(n) == name) found = static_cast<int>(n);
    }
    if (found < 0) {
      throw std::invalid_argument("AnimationTable: bone " + std::to_string(b) + " of mesh '" + mesh.name() +
                                  "' (node '" + name + "') has no node of that name in the table");
    }
    bone_nodes.push_back(found);
  }
  add_member(mesh, bone_nodes);
}

void AnimationTable::add_member(const Mesh& mesh, const std::vector<int>& bone_nodes) {
  if (!mesh.is_skeletal() || contains(mesh)) return;
  if (bone_nodes.size() != mesh.bone_count()) {
    throw std::invalid_argument("AnimationTable: " + std::to_string(bone_nodes.size()) + " nodes for the " +
                                std::to_string(mesh.bone_count()) + " bones of mesh '" + mesh.name() + "'");
  }
  Member member{&mesh, {}};
  for (int n : bone_nodes) {
    if (n < 0 || static_cast<std::size_t>(n) >= nodes_->size()) {
      throw std::invalid_argument("AnimationTable: node " + std::to_string(n) + " of " + std::to_string(nodes_->size()));
    }
    member.model_nodes.push_back(nodes_->model_nodes[static_cast<std::size_t>(n)]);
  }
  members_.push_back(std::move(member));
  nodes_->meshes.push_back(&mesh);
}

}  // namespace marrow::asset
