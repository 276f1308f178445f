#include "marrow/asset/model_pose.hpp"

namespace marrow::asset {

const Animator& ModelPose::evaluate_animator(const SharedModel& shared, int animation, float seconds) {
  if (!animator_ || shared_ != &shared || compiled_ != shared.compiled) {
    animator_ = std::make_unique<Animator>(shared.compiled);
    compiled_ = shared.compiled;
    shared_ = &shared;
    playing_ = -1;
  }
  if (playing_ != animation) {
    animator_->play(animation, PlayOptions{.loop = LoopMode::Once});
    playing_ = animation;
  }
  // Once clamps the time to the clip: keys hold outside it, as the seed's players do.
  animator_->update(ticks_from_seconds(seconds), false, false);
  return *animator_;
}

}  // namespace marrow::asset
