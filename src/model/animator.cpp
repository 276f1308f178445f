// The Animator (animator.hpp): construction, playback control, layers and root-motion setup. Its
// frame is animator_frame.cpp, its IK chains animator_ik.cpp, what it hands out (palettes,
// posed vertices, bounds, draw items) animator_outputs.cpp.
#include "marrow/model/animator.hpp"

#include "model/retarget_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/joint_mask.hpp"

#include "compose_locals.hpp"

namespace marrow {

namespace {

// The matrices' largest element difference, relative to their size, within tolerance.
bool close(const glm::mat4& a, const glm::mat4& b, float tolerance = 1e-4f) {
  float diff = 0.f, size = 1.f;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      diff = std::max(diff, std::fabs(a[c][r] - b[c][r]));
      size = std::max(size, std::fabs(a[c][r]));
    }
  }
  return diff <= tolerance * size;
}

}  // namespace

Animator::Animator(const Model& model) : Animator(model, nullptr) {}

Animator::Animator(const Model& model, std::shared_ptr<const CompiledAnimations> animations) : model_(model) {
  validate(model);
  animations_ = animations != nullptr ? std::move(animations) : compile_animations(model);
  if (animations_->animations.size() != model.animations.size()) {
    throw std::invalid_argument("Animator: compiled animations are of another model (" +
                                std::to_string(animations_->animations.size()) + " animations for " +
                                std::to_string(model.animations.size()) + ")");
  }
  const std::size_t bones = model.nodes.size();
  parents_.resize(bones);
  locals_.resize(bones);
  for (std::size_t i = 0; i < bones; ++i) {
    parents_[i] = model.nodes[i].parent;
    locals_[i] = model.nodes[i].transform;
  }
  worlds_.resize(bones);
  detail::compose(parents_, locals_, {}, worlds_);
  bind_worlds_ = worlds_;
  scene_rest_.resize(pose_block_count(bones));
  scene_blended_.resize(pose_block_count(bones));
  for (std::size_t i = 0; i < bones; ++i) set_pose_joint(scene_rest_, i, decompose_trs(locals_[i]));
  scene_animated_.reserve(bones);
  moving_.resize(bones);

  std::size_t max_palette = 0;
  skins_.resize(model.skins.size());
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const Skin& skin = model.skins[s];
    const SkinningData& data = skin.data;
    const auto n = static_cast<std::size_t>(data.bone_count);
    max_palette = std::max(max_palette, n);
    SkinState& state = skins_[s];
    state.pose.locals_ = data.bind_pose;
    state.pose.worlds_.resize(n);
    state.pose.palette_.resize(n);
    state.rest.resize(pose_block_count(n));
    for (std::size_t p = 0; p < n; ++p) set_pose_joint(state.rest, p, decompose_trs(data.bind_pose[p]));
    state.blended.resize(pose_block_count(n));
    state.animated.reserve(n);
    state.still.reserve(n);
    state.take_to_scene.assign(n, -1);
    state.joint_to_scene.assign(n, -1);
    state.scene_to_joint.assign(bones, -1);
    for (std::size_t p = 0; p < n && p < skin.palette_to_scene.size(); ++p) {
      const int node = skin.palette_to_scene[p];
      if (node >= 0 && static_cast<std::size_t>(node) < bones) state.scene_to_joint[static_cast<std::size_t>(node)] = static_cast<int>(p);
      if (node >= 0 && static_cast<std::size_t>(node) < bones) state.joint_to_scene[p] = node;
    }
    state.prefixes = data.skeleton_root_prefix;
    // The skeleton at bind in its palette space (the player's worlds)...
    detail::compose(data.skeleton_hierarchy, data.bind_pose,
            has_root_prefix(data) ? std::span<const glm::mat4>(data.skeleton_root_prefix) : std::span<const glm::mat4>(),
            state.pose.worlds_);
    // ...is it one fixed transform of the scene's? Then the scene composition serves both.
    state.with_scene = n > 0 && skin.palette_to_scene.size() == n;
    for (std::size_t p = 0; p < n && state.with_scene; ++p) {
      const int node = skin.palette_to_scene[p];
      state.with_scene = node >= 0 && static_cast<std::size_t>(node) < bones;
    }
    if (state.with_scene) {
      const auto scene_of = [&](std::size_t p) { return static_cast<std::size_t>(skin.palette_to_scene[p]); };
      state.scene_to_palette = state.pose.worlds_[0] * glm::inverse(bind_worlds_[scene_of(0)]);
      for (std::size_t p = 0; p < n && state.with_scene; ++p) {
        state.with_scene = close(state.scene_to_palette * bind_worlds_[scene_of(p)], state.pose.worlds_[p]);
      }
      // The usual case: palette space is scene space (up to the rounding of the inverse above);
      // then the palette needs one matrix product per joint, not two.
      state.palette_is_scene = close(state.scene_to_palette, glm::mat4(1.f), 1e-6f);
    }
    if (!state.with_scene && has_root_prefix(data) && skin.palette_to_scene.size() == n) {
      // Root joints whose parent is a scene node: their prefix can follow that node's animation.
      for (std::size_t p = 0; p < n; ++p) {
        const int bone = skin.palette_to_scene[p];
        if (data.skeleton_hierarchy[p] >= 0 || bone <= 0) continue;
        const int ancestor = model.nodes[static_cast<std::size_t>(bone)].parent;
        if (ancestor <= 0) continue;  // under the synthetic root: nothing above can move
        state.roots.push_back(RootJoint{p, ancestor, glm::inverse(worlds_[static_cast<std::size_t>(ancestor)])});
      }
    }
  }
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) max_palette = std::max(max_palette, part.palette_joints.size());  // S4
  }
  palette_scratch_.resize(max_palette);
  std::size_t largest_dqs_part = 0;
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) {
      if (mesh.skin >= 0 && part.skinning == SkinningMode::DualQuaternion) {
        dual_quaternion_scratch_.resize(max_palette);
        scale_shear_scratch_.resize(max_palette);
        largest_dqs_part = std::max(largest_dqs_part, part.vertex_count());
      }
    }
  }
  // S5: the load-time boxes, or this instance's own when the model was built without them.
  if (!frame_bounds_ready(model)) own_bounds_ = std::make_shared<const FrameBounds>(make_frame_bounds(model));
  bounds_scratch_.resize(largest_dqs_part);
  skin_boxes_.resize(model.skins.size());
  meshes_.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    MeshState& state = meshes_[m];
    state.weights = mesh.morph_weights;
    state.scratch.resize(mesh.morph_weights.size());
    state.parts.resize(mesh.parts.size());
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      if (mesh.parts[p].morph) state.parts[p].bytes = mesh.parts[p].vertex_bytes;
    }
  }
  // Room for events only when the model has markers (a crowd of marker-less instances pays
  // nothing); update() never grows it.
  std::size_t markers = 0;
  for (const ModelAnimation& a : model.animations) markers += a.markers.size();
  if (markers > 0) {
    events_.reserve(kMaxEvents);
    marker_scratch_.resize(kMaxEvents);
  }
  refresh_action_sets();
  pose_frame();
  evaluate_morphs(true);
}

