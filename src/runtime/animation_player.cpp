#include "marrow/runtime/animation_player.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>



namespace marrow {

namespace {

// world = parent world * local (roots: prefix * local), skin = world * inverse bind. Returns the
// first bone whose parent is not before it (the size when there is none).
std::size_t compose_world_and_skin(const SkinningData& d, std::span<const glm::mat4> prefixes,
                                   std::span<const glm::mat4> local, std::span<glm::mat4> world,
                                   std::span<glm::mat4> skin) {
  const std::size_t n = local.size();
  const bool prefix = prefixes.size() == n && n > 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = d.skeleton_hierarchy[i];
    if (parent < 0) {
      world[i] = prefix ? prefixes[i] * local[i] : local[i];
    } else if (static_cast<std::size_t>(parent) < i) {
      world[i] = world[static_cast<std::size_t>(parent)] * local[i];
    } else {
      return i;
    }
  }
  for (std::size_t i = 0; i < n; ++i) skin[i] = world[i] * d.inverse_bind_pose[i];
  return n;
}

}  // namespace

AnimationPlayer::AnimationPlayer(const SkinningData& data) : data_(data) {
  validate(data);  // refuses a negative bone_count before the vectors below are sized
  const auto n = static_cast<std::size_t>(data.bone_count);
  local_ = data.bind_pose;
  world_.resize(n);
  skin_.resize(n);
  recompute();
}

void AnimationPlayer::start_clip(const AnimationClip& clip) {
  if (clip.target_space != ClipTargetSpace::JointPalette) {
    throw std::invalid_argument("AnimationPlayer::start_clip: clip '" + clip.name +
                                "' targets scene nodes; use apply_clip_to_bones");
  }
  validate_clip(clip);
  clip_ = &clip;
  cursors_.assign(clip.tracks.size(), TrackCursor{});
  // Bones no usable track writes keep their bind pose; only they are reset each frame.
  std::vector<bool> tracked(local_.size(), false);
  for (const BoneTrack& track : clip.tracks) {
    if (!track.keys.empty() && track.bone_index >= 0 && static_cast<std::size_t>(track.bone_index) < tracked.size()) {
      tracked[static_cast<std::size_t>(track.bone_index)] = true;
    }
  }
  untracked_.clear();
  for (std::size_t i = 0; i < tracked.size(); ++i) {
    if (!tracked[i]) untracked_.push_back(i);
  }
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
  cursors_.clear();
  untracked_.clear();
  current_time_ = Ticks{0};
  recompute();
}

void AnimationPlayer::update(Ticks time, bool relative_to_current_time, bool loop) {
  Ticks t = relative_to_current_time ? saturating_add(current_time_, time) : time;
  if (clip_ == nullptr || clip_->duration <= Ticks{0}) {
    t = Ticks{0};
  } else if (loop) {
    t = floor_mod(t, clip_->duration);
  } else {
    t = std::clamp(t, Ticks{0}, clip_->duration);
  }
  current_time_ = t;
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

  // P5: every bone starts at its bind pose; tracked bones are then overwritten by the sampler.
  if (clip_ == nullptr) {
    std::copy(d.bind_pose.begin(), d.bind_pose.end(), local_.begin());
  } else {
    for (std::size_t i : untracked_) local_[i] = d.bind_pose[i];
    sample_tracks(clip_->tracks, current_time_, cursors_, local_);
  }

  // P7/P8: compose in index order; roots take the prefix when it has exactly n entries.
  // P8: the data's prefix when it has exactly n entries, unless an instance supplied its own.
  const std::span<const glm::mat4> prefixes =
      !prefix_override_.empty() ? prefix_override_
      : has_root_prefix(d)      ? std::span<const glm::mat4>(d.skeleton_root_prefix)
                                : std::span<const glm::mat4>();
  const std::size_t bad = compose_world_and_skin(d, prefixes, local_, world_, skin_);
  if (bad < n) {
    throw std::invalid_argument("AnimationPlayer: skeleton_hierarchy[" + std::to_string(bad) + "] = " +
                                std::to_string(d.skeleton_hierarchy[bad]) + " is not before bone " + std::to_string(bad));
  }
}

}  // namespace marrow
