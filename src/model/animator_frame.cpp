// The Animator's frame: clocks, events, sampling, blending, root motion, composition, IK,
// palettes and morph weights (the order is animator.hpp's).
#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "marrow/model/animator.hpp"
#include "marrow/runtime/additive_pose.hpp"
#include "marrow/runtime/clip_markers.hpp"
#include "marrow/runtime/skin_palette_job.hpp"

#include "compose_locals.hpp"

namespace marrow {

namespace {

// The blend's fill threshold (B2, BlendingJob's), also the floor of root motion's normalisation.
const float kThreshold = BlendingJob{}.threshold;

float fade_weight(double u, FadeCurve curve) {
  const double w = curve == FadeCurve::Smooth ? u * u * (3.0 - 2.0 * u) : u;
  return static_cast<float>(w);
}

}  // namespace

// The normal layers' clips' motions (motion_of(action)) blended like the pose: weights times
// the root node's mask, normalised by their sum (or the fill threshold, whose rest pose does
// not move). Additive layers carry no root motion. Each action is handed over as the Action&
// the layer holds: move_root (not const) lets motion_of fill the action's memo; the const
// callers' motion_of only reads it.
template <class F>
RootMotion Animator::blend_root_motion(const F& motion_of) const {
  RootMotion sum;
  float total = 0.f;
  for (const Layer& layer : layers_) {
    if (layer.additive) continue;
    const float mask = layer.node_mask.empty() ? 1.f : layer.node_mask[static_cast<std::size_t>(root_.node)];
    for (Action* a : layer.actions) {
      const float w = action_weight(layer, *a) * mask;
      if (w <= 0.f) continue;
      const RootMotion m = motion_of(*a);
      sum.translation += w * m.translation;
      sum.yaw += w * m.yaw;
      total += w;
    }
  }
  const float norm = std::max(total, kThreshold);
  return RootMotion{sum.translation / norm, sum.yaw / norm};
}

RootMotion Animator::blended_root_offset() const noexcept {
  if (!root_.enabled) return {};
  return blend_root_motion([](const Action& a) { return a.root != nullptr ? a.root->since_start(a.clock.time(), a.root_memo) : RootMotion{}; });
}

void Animator::update(Ticks time, bool relative_to_current_time, bool loop) {
  events_.clear();
  events_dropped_ = 0;
  advance_clocks(time, relative_to_current_time, loop);
  const double seconds = relative_to_current_time ? std::max(0.0, seconds_from_ticks(time)) : 0.0;
  advance_inertia(seconds);
  pass_seconds_ = seconds;
  pose_frame();
  pass_seconds_ = 0.0;
}

void Animator::advance_clocks(Ticks time, bool relative, bool loop) {
  // Cross-fades (B4) progress with the update's (non-negative) real time.
  bool dropped = false;
  if (relative) {
    const double seconds = std::max(0.0, seconds_from_ticks(time));
    for (Layer& layer : layers_) {
      if (layer.fade_duration <= 0.0) continue;
      layer.fade_elapsed += seconds;
      const double u = std::min(1.0, layer.fade_elapsed / layer.fade_duration);
      const float w = fade_weight(u, layer.curve);
      if (u < 1.0) {
        for (Action* a : layer.actions) a->weight = a->fading_out ? a->fade_from * (1.f - w) : w;
        continue;
      }
      // The fade is over: what faded out is dropped.
      std::size_t kept = 0;
      for (Action* a : layer.actions) {
        if (a->fading_out) {
          release(a);
        } else {
          a->weight = 1.f;
          layer.actions[kept++] = a;
        }
      }
      layer.actions.resize(kept);
      layer.fade_duration = 0.0;
      dropped = true;
    }
  }
  for (Layer& layer : layers_) {
    for (Action* a : layer.actions) {
      const LoopMode rule = loop ? a->clock.mode() : LoopMode::Once;
      if (!relative) {
        a->clock.seek(time, rule);
        clear_step(a->step);
      } else if (a->sync_group < 0) {
        a->clock.advance_ticks(scaled_ticks(time, a->clock.rate()), rule, a->step);  // in place (playback_clock.hpp)
      }
    }
  }
  if (relative) advance_sync_groups(time, loop);
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    for (const Action* a : layers_[l].actions) collect_events(l, *a);
  }
  move_root();
  if (dropped) refresh_action_sets();
}