void Animator::play(int index, const PlayOptions& options) {
  if (index < -1 || index >= static_cast<int>(model_.animations.size())) {
    throw std::out_of_range("Animator::play: animation " + std::to_string(index) + " of " +
                            std::to_string(model_.animations.size()));
  }
  if (options.fade < Ticks{0}) {
    throw std::invalid_argument("Animator::play: fade " + std::to_string(seconds_from_ticks(options.fade)) + " s is negative");
  }
  if (!std::isfinite(options.rate)) {
    throw std::invalid_argument("Animator::play: rate " + std::to_string(options.rate) + " is not finite");
  }
  Layer& layer = layer_at(options.layer);
  const bool inertialized = options.transition == Transition::Inertialize;
  if (inertialized) inertialize(options.fade);  // AG4: the layer switches at once; the pose carries the difference
  if (options.fade > Ticks{0} && !inertialized && !layer.actions.empty()) {
    // B4: what plays now fades out from its present weight while the new clip fades in; a clip
    // already at weight 0 (faded out, or never faded in) has nothing left to show and goes.
    std::size_t kept = 0;
    for (Action* action : layer.actions) {
      if (action->weight <= 0.f) {
        release(action);
        continue;
      }
      action->fade_from = action->weight;
      action->fading_out = true;
      layer.actions[kept++] = action;
    }
    layer.actions.resize(kept);
    layer.fade_elapsed = 0.0;
    layer.fade_duration = seconds_from_ticks(options.fade);
    layer.curve = options.curve;
  } else {
    for (Action* action : layer.actions) release(action);
    layer.actions.clear();
    layer.fade_duration = 0.0;
  }
  if (index >= 0) {
    Action* action = take_action(index);
    const LiveRetarget* live = animations_->animations[static_cast<std::size_t>(index)].live;
    if (live != nullptr) action->live = std::make_unique<LiveRetargetSampler>(*live);
    const Ticks duration = model_.animations[static_cast<std::size_t>(index)].duration;
    action->clock = PlaybackClock(duration, options.rate, options.loop, options.start);
    action->weight = layer.fade_duration > 0.0 ? 0.f : 1.f;
    action->sync_group = options.sync_group;
    if (options.sync_group >= 0) join_sync_group(*action);
    if (root_.enabled) attach_root_motion(*action);
    layer.actions.push_back(action);
  }
  if (options.layer == 0) root_.total = RootMotion{};
  refresh_action_sets();
  pose_frame();
}

