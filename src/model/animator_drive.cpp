// The Animator driven by its caller's clocks and weights (drive: an animation graph's frame),
// and inertialized switches (AG4) of whatever plays.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/model/animator.hpp"

namespace marrow {

namespace {

[[noreturn]] void refuse(std::size_t clip, const std::string& what) {
  throw std::invalid_argument("Animator::drive: clip " + std::to_string(clip) + ": " + what);
}

}  // namespace

void Animator::drive(std::span<const DrivenClip> clips, Ticks dt) {
  if (clips.size() > kMaxDrivenClips) {
    throw std::invalid_argument("Animator::drive: " + std::to_string(clips.size()) + " clips (at most " +
                                std::to_string(kMaxDrivenClips) + ")");
  }
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const DrivenClip& c = clips[i];
    if (c.animation < 0 || static_cast<std::size_t>(c.animation) >= model_.animations.size())
      refuse(i, "animation " + std::to_string(c.animation) + " of " + std::to_string(model_.animations.size()));
    if (!std::isfinite(c.weight) || c.weight < 0.f) refuse(i, "weight " + std::to_string(c.weight) + " is negative or not finite");
    if (!c.node_weights.empty() && c.node_weights.size() != model_.nodes.size())
      refuse(i, std::to_string(c.node_weights.size()) + " mask weights for " + std::to_string(model_.nodes.size()) + " nodes");
    for (const float w : c.node_weights) {
      if (!std::isfinite(w) || w < 0.f) refuse(i, "mask weight " + std::to_string(w) + " is negative or not finite");
    }
  }
  pose_driven(clips, dt);
}

void Animator::pose_driven(std::span<const DrivenClip> clips, Ticks dt) {
  events_.clear();
  events_dropped_ = 0;
  bool changed = layers_.size() != clips.size();
  for (std::size_t l = clips.size(); l < layers_.size(); ++l) {
    for (Action* a : layers_[l].actions) release(a);
  }
  if (layers_.size() > clips.size()) layers_.resize(clips.size());
  if (layers_.size() < clips.size()) {
    layers_.resize(clips.size());
    for (Layer& l : layers_) l.skin_masks.resize(skins_.size());
  }
  for (std::size_t l = 0; l < clips.size(); ++l) {
    const DrivenClip& c = clips[l];
    Layer& layer = layers_[l];
    const auto index = static_cast<std::size_t>(c.animation);
    if (layer.actions.size() != 1 || layer.actions[0]->animation != c.animation || layer.actions[0]->fading_out) {
      for (Action* a : layer.actions) release(a);
      layer.actions.clear();
      Action* action = take_action(c.animation);
      const LiveRetarget* live = animations_->animations[index].live;
      if (live != nullptr) action->live = std::make_unique<LiveRetargetSampler>(*live);
      action->clock = PlaybackClock(model_.animations[index].duration, 1.f, LoopMode::Once, c.time);
      action->weight = 1.f;
      if (root_.enabled) attach_root_motion(*action);
      layer.actions.push_back(action);
      changed = true;
    }
    layer.fade_duration = 0.0;
    layer.weight = c.weight;
    layer.additive = c.additive;
    Action& action = *layer.actions[0];
    action.clock.seek(c.time, LoopMode::Once);
    // A clip of weight 0 shows nothing, reports no marker and moves no root (the blend, B7 and
    // R1 skip it): its step is not read, so not kept (a graph's idle slots, each frame). Its
    // mask is: sized while idle, it allocates nothing when the clip comes in (AG6).
    if (c.weight > 0.f) copy_step(action.step, c.step);
    assign_mask(layer, c.node_weights);
  }
  if (changed) {
    sync_groups_.clear();
    refresh_action_sets();
  }
  ready_blending();  // sizes once, then a check
  // AG7: the markers of every clip that shows.
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    if (shows(layers_[l])) collect_events(l, *layers_[l].actions[0]);
  }
  move_root();
  const double seconds = std::max(0.0, seconds_from_ticks(dt));
  advance_inertia(seconds);
  pass_seconds_ = seconds;
  pose_frame();
  pass_seconds_ = 0.0;
}

