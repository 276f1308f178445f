#pragma once
// How the asset layer poses (not part of the seed-003 API): a Model at one animation's time, as
// the instance and group players and the bounds evaluate it, through the model layer's frame (an
// Animator) rather than a second sampler and compose of their own.
#include <memory>
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/asset/shared_model.hpp"
#include "marrow/model/animator.hpp"

namespace marrow::asset {

class ModelPose {
 public:
  ModelPose() = default;
  // A copy starts without an Animator (one is made on its first evaluate).
  ModelPose(const ModelPose&) noexcept {}
  ModelPose& operator=(const ModelPose&) noexcept {
    animator_.reset();
    return *this;
  }
  ModelPose(ModelPose&&) noexcept = default;
  ModelPose& operator=(ModelPose&&) noexcept = default;
  ~ModelPose() = default;

  // Model space transforms of every Model node at `seconds` into the animation, held at its
  // first or last frame outside [0, duration]. The Animator is made on first use and made again
  // when the model's compiled animations changed (MeshBuilder::attach_animation).
  std::span<const glm::mat4> evaluate(const SharedModel& shared, int animation, float seconds);

 private:
  std::unique_ptr<Animator> animator_;
  std::shared_ptr<const CompiledAnimations> compiled_;
  const SharedModel* shared_ = nullptr;
  int playing_ = -1;
};

// The block a pose is written to, which `holders` share: in place unless someone else still
// holds the last pose (a copy of an instance or a group), which then keeps it unchanged while
// the pose goes to a fresh block (an allocation only after such a copy).
std::vector<glm::mat4>& writable_pose(std::shared_ptr<std::vector<glm::mat4>>& block, long holders, std::size_t size);

}  // namespace marrow::asset
