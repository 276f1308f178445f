#include "marrow/asset/animation_table.hpp"

#include <stdexcept>
#include <string>

namespace marrow::asset {

const std::vector<int>* AnimationTable::bone_nodes(const Mesh& mesh) const noexcept {
  for (const Member& m : members_) {
    if (m.mesh == &mesh) return &m.bone_nodes;
  }
  return nullptr;
}

void AnimationTable::add_member(const Mesh& mesh) {
  if (!mesh.is_skeletal() || contains(mesh)) return;
  const SkeletalRig& own = *mesh.rig();
  Member member{&mesh, {}};
  for (std::size_t b = 0; b < own.bone_count(); ++b) {
    const std::string& name = own.nodes[static_cast<std::size_t>(own.bone_nodes[b])].name;
    int found = -1;
    for (std::size_t n = 0; n < rig_->nodes.size() && found < 0; ++n) {
      if (rig_->nodes[n].name == name) found = static_cast<int>(n);
    }
    if (found < 0) {
      throw std::invalid_argument("AnimationTable: bone " + std::to_string(b) + " of mesh '" + mesh.name() +
                                  "' (node '" + name + "') has no node of that name in the table");
    }
    member.bone_nodes.push_back(found);
  }
  add_member(mesh, std::move(member.bone_nodes));
}

void AnimationTable::add_member(const Mesh& mesh, std::vector<int> bone_nodes) {
  if (!mesh.is_skeletal() || contains(mesh)) return;
  if (bone_nodes.size() != mesh.rig()->bone_count()) {
    throw std::invalid_argument("AnimationTable: " + std::to_string(bone_nodes.size()) + " nodes for the " +
                                std::to_string(mesh.rig()->bone_count()) + " bones of mesh '" + mesh.name() + "'");
  }
  for (int n : bone_nodes) {
    if (n < 0 || static_cast<std::size_t>(n) >= rig_->nodes.size()) {
      throw std::invalid_argument("AnimationTable: node " + std::to_string(n) + " of " + std::to_string(rig_->nodes.size()));
    }
  }
  members_.push_back(Member{&mesh, std::move(bone_nodes)});
  rig_->meshes.push_back(&mesh);
}

}  // namespace marrow::asset
