#include "marrow/asset/mesh_animation.hpp"

#include <stdexcept>

namespace marrow::asset {

namespace {

MeshAnimation describe(const Model& model, std::size_t index) {
  const ModelAnimation& a = model.animations[index];
  return MeshAnimation{static_cast<int>(index), a.name, MeshAnimationType::Skeletal,
                       static_cast<float>(seconds_from_ticks(a.duration))};
}

}  // namespace

MeshAnimation Animations::operator[](std::size_t index) const {
  if (index >= size()) {
    throw std::out_of_range("Animations: index " + std::to_string(index) + " of " + std::to_string(size()));
  }
  return describe(*model(), index);
}

MeshAnimation Animations::operator[](std::string_view name) const {
  if (auto found = try_get_animation_by_name(name)) return *found;
  throw std::out_of_range("Animations: no animation named '" + std::string(name) + "'");
}

std::optional<MeshAnimation> Animations::try_get_animation_by_name(std::string_view name) const {
  for (std::size_t i = 0; i < size(); ++i) {
    if (model()->animations[i].name == name) return describe(*model(), i);
  }
  return std::nullopt;
}

}  // namespace marrow::asset