void Animator::move_root() {
  if (!root_.enabled) return;
  // R1: each normal clip's motion along its path, blended like the pose.
  // Each clip's memo keeps the places sampled, so the pose's since_start reads them (R1).
  root_.delta = blend_root_motion([](Action& a) { return a.root != nullptr ? a.root->along(a.step, a.root_memo) : RootMotion{}; });
  root_.total.translation += root_.delta.translation;
  root_.total.yaw += root_.delta.yaw;
}

void Animator::join_sync_group(Action& action) {
  const double duration = static_cast<double>(action.clock.duration().count());
  for (const SyncGroup& group : sync_groups_) {
    if (group.id != action.sync_group) continue;
    // Join at the group's normalized time (B6).
    if (duration > 0.0) action.clock.seek(Ticks{std::llround(group.phase * duration)});
    return;
  }
  const double start = static_cast<double>(action.clock.time().count());
  sync_groups_.push_back(SyncGroup{action.sync_group, duration > 0.0 ? start / duration : 0.0});
}

void Animator::advance_sync_groups(Ticks time, bool loop) {
  for (SyncGroup& group : sync_groups_) {
    // B6: the heaviest member leads with its rate; the cycle length is the members' weighted
    // mean; every member moves to the same normalized time.
    const Action* leader = nullptr;
    float leader_weight = -1.f;
    double weights = 0.0, lengths = 0.0;
    for (const Layer& layer : layers_) {
      for (const Action* a : layer.actions) {
        if (a->sync_group != group.id || a->clock.duration() <= Ticks{0}) continue;
        const float w = action_weight(layer, *a);
        if (w > leader_weight) leader = a, leader_weight = w;
        weights += w;
        lengths += w * static_cast<double>(a->clock.duration().count());
      }
    }
    if (leader == nullptr) continue;
    const double cycle = weights > 0.0 ? lengths / weights : static_cast<double>(leader->clock.duration().count());
    // The phase moves by whole cycles and a fraction; the phase is kept in [0, 1), so the
    // positions round(phase * duration) stay exact and no product overflows.
    const double before = group.phase;
    const double moved = static_cast<double>(scaled_ticks(time, leader->clock.rate()).count()) / cycle;
    const double cycles = std::floor(moved), after = before + (moved - cycles);
    for (Layer& layer : layers_) {
      for (Action* a : layer.actions) {
        if (a->sync_group != group.id) continue;
        const double d = static_cast<double>(a->clock.duration().count());
        const Ticks step = phase_step(a->clock.duration(), cycles, before * d, after * d);
        a->clock.advance_ticks(step, loop ? a->clock.mode() : LoopMode::Once, a->step);
      }
    }
    group.phase = after - std::floor(after);
  }
}

void Animator::collect_events(std::size_t layer, const Action& action) {
  if (action.animation < 0) return;
  const CompiledAnimation& compiled = animations_->animations[static_cast<std::size_t>(action.animation)];
  if (compiled.marker_times.empty()) return;
  const std::size_t count = markers_reached(compiled.marker_times, action.step, marker_scratch_);
  const std::size_t stored = std::min(count, marker_scratch_.size());
  const std::vector<AnimationMarker>& markers = model_.animations[static_cast<std::size_t>(action.animation)].markers;
  const float weight = action_weight(layers_[layer], action);
  for (std::size_t i = 0; i < stored; ++i) {
    if (events_.size() == events_.capacity()) {
      events_dropped_ += stored - i;
      break;
    }
    const AnimationMarker& m = markers[marker_scratch_[i]];
    events_.push_back(AnimationEvent{m.name, action.animation, layer, m.time, weight});
  }
  events_dropped_ += count - stored;
}

bool Animator::joint_driven(std::size_t skin, std::size_t joint) const noexcept {
  for (const Layer& layer : layers_) {
    for (const Action* a : layer.actions) {
      if (animations_->animations[static_cast<std::size_t>(a->animation)].drives_joint(skin, joint)) return true;
    }
  }
  return false;
}