void Animator::play(std::string_view name, const PlayOptions& options) {
  const int index = model_.find_animation(name);
  if (index < 0) throw std::out_of_range("Animator::play: no animation named '" + std::string(name) + "'");
  play(index, options);
}

void Animator::stop(std::size_t layer, Ticks fade) {
  if (layer >= layers_.size() || layers_[layer].actions.empty()) return;
  PlayOptions options;
  options.layer = layer;
  options.fade = fade;
  play(-1, options);
}

int Animator::current_animation(std::size_t layer) const noexcept {
  const Action* action = current_action(layer);
  return action != nullptr ? action->animation : -1;
}

Ticks Animator::current_time(std::size_t layer) const noexcept {
  const Action* action = current_action(layer);
  return action != nullptr ? action->clock.time() : Ticks{0};
}

bool Animator::finished(std::size_t layer) const noexcept {
  const Action* action = current_action(layer);
  return action != nullptr && action->clock.finished();
}

void Animator::set_rate(std::size_t layer, float rate) {
  if (!std::isfinite(rate)) throw std::invalid_argument("Animator::set_rate: rate " + std::to_string(rate) + " is not finite");
  if (layer >= layers_.size()) return;
  for (Action* action : layers_[layer].actions) action->clock.set_rate(rate);
}

const Animator::Action* Animator::current_action(std::size_t layer) const noexcept {
  if (layer >= layers_.size()) return nullptr;
  const std::vector<Action*>& actions = layers_[layer].actions;
  return !actions.empty() && !actions.back()->fading_out ? actions.back() : nullptr;
}

void Animator::set_layer(std::size_t layer, const LayerOptions& options) {
  std::vector<float> mask;
  if (!options.mask.empty()) {
    const int root = node_named(options.mask, "set_layer: mask");
    mask = subtree_mask(parents_, root);
  }
  set_layer_weight(layer, options.weight);
  Layer& l = layer_at(layer);
  l.additive = options.additive;
  set_layer_mask(layer, mask);
}

void Animator::set_layer_weight(std::size_t layer, float weight) {
  if (!std::isfinite(weight) || weight < 0.f) {
    throw std::invalid_argument("Animator: layer " + std::to_string(layer) + " weight " + std::to_string(weight) +
                                " is negative or not finite");
  }
  layer_at(layer).weight = weight;
}

