#include "marrow/model/bind_pose_palette.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "marrow/runtime/animation_player.hpp"

namespace marrow {

namespace {

// Installs the palette once per distinct material of the given meshes.
int install(Model& model, const std::vector<int>& meshes, std::span<const glm::mat4> palette) {
  std::vector<const SkinnedMaterial*> done;
  for (int m : meshes) {
    if (m < 0 || static_cast<std::size_t>(m) >= model.meshes.size()) continue;
    for (ModelMeshPart& part : model.meshes[static_cast<std::size_t>(m)].parts) {
      SkinnedMaterial* material = part.skinned_material.get();
      if (material == nullptr || std::find(done.begin(), done.end(), material) != done.end()) continue;
      if (part.palette_joints.empty()) {
        material->set_bone_transforms(palette);
      } else {
        material->set_bone_transforms(palette, part.palette_joints);  // a split part's sub-palette (S4)
      }
      done.push_back(material);
    }
  }
  return static_cast<int>(done.size());
}

}  // namespace

int apply_bind_pose_bone_transforms(Model& model, std::size_t skin_index) {
  if (skin_index >= model.skins.size()) {
    throw std::out_of_range("apply_bind_pose_bone_transforms: skin " + std::to_string(skin_index) + " of " +
                            std::to_string(model.skins.size()));
  }
  const Skin& skin = model.skins[skin_index];
  const AnimationPlayer player(skin.data);
  return install(model, skin.meshes, player.skin_transforms());
}

int apply_bind_pose_bone_transforms(Model& model, const SkinningData& data) {
  const AnimationPlayer player(data);
  std::vector<int> all(model.meshes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  return install(model, all, player.skin_transforms());
}

}  // namespace marrow