void Animator::refresh_action_sets() {
  // The union of what the playing clips drive.
  const std::size_t nodes = model_.nodes.size();
  std::fill(moving_.begin(), moving_.end(), std::uint8_t{0});
  scene_animated_.clear();
  for (const Layer& layer : layers_) {
    for (const Action* a : layer.actions) {
      const CompiledAnimation& c = animations_->animations[static_cast<std::size_t>(a->animation)];
      if (!c.has_scene_tracks) continue;
      for (std::size_t i = 0; i < nodes; ++i) {
        if (c.drives_node(i)) moving_[i] = 1;
      }
    }
  }
  for (std::size_t i = 0; i < nodes; ++i) {
    if (moving_[i] != 0) scene_animated_.push_back(static_cast<std::uint32_t>(i));
  }
  const Action* base = current_action(0);
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    SkinState& state = skins_[s];
    const SkinningData& data = model_.skins[s].data;
    if (!state.pose.locals_.empty()) std::copy(data.bind_pose.begin(), data.bind_pose.end(), state.pose.locals_.begin());
    state.pose.clip_ = base != nullptr ? animations_->animations[static_cast<std::size_t>(base->animation)].skin_sources[s] : nullptr;
    bool any = false;
    for (const Layer& layer : layers_) {
      for (const Action* a : layer.actions) any |= animations_->animations[static_cast<std::size_t>(a->animation)].drives_skin(s);
    }
    state.still.clear();
    if (!state.pose.locals_.empty()) {
      for (std::size_t p = 0; p < static_cast<std::size_t>(data.bone_count); ++p) {
        if (!joint_driven(s, p)) state.still.push_back(static_cast<std::uint32_t>(p));
      }
    }
    if (any) {
      for (int bone : model_.skins[s].palette_to_scene) {
        if (bone >= 0) moving_[static_cast<std::size_t>(bone)] = 1;
      }
    }
  }
  // A skin composed on its own follows its ancestors only while a playing clip moves one of
  // them; otherwise its data's prefix is exact and used as is.
  for (SkinState& state : skins_) {
    state.follows_ancestors = false;
    for (const CompiledRootJoint& root : state.shared->roots) {
      for (int b = root.ancestor; b > 0 && !state.follows_ancestors; b = model_.nodes[static_cast<std::size_t>(b)].parent) {
        state.follows_ancestors = moving_[static_cast<std::size_t>(b)] != 0;
      }
    }
  }
  refresh_sources(inertializing());
  // Sync groups without members end.
  std::erase_if(sync_groups_, [&](const SyncGroup& g) {
    for (const Layer& layer : layers_) {
      for (const Action* a : layer.actions) {
        if (a->sync_group == g.id) return false;
      }
    }
    return true;
  });
}

void Animator::sample_actions() {
  for (const Layer& layer : layers_) {
    if (!shows(layer)) continue;
    for (Action* a : layer.actions) {
      if (action_weight(layer, *a) <= 0.f) continue;
      const CompiledAnimation& c = animations_->animations[static_cast<std::size_t>(a->animation)];
      const Ticks t = a->clock.time();
      if (a->live) sample_live(*a, c, t);
      for (std::size_t s = 0; s < skins_.size(); ++s) {
        if (!c.drives_skin(s)) continue;
        std::vector<TrsBlock>& pose = a->skin_poses[s];
        if (!a->live) SamplingJob{c.skin_clips[s].get(), t, &a->skin_contexts[s], pose}.run();
        if (layer.additive) make_additive_pose(pose, c.skin_references[s], static_cast<std::size_t>(model_.skins[s].data.bone_count), pose);
      }
      if (c.has_scene_tracks) {
        if (!a->live) SamplingJob{&c.scene_clip, t, &a->scene_context, a->scene_pose}.run();
        if (layer.additive) make_additive_pose(a->scene_pose, c.scene_reference, model_.nodes.size(), a->scene_pose);
      }
      if (!c.has_morphs) continue;  // its morph_driven stays all 0 (take_action)
      std::fill(a->morph_driven.begin(), a->morph_driven.end(), std::uint8_t{0});
      const std::vector<MorphWeightChannel>& channels = model_.animations[static_cast<std::size_t>(a->animation)].morph_channels;
      for (std::size_t ch = 0; ch < channels.size(); ++ch) {
        const auto m = static_cast<std::size_t>(channels[ch].mesh);
        std::vector<float>& w = a->morph_weights[m];
        if (channels[ch].track.empty() || channels[ch].track.weight_count != w.size()) continue;
        evaluate_morph_weights(channels[ch].track, seconds_from_ticks(t), w);
        if (layer.additive) {
          for (std::size_t i = 0; i < w.size(); ++i) w[i] -= c.morph_references[ch][i];
        }
        a->morph_driven[m] = 1;
      }
    }
  }
}

// A live retargeted animation (live_retarget.hpp): the rest, then what the map drives.
void Animator::sample_live(Action& a, const CompiledAnimation& c, Ticks t) {
  for (std::size_t s = 0; s < skins_.size(); ++s)
    if (c.drives_skin(s)) std::copy(skins_[s].shared->rest.begin(), skins_[s].shared->rest.end(), a.skin_poses[s].begin());
  if (c.has_scene_tracks) std::copy(scene_rest_.begin(), scene_rest_.end(), a.scene_pose.begin());
  a.live->sample(t, a.skin_poses, a.scene_pose);
}

