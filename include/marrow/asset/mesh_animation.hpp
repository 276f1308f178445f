#pragma once
// The animations of a mesh or an animation table (T8): by index and by name (throwing and try_
// forms), each with its type and default duration.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "marrow/asset/skeletal_rig.hpp"

namespace marrow::asset {

enum class MeshAnimationType { Skeletal };

struct MeshAnimation {
  int index = 0;                          // in its mesh's or table's animation list
  std::string name;
  MeshAnimationType type = MeshAnimationType::Skeletal;
  float default_duration_seconds = 0.f;   // how long it takes at its authored speed
};

class Animations {
 public:
  Animations() = default;
  explicit Animations(std::shared_ptr<const SkeletalRig> rig) : rig_(std::move(rig)) {}

  std::size_t size() const noexcept { return rig_ ? rig_->animations.size() : 0; }
  bool empty() const noexcept { return size() == 0; }
  // Throws std::out_of_range naming the index or the name (the seed's KeyNotFoundException).
  MeshAnimation operator[](std::size_t index) const;
  MeshAnimation operator[](std::string_view name) const;
  std::optional<MeshAnimation> try_get_animation_by_name(std::string_view name) const;
  // Every animation of marrow's asset API is skeletal: the same list.
  const Animations& skeletal() const noexcept { return *this; }

  const SkeletalRig* rig() const noexcept { return rig_.get(); }

 private:
  std::shared_ptr<const SkeletalRig> rig_;
};

}  // namespace marrow::asset