void Animator::set_layer_mask(std::size_t layer, std::span<const float> node_weights) {
  if (!node_weights.empty() && node_weights.size() != model_.nodes.size()) {
    throw std::invalid_argument("Animator::set_layer_mask: " + std::to_string(node_weights.size()) +
                                " weights for " + std::to_string(model_.nodes.size()) + " nodes");
  }
  for (std::size_t i = 0; i < node_weights.size(); ++i) {
    if (!std::isfinite(node_weights[i]) || node_weights[i] < 0.f) {
      throw std::invalid_argument("Animator::set_layer_mask: weight " + std::to_string(node_weights[i]) + " of node " +
                                  std::to_string(i) + " is negative or not finite");
    }
  }
  assign_mask(layer_at(layer), node_weights);
}

// The layer's per-node mask and each skin's in palette order; reuses the vectors' room, so a
// mask of the same size set again allocates nothing.
void Animator::assign_mask(Layer& l, std::span<const float> node_weights) {
  l.node_mask.assign(node_weights.begin(), node_weights.end());
  l.skin_masks.resize(skins_.size());
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    std::vector<float>& mask = l.skin_masks[s];
    if (node_weights.empty()) {
      mask.clear();
      continue;
    }
    const std::vector<int>& to_scene = model_.skins[s].palette_to_scene;
    mask.assign(static_cast<std::size_t>(model_.skins[s].data.bone_count), 1.f);
    for (std::size_t p = 0; p < mask.size() && p < to_scene.size(); ++p) {
      if (to_scene[p] >= 0) mask[p] = node_weights[static_cast<std::size_t>(to_scene[p])];
    }
  }
}

void Animator::enable_root_motion(const RootMotionOptions& options) {
  int node = -1;
  if (!options.joint.empty()) {
    node = node_named(options.joint, "enable_root_motion: joint");
  } else {
    if (model_.skins.empty()) throw std::invalid_argument("Animator::enable_root_motion: the model has no skin");
    const Skin& skin = model_.skins[0];
    if (skin.palette_to_scene.empty() || skin.palette_to_scene[0] < 0) {
      throw std::invalid_argument("Animator::enable_root_motion: the first skin's root joint is not a scene node");
    }
    node = skin.palette_to_scene[0];  // palette entry 0 is a root: joints are breadth-first
  }
  root_ = RootMotionState{};
  root_.enabled = true;
  root_.yaw = options.yaw;
  root_.node = node;
  for (std::size_t s = 0; s < skins_.size() && root_.skin < 0; ++s) {
    const int p = skins_[s].scene_to_joint[static_cast<std::size_t>(node)];
    if (p >= 0) root_.skin = static_cast<int>(s), root_.joint = static_cast<std::size_t>(p);
  }
  const int parent = model_.nodes[static_cast<std::size_t>(node)].parent;
  root_.parent_world = parent >= 0 ? bind_worlds_[static_cast<std::size_t>(parent)] : glm::mat4(1.f);
  for (Layer& layer : layers_) {
    for (Action* action : layer.actions) attach_root_motion(*action);
  }
  pose_frame();
}

void Animator::disable_root_motion() {
  root_.enabled = false;
  root_.delta = root_.total = RootMotion{};
  pose_frame();
}

int Animator::node_named(std::string_view name, const char* what) const {
  if (const int node = model_.find_node(name); node >= 0) return node;
  throw std::out_of_range(std::string("Animator::") + what + " names no node '" + std::string(name) + "'");
}

Animator::Layer& Animator::layer_at(std::size_t layer) {
  if (layer >= kMaxLayers) {
    throw std::out_of_range("Animator: layer " + std::to_string(layer) + " (at most " + std::to_string(kMaxLayers) + ")");
  }
  if (layer >= layers_.size()) {
    layers_.resize(layer + 1);
    for (Layer& l : layers_) l.skin_masks.resize(skins_.size());
  }
  return layers_[layer];
}

