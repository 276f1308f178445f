#pragma once
// How the asset layer poses (not part of the seed-003 API): a Model at one animation's time, as
// the instance and group players and the bounds evaluate it, through the model layer's frame (an
// Animator) rather than a second sampler and compose of their own.
#include <memory>
#include <span>

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
  // The Animator posed there (what evaluate returns comes from it).
  const Animator& evaluate_animator(const SharedModel& shared, int animation, float seconds);
  std::span<const glm::mat4> evaluate(const SharedModel& shared, int animation, float seconds) {
    return evaluate_animator(shared, animation, seconds).absolute_bone_transforms();
  }
  // The last evaluation's Model node transforms (empty before the first).
  std::span<const glm::mat4> worlds() const noexcept {
    return animator_ ? animator_->absolute_bone_transforms() : std::span<const glm::mat4>();
  }

 private:
  std::unique_ptr<Animator> animator_;
  std::shared_ptr<const CompiledModel> compiled_;
  const SharedModel* shared_ = nullptr;
  int playing_ = -1;
};

}  // namespace marrow::asset
