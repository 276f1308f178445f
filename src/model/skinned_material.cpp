#include "marrow/model/skinned_material.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace marrow {

SkinnedMaterial::SkinnedMaterial(int max_bones) {
  if (max_bones <= 0) {
    throw std::invalid_argument("SkinnedMaterial: max_bones " + std::to_string(max_bones) + " is not positive");
  }
  palette_.assign(static_cast<std::size_t>(max_bones), glm::mat4(1.f));
}

void SkinnedMaterial::set_bone_transforms(std::span<const glm::mat4> transforms) {
  if (transforms.size() > palette_.size()) {
    throw std::invalid_argument("SkinnedMaterial::set_bone_transforms: " + std::to_string(transforms.size()) +
                                " matrices for a palette of " + std::to_string(palette_.size()));
  }
  std::copy(transforms.begin(), transforms.end(), palette_.begin());
  ++installs_;
}

void SkinnedMaterial::set_bone_transforms(std::span<const glm::mat4> palette, std::span<const std::uint32_t> joints) {
  if (joints.size() > palette_.size()) {
    throw std::invalid_argument("SkinnedMaterial::set_bone_transforms: " + std::to_string(joints.size()) +
                                " joints for a palette of " + std::to_string(palette_.size()));
  }
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (joints[i] >= palette.size()) {
      throw std::invalid_argument("SkinnedMaterial::set_bone_transforms: joint " + std::to_string(i) + " = " +
                                  std::to_string(joints[i]) + " is not below the palette's " +
                                  std::to_string(palette.size()) + " matrices");
    }
    palette_[i] = palette[joints[i]];
  }
  ++installs_;
}

}  // namespace marrow