template <class PoseOf, class MaskOf>
std::vector<TrsBlock>* Animator::collect_layers(std::span<const TrsBlock> rest, const PoseOf& pose_of, const MaskOf& mask_of) {
  blend_layers_.clear();
  blend_additive_.clear();
  std::vector<TrsBlock>* sampled = nullptr;  // the last normal layer's own pose
  for (const Layer& layer : layers_) {
    if (!shows(layer)) continue;
    for (Action* a : layer.actions) {
      const float w = action_weight(layer, *a);
      if (w <= 0.f) continue;
      std::vector<TrsBlock>* pose = pose_of(*a);
      const std::span<const float> mask = mask_of(layer);
      if (layer.additive) {
        if (pose != nullptr) blend_additive_.push_back(BlendingLayer{*pose, w, mask});
      } else {
        sampled = pose;  // a clip that does not drive it holds it at rest
        blend_layers_.push_back(BlendingLayer{pose != nullptr ? std::span<const TrsBlock>(*pose) : rest, w, mask});
      }
    }
  }
  return sampled;
}

std::span<TrsBlock> Animator::blend_skin(std::size_t s, std::vector<TrsBlock>*& shown) {
  SkinState& state = skins_[s];
  std::vector<TrsBlock>* sampled = collect_layers(
      state.shared->rest,
      [&](Action& a) { return animations_->animations[static_cast<std::size_t>(a.animation)].drives_skin(s) ? &a.skin_poses[s] : nullptr; },
      [&](const Layer& layer) { return std::span<const float>(layer.skin_masks[s]); });
  return blend_collected(sampled, state.shared->rest, static_cast<std::size_t>(model_.skins[s].data.bone_count), state.blended, shown);
}

// A clip without rigid tracks holds every node at its loaded transform (scene_rest_).
std::span<TrsBlock> Animator::blend_scene(std::vector<TrsBlock>*& shown) {
  std::vector<TrsBlock>* sampled = collect_layers(
      scene_rest_,
      [&](Action& a) { return animations_->animations[static_cast<std::size_t>(a.animation)].has_scene_tracks ? &a.scene_pose : nullptr; },
      [](const Layer& layer) { return std::span<const float>(layer.node_mask); });
  return blend_collected(sampled, scene_rest_, model_.nodes.size(), scene_blended_, shown);
}

std::span<TrsBlock> Animator::blend_collected(std::vector<TrsBlock>* sampled, std::span<const TrsBlock> rest,
                                              std::size_t joints, std::span<TrsBlock> output, std::vector<TrsBlock>*& shown) {
  shown = nullptr;
  if (blend_layers_.empty() && blend_additive_.empty()) return {};  // nothing plays
  if (blend_additive_.empty() && blend_layers_.size() == 1 && blend_layers_[0].weight == 1.f &&
      blend_layers_[0].joint_weights.empty() && sampled != nullptr) {
    shown = sampled;
    return *sampled;  // one clip at full weight: its sampled pose as it is (the seed's frame)
  }
  BlendingJob job;
  job.layers = blend_layers_;
  job.additive_layers = blend_additive_;
  job.rest_pose = rest;
  job.joint_count = joints;
  job.output = output;
  job.run();  // sizes are the Animator's own; weights and masks were checked when set
  return output;
}

void Animator::remove_root_motion(std::span<TrsBlock> pose, std::size_t joint) const {
  // R1: the blended motion of the clips since their start (this frame's, pose_frame), taken out
  // of the joint. The turn about up in the scene is, in the parent's frame, the same turn about
  // up brought into that frame (inverse(P) R(up) P = R(inverse(P) up)).
  const RootMotion& offset = root_.offset;
  Trs trs = pose_joint(pose, joint);
  trs.translation -= root_.parent_inverse * offset.translation;
  if (root_.yaw && offset.yaw != 0.f) trs.rotation = glm::normalize(glm::angleAxis(-offset.yaw, root_.local_up) * trs.rotation);
  set_pose_joint(pose, joint, trs);
}

