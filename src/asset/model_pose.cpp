#include "marrow/asset/model_pose.hpp"

namespace marrow::asset {

std::span<const glm::mat4> ModelPose::evaluate(const SharedModel& shared, int animation, float seconds) {
  if (!animator_ || shared_ != &shared || compiled_ != shared.animations) {
    animator_ = std::make_unique<Animator>(shared.model, shared.animations);
    compiled_ = shared.animations;
    shared_ = &shared;
    playing_ = -1;
  }
  if (playing_ != animation) {
    animator_->play(animation, PlayOptions{.loop = LoopMode::Once});
    playing_ = animation;
  }
  // Once clamps the time to the clip: keys hold outside it, as the seed's players do.
  animator_->update(ticks_from_seconds(seconds), false, false);
  return animator_->absolute_bone_transforms();
}

std::vector<glm::mat4>& writable_pose(std::shared_ptr<std::vector<glm::mat4>>& block, long holders, std::size_t size) {
  if (!block || block.use_count() > holders) block = std::make_shared<std::vector<glm::mat4>>(size);
  block->resize(size);
  return *block;
}

}  // namespace marrow::asset
