// The Animator's scene pose, gathered (animator.hpp): where each node's local is read this frame
// (sources_), the block table over the frame's poses (blocks_), the one compose of the scene,
// and the local matrices made for a caller who asks for them.
#include <algorithm>

#include "marrow/model/animator.hpp"
#include "marrow/runtime/local_to_model_job.hpp"

#include "gathered_locals.hpp"

namespace marrow {

// Rigid nodes some playing clip drives read the rigid pose; a skin's joints that a playing clip
// drives (every joint while inertializing: an offset may show on any) read the skin's pose, the
// last skin for a node of several; every other node reads its loaded transform, exactly.
void Animator::refresh_sources(bool inertial) {
  std::fill(sources_.begin(), sources_.end(), kLocalMatrix);
  for (const std::uint32_t n : scene_animated_) sources_[n] = scene_lane_ + n;
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    const std::span<const int> nodes = skins_[s].shared->joint_to_scene;
    skins_[s].read = false;
    for (std::size_t p = 0; p < nodes.size(); ++p) {
      if (nodes[p] >= 0 && (inertial || joint_driven(s, p))) {
        sources_[static_cast<std::size_t>(nodes[p])] = skins_[s].lane + static_cast<std::uint32_t>(p);
        skins_[s].read = true;
      }
    }
  }
  ik_touched_.clear();  // IK's lanes are read no more
  ik_used_ = 0;
  sources_inertial_ = inertial;
}

// A frame pose's blocks in the table (for bone_transforms() after the frame) and, when a node
// reads them, as matrices in the frame's scratch (what the compose reads).
void Animator::point_blocks(std::uint32_t lane, std::span<const TrsBlock> pose, std::size_t blocks, bool read) {
  const std::size_t first = lane / kPoseLanes;
  for (std::size_t b = 0; b < blocks; ++b) blocks_[first + b] = &pose[b];
  if (read) pose_to_matrices(pose.first(blocks), frame_matrices_.subspan(lane, blocks * kPoseLanes));
}

namespace {

// The thread's scratch of local matrices (what a frame's poses become before the compose): it
// grows to the largest model a thread poses, once, and is shared by every Animator the thread
// updates, so that no instance keeps 64 bytes per node of its own.
std::span<glm::mat4> thread_frame_matrices(std::size_t rows) {
  thread_local std::vector<glm::mat4> scratch;
  if (scratch.size() < rows) scratch.resize(rows);
  return {scratch.data(), rows};
}

}  // namespace

void Animator::begin_frame_matrices() { frame_matrices_ = thread_frame_matrices(blocks_.size() * kPoseLanes); }

void Animator::point_skin_poses() {
  for (SkinState& state : skins_) {
    if (state.shared->with_scene) state.pose.scene_blocks_ = blocks_;
  }
}

void Animator::compose_scene(std::size_t from, std::size_t to) {
  LocalToModelJob job;
  job.parents = parents_;
  job.local_sources = sources_;
  job.source_matrices = frame_matrices_;
  job.local_matrices = compiled_->locals;
  job.models = worlds_;
  job.from = from;
  job.to = to;
  job.indices_checked = true;  // the model's parents (checked when compiled) and the Animator's own sources
  job.run();
}

std::span<const glm::mat4> Animator::bone_transforms() const {
  if (locals_at_ != frames_) {
    gathered_locals_.resize(sources_.size());
    detail::gather_locals(sources_, blocks_, compiled_->locals, {}, gathered_locals_);
    locals_at_ = frames_;
  }
  return gathered_locals_;
}

}  // namespace marrow