void Animator::pose_frame() {
  undo_ik();
  sample_actions();
  begin_frame_matrices();  // after sampling: the thread's scratch holds this frame's matrices from here on
  const bool inertial = inertializing();  // AG4: every joint is read from the pose while an offset may show
  root_.offset = blended_root_offset();   // once: the pose's and root_motion_offset()'s
  if (inertial != sources_inertial_) refresh_sources(inertial);
  // Step 5: rigid scene nodes, blended like joints; the scene reads them there.
  const std::size_t nodes = model_.nodes.size();
  if (!scene_animated_.empty()) {
    std::vector<TrsBlock>* sampled = nullptr;
    std::span<TrsBlock> pose = blend_scene(sampled);
    if (!pose.empty() && root_.enabled && root_.skin < 0) remove_root_motion(pose, static_cast<std::size_t>(root_.node));
    pose = inertialize_pose(skins_.size(), pose, sampled, scene_rest_, nodes);
    point_blocks(scene_lane_, pose.empty() ? scene_rest_ : std::span<const TrsBlock>(pose), pose_block_count(nodes), true);  // its animated nodes read it
  }
  // Step 1: each skin's layers, blended; its joints' scene nodes read the result (sources_), so
  // absolute transforms are what an attachment (a weapon on a hand) needs. Nothing playing on a
  // skin shows its rest.
  const Ticks base_time = current_time(0);
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    SkinState& state = skins_[s];
    state.pose.time_ = base_time;
    std::vector<TrsBlock>* sampled = nullptr;
    std::span<TrsBlock> pose = blend_skin(s, sampled);
    if (!pose.empty() && root_.enabled && root_.skin == static_cast<int>(s)) remove_root_motion(pose, root_.joint);
    const SkinningData& data = model_.skins[s].data;
    const auto joints = static_cast<std::size_t>(data.bone_count);
    pose = inertialize_pose(s, pose, sampled, state.shared->rest, joints);
    point_blocks(state.lane, pose.empty() ? std::span<const TrsBlock>(state.shared->rest) : pose, pose_block_count(joints), state.read);
    if (state.pose.locals_.empty()) continue;
    // A skin composed on its own keeps its local matrices; the joints no clip drives keep
    // their bind matrices (exact, not a T/R/S round trip).
    if (pose.empty()) {
      std::copy(data.bind_pose.begin(), data.bind_pose.end(), state.pose.locals_.begin());
      continue;
    }
    pose_to_matrices(pose, state.pose.locals_);
    if (inertial) continue;
    for (std::size_t p : state.still) state.pose.locals_[p] = data.bind_pose[p];
  }
  if (inertia_) {
    // The pass is recorded (inertialize_pose); a pending switch has set up and now runs.
    if (pass_seconds_ > 0.0) {
      ++inertia_->shown;
      inertia_->shown_dt = pass_seconds_;
    }
    if (inertia_->pending) {
      inertia_->pending = false;
      inertia_->active = true;
      inertia_->elapsed = 0.f;
    } else if (inertia_->active && !(inertia_->elapsed < inertia_->duration)) {
      inertia_->active = false;
    }
  }
  // Step 2: the scene, once, from the gathered pose; IK below the chains.
  ++frames_;
  compose_scene();
  run_ik();
  form_palettes();
  for (SkinState& state : skins_) ++state.pose.revision_;
  // Step 6.
  evaluate_morphs(false);
}

void Animator::form_palettes() {
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    SkinState& state = skins_[s];
    const Skin& skin = model_.skins[s];
    SkinPaletteJob palette;
    palette.indices_checked = true;  // the skin's joints, checked with the model
    palette.inverse_binds = skin.data.inverse_bind_pose;
    palette.palette = state.pose.palette_;
    if (state.shared->with_scene) {
      // The palette-space worlds, in the same pass, unless they are the scene's.
      if (!state.pose.worlds_in_scene_) palette.skin_models = state.pose.worlds_;
      palette.models = worlds_;
      palette.joints = skin.palette_to_scene;
      palette.root = state.shared->palette_is_scene ? nullptr : &state.shared->scene_to_palette;
    } else {
      // Composed on its own; a root under a moving scene node gets the prefix
      // P(t) = P * inverse(W_ancestor at bind) * W_ancestor(t).
      std::span<const glm::mat4> prefixes;
      if (state.follows_ancestors) {
        for (const CompiledRootJoint& root : state.shared->roots) {
          state.prefixes[root.palette] = skin.data.skeleton_root_prefix[root.palette] * root.inverse_bind_ancestor *
                                         worlds_[static_cast<std::size_t>(root.ancestor)];
        }
        prefixes = state.prefixes;
      } else if (has_root_prefix(skin.data)) {
        prefixes = skin.data.skeleton_root_prefix;
      }
      detail::compose(skin.data.skeleton_hierarchy, state.pose.locals_, prefixes, state.pose.worlds_);
      palette.models = state.pose.worlds_;
    }
    palette.run();
  }
}

}  // namespace marrow
