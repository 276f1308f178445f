#include "marrow/model/skin.hpp"

namespace marrow {

Skin sized_skin(std::size_t joints, std::size_t scene_nodes) {
  Skin skin;
  SkinningData& data = skin.data;
  data.bone_count = static_cast<int>(joints);
  data.skeleton_hierarchy.resize(joints);
  data.bind_pose.resize(joints);
  data.inverse_bind_pose.resize(joints);
  data.skeleton_root_prefix.assign(joints, glm::mat4(1.f));
  skin.palette_to_scene.resize(joints);
  skin.source_joints.resize(joints);
  skin.scene_to_palette.assign(scene_nodes, -1);
  return skin;
}

}  // namespace marrow