void Animator::enable_inertialization() {
  if (inertia_) return;
  auto inertia = std::make_unique<Inertia>();
  const std::size_t poses = skins_.size() + 1;  // every skin, then the rigid scene nodes
  inertia->previous.resize(poses);
  inertia->current.resize(poses);
  inertia->output.resize(poses);
  inertia->states.resize(poses);
  for (std::size_t i = 0; i < poses; ++i) {
    const std::size_t joints = i < skins_.size() ? static_cast<std::size_t>(model_.skins[i].data.bone_count) : model_.nodes.size();
    const std::span<const TrsBlock> rest = i < skins_.size() ? std::span<const TrsBlock>(skins_[i].shared->rest) : scene_rest_;
    inertia->states[i].resize(joints);
    inertia->output[i].resize(pose_block_count(joints));
    // Until a pose is recorded, the one shown now (from its matrices) with no velocity.
    std::vector<TrsBlock>& shown = inertia->current[i];
    shown.assign(rest.begin(), rest.end());
    const std::span<const glm::mat4> locals = i < skins_.size() ? skins_[i].pose.bone_transforms() : bone_transforms();
    for (std::size_t j = 0; j < joints; ++j) {
      const glm::mat4& m = locals[j];
      set_pose_joint(shown, j, decompose_trs(m));
    }
    inertia->previous[i] = shown;
  }
  inertia->shown = 1;
  inertia_ = std::move(inertia);
}

void Animator::inertialize(Ticks duration) {
  enable_inertialization();
  const double seconds = seconds_from_ticks(duration);
  if (!(seconds > 0.0)) {
    inertia_->pending = inertia_->active = false;
    return;
  }
  inertia_->pending = true;
  inertia_->duration = static_cast<float>(seconds);
}

bool Animator::inertializing() const noexcept { return inertia_ && (inertia_->active || inertia_->pending); }

void Animator::advance_inertia(double seconds) {
  if (inertia_ && inertia_->active) inertia_->elapsed += static_cast<float>(seconds);
}

// Pose `index` (a skin, or skins_.size() for the rigid nodes) as shown this pass: the set-up of
// a pending switch against the last two poses shown, the offset while one runs, and the pose
// recorded for the next switch. `pose` may be empty (nothing plays there): the rest is shown.
// `sampled`: the action's buffer that holds `pose`, when it is one clip's sampled pose.
std::span<TrsBlock> Animator::inertialize_pose(std::size_t index, std::span<TrsBlock> pose, std::vector<TrsBlock>* sampled,
                                               std::span<const TrsBlock> rest, std::size_t joints) {
  if (!inertia_) return pose;
  Inertia& in = *inertia_;
  const std::span<const TrsBlock> source = pose.empty() ? rest : std::span<const TrsBlock>(pose);
  if (in.pending) {
    // A(-dt), A(0) against B(0) (inertialization_job.hpp); one pose shown so far: no velocity.
    const float dt = in.shown >= 2 && in.shown_dt > 0.0 ? static_cast<float>(in.shown_dt) : 1.f;
    const std::vector<TrsBlock>& previous = in.shown >= 2 ? in.previous[index] : in.current[index];
    InertializationSetupJob{.previous = previous, .current = in.current[index], .next = source, .dt = dt,
                            .duration = in.duration, .state = &in.states[index]}
        .run();
  }
  std::span<TrsBlock> shown = pose;
  if (in.pending || in.active) {
    InertializationJob{.state = &in.states[index], .pose = source, .elapsed = in.pending ? 0.f : in.elapsed,
                       .output = in.output[index]}
        .run();
    shown = in.output[index];
  }
  // Recorded for the next switch; a pass without time (play, a seek) replaces the last pose.
  if (pass_seconds_ > 0.0) {
    in.previous[index].swap(in.current[index]);
  }
  if (in.pending || in.active) {
    // The offset pose shown is the record: its buffer becomes the current pose (no copy); the
    // one it replaces is the next pass's output. The span returned stays on the same memory.
    in.current[index].swap(in.output[index]);
    return shown;
  }
  if (sampled != nullptr && sampled->size() == in.current[index].size()) {
    // One clip's sampled pose is the record by trading buffers with its action (no copy): the
    // sampler writes every joint of its buffer each pass, so the action's new buffer (the
    // record replaced) holds nothing it reads. The span returned stays on the same memory.
    in.current[index].swap(*sampled);
    return shown;
  }
  const std::span<const TrsBlock> record = shown.empty() ? source : std::span<const TrsBlock>(shown);
  std::copy_n(record.begin(), pose_block_count(joints), in.current[index].begin());
  return shown;
}

}  // namespace marrow
