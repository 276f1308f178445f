#include "marrow/runtime/animation_player.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"

namespace marrow {

AnimationPlayer::AnimationPlayer(const SkinningData& data) : data_(data) {
  validate(data);  // refuses a negative bone_count before the vectors below are sized
  const auto n = static_cast<std::size_t>(data.bone_count);
  local_ = data.bind_pose;
  world_.resize(n);
  skin_.resize(n);
  pose_.resize(pose_block_count(n));
  context_.resize(n);
  recompute();
}

void AnimationPlayer::start_clip(const AnimationClip& clip) {
  if (clip.target_space != ClipTargetSpace::JointPalette) {
    throw std::invalid_argument("AnimationPlayer::start_clip: clip '" + clip.name +
                                "' targets scene nodes; use apply_clip_to_bones");
  }
  runtime_clip_ = compile_clip(clip, data_.bind_pose);  // validate_clip's checks, then the layout
  clip_ = &clip;
  // Bones no usable track drives keep their exact bind matrix (not its T/R/S round trip).
  untracked_.clear();
  for (std::size_t i = 0; i < runtime_clip_.joint_count(); ++i) {
    if (!runtime_clip_.animated(i)) untracked_.push_back(i);
  }
  std::copy(data_.bind_pose.begin(), data_.bind_pose.end(), local_.begin());
  current_time_ = Ticks{0};
  recompute();
}

void AnimationPlayer::set_root_prefixes(std::span<const glm::mat4> prefixes) {
  if (!prefixes.empty() && prefixes.size() != local_.size()) {
    throw std::invalid_argument("AnimationPlayer::set_root_prefixes: " + std::to_string(prefixes.size()) +
                                " prefixes for " + std::to_string(local_.size()) + " bones");
  }
  prefix_override_ = prefixes;
}

void AnimationPlayer::stop_clip() {
  clip_ = nullptr;
  runtime_clip_ = RuntimeClip{};
  untracked_.clear();
  std::copy(data_.bind_pose.begin(), data_.bind_pose.end(), local_.begin());
  current_time_ = Ticks{0};
  recompute();
}

void AnimationPlayer::update(Ticks time, bool relative_to_current_time, bool loop) {
  const Ticks t = relative_to_current_time ? saturating_add(current_time_, time) : time;
  current_time_ = playback_time(t, clip_ != nullptr ? clip_->duration : Ticks{0}, loop);
  recompute();
}

void AnimationPlayer::recompute() {
  const SkinningData& d = data_;
  const std::size_t n = local_.size();
  // The data is held by reference and may have been edited since construction (P4).
  if (d.bone_count < 0 || static_cast<std::size_t>(d.bone_count) != n || d.skeleton_hierarchy.size() != n ||
      d.bind_pose.size() != n || d.inverse_bind_pose.size() != n) {
    throw std::invalid_argument("AnimationPlayer: SkinningData arrays no longer match bone_count " +
                                std::to_string(d.bone_count));
  }

  // P5/P6: tracked bones from the sampling job; the others keep their bind pose.
  if (clip_ != nullptr) {
    SamplingJob sampling{&runtime_clip_, current_time_, &context_, pose_, /*exact_slerp=*/false};
    sampling.run();  // valid by construction: the context and pose are sized for the skeleton
    pose_to_matrices(pose_, local_);
    for (std::size_t i : untracked_) local_[i] = d.bind_pose[i];
  }

  // P7/P8: compose in index order; roots take the prefix when it has exactly n entries, unless
  // an instance supplied its own.
  const std::span<const glm::mat4> prefixes =
      !prefix_override_.empty() ? prefix_override_
      : has_root_prefix(d)      ? std::span<const glm::mat4>(d.skeleton_root_prefix)
                                : std::span<const glm::mat4>();
  LocalToModelJob compose;
  compose.parents = d.skeleton_hierarchy;
  compose.local_matrices = local_;
  compose.root_prefix = prefixes;
  compose.models = world_;
  if (!compose.run()) throw_if_invalid(compose.validate(), "AnimationPlayer (skeleton_hierarchy)");
  SkinPaletteJob palette;
  palette.models = world_;
  palette.inverse_binds = d.inverse_bind_pose;
  palette.palette = skin_;
  palette.run();
}

}  // namespace marrow
