#include "marrow/asset/mesh_animation.hpp"

#include <stdexcept>

namespace marrow::asset {

namespace {

MeshAnimation describe(const SkeletalRig& rig, std::size_t index) {
  const RigAnimation& a = rig.animations[index];
  return MeshAnimation{static_cast<int>(index), a.name, MeshAnimationType::Skeletal, a.default_duration_seconds};
}

}  // namespace

MeshAnimation Animations::operator[](std::size_t index) const {
  if (index >= size()) {
    throw std::out_of_range("Animations: index " + std::to_string(index) + " of " + std::to_string(size()));
  }
  return describe(*rig_, index);
}

MeshAnimation Animations::operator[](std::string_view name) const {
  if (auto found = try_get_animation_by_name(name)) return *found;
  throw std::out_of_range("Animations: no animation named '" + std::string(name) + "'");
}

std::optional<MeshAnimation> Animations::try_get_animation_by_name(std::string_view name) const {
  for (std::size_t i = 0; i < size(); ++i) {
    if (rig_->animations[i].name == name) return describe(*rig_, i);
  }
  return std::nullopt;
}

}  // namespace marrow::asset
