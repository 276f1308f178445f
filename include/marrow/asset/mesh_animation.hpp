#pragma once
// The animations of a mesh or an animation table (T8): by index and by name (throwing and try_
// forms), each with its type and default duration. They are the animations of the Model the
// skeleton views (ModelAnimation: index, name, duration).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "marrow/asset/skeleton.hpp"

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
  explicit Animations(std::shared_ptr<const SkeletonNodes> nodes) : nodes_(std::move(nodes)) {}

  std::size_t size() const noexcept { return nodes_ ? nodes_->shared->model.animations.size() : 0; }
  bool empty() const noexcept { return size() == 0; }
  // Throws std::out_of_range naming the index or the name (the seed's KeyNotFoundException).
  MeshAnimation operator[](std::size_t index) const;
  MeshAnimation operator[](std::string_view name) const;
  std::optional<MeshAnimation> try_get_animation_by_name(std::string_view name) const;
  // Every animation of marrow's asset API is skeletal: the same list.
  const Animations& skeletal() const noexcept { return *this; }

  // The Model whose animations these are (null: none).
  const Model* model() const noexcept { return nodes_ ? &nodes_->shared->model : nullptr; }

 private:
  std::shared_ptr<const SkeletonNodes> nodes_;
};

}  // namespace marrow::asset