Animator::Action* Animator::take_action(int animation) {
  Action* action = nullptr;
  if (!free_actions_.empty()) {
    action = free_actions_.back();
    free_actions_.pop_back();
  } else {
    auto made = std::make_unique<Action>();
    made->skin_contexts.resize(skins_.size());
    made->skin_poses.resize(skins_.size());
    for (std::size_t s = 0; s < skins_.size(); ++s) {
      const auto n = static_cast<std::size_t>(model_.skins[s].data.bone_count);
      // A skin with compressed clips keeps their decoded keys between frames (sampling_job.hpp).
      made->skin_contexts[s].resize(n, model_.skins[s].compressed_clips.empty() ? CompressedKeys::decode_every_run
                                                                                 : CompressedKeys::cache);
      made->skin_poses[s].resize(pose_block_count(n));
    }
    made->scene_context.resize(model_.nodes.size());
    made->scene_pose.resize(pose_block_count(model_.nodes.size()));
    made->morph_weights.resize(meshes_.size());
    made->morph_driven.resize(meshes_.size());
    for (std::size_t m = 0; m < meshes_.size(); ++m) made->morph_weights[m].resize(meshes_[m].weights.size());
    action = made.get();
    actions_.push_back(std::move(made));
    // Per-frame scratch sized for every action there is, so update() never grows it.
    blend_layers_.reserve(actions_.size());
    blend_additive_.reserve(actions_.size());
    free_actions_.reserve(actions_.size());
  }
  action->animation = animation;
  action->weight = 0.f;
  action->fade_from = 0.f;
  action->fading_out = false;
  action->sync_group = -1;
  action->step = ClockStep{};
  action->root = RootMotionTrack{};
  action->live.reset();
  action->live_root_keys.clear();
  return action;
}

void Animator::release(Action* action) { free_actions_.push_back(action); }

void Animator::attach_root_motion(Action& action) {
  action.root = RootMotionTrack{};
  if (!root_.enabled || action.animation < 0) return;
  const auto a = static_cast<std::size_t>(action.animation);
  const ModelNode& bone = model_.nodes[static_cast<std::size_t>(root_.node)];
  const Trs rest = decompose_trs(bone.transform);
  std::span<const Keyframe> keys;
  const AnimationClip* clip = nullptr;
  int target = root_.node;
  if (root_.skin >= 0) {
    clip = animations_->animations[a].skin_sources[static_cast<std::size_t>(root_.skin)];
    target = static_cast<int>(root_.joint);
  } else {
    clip = &model_.animations[a].scene_clip;
  }
  if (clip != nullptr) {
    for (const BoneTrack& track : clip->tracks) {
      if (track.bone_index == target && !track.keys.empty()) keys = track.keys;  // the later wins
    }
  }
  if (action.live) keys = live_root_keys(action);
  action.root = RootMotionTrack(keys, rest, root_.parent_world);
}

// A live animation's root-motion joint keyed at its source's key times (the motion the baked
// clip would hold), made when it starts playing.
std::span<const Keyframe> Animator::live_root_keys(Action& action) {
  const LiveRetarget& live = *animations_->animations[static_cast<std::size_t>(action.animation)].live;
  std::vector<std::vector<TrsBlock>> skin_poses(skins_.size());
  for (std::size_t s = 0; s < skins_.size(); ++s) skin_poses[s] = skins_[s].rest;
  std::vector<TrsBlock> scene_pose = scene_rest_;
  action.live_root_keys.clear();
  const ModelAnimation& source = live.source->animations[static_cast<std::size_t>(live.source_animation)];
  for (const Ticks t : detail::key_times(*live.source, source)) {
    action.live->sample(t, skin_poses, scene_pose);
    const Trs trs = root_.skin >= 0 ? pose_joint(skin_poses[static_cast<std::size_t>(root_.skin)], root_.joint)
                                    : pose_joint(scene_pose, static_cast<std::size_t>(root_.node));
    action.live_root_keys.push_back(Keyframe{t, trs.translation, trs.rotation, trs.scale});
  }
  return action.live_root_keys;
}

}  // namespace marrow
