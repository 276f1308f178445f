// The Animator (animator.hpp): construction, playback control, layers and root-motion setup. Its
// frame is animator_frame.cpp (morph weights: animator_morphs.cpp), driven clips and inertialized
// switches animator_drive.cpp, its IK chains animator_ik.cpp, what it hands out (palettes, posed
// vertices, bounds, draw items) animator_outputs.cpp.
#include "marrow/model/animator.hpp"

#include "model/retarget_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"
#include "marrow/core/shown_number.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/joint_mask.hpp"

#include "compose_locals.hpp"

namespace marrow {

Animator::Animator(const Model& model) : Animator(compile_model(model)) {}

Animator::Animator(const Model& model, std::shared_ptr<const CompiledAnimations> animations)
    : Animator(compile_model(model, std::move(animations))) {}

Animator::Animator(std::shared_ptr<const CompiledModel> compiled)
    : compiled_(compiled != nullptr ? std::move(compiled) : throw std::invalid_argument("Animator: no compiled model")),
      model_(*compiled_->model),
      animations_(compiled_->animations.get()),
      parents_(compiled_->parents),
      bind_worlds_(compiled_->bind_worlds),
      scene_rest_(compiled_->scene_rest) {
  const Model& model = model_;
  const std::size_t bones = model.nodes.size();
  sources_.assign(bones, kLocalMatrix);
  worlds_.assign(bind_worlds_.begin(), bind_worlds_.end());
  if (compiled_->moves_scene_nodes) scene_animated_.reserve(bones);
  moving_.resize(bones);
  skins_.resize(model.skins.size());
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const CompiledSkin& shared = compiled_->skins[s];
    const SkinningData& data = model.skins[s].data;
    const auto n = static_cast<std::size_t>(data.bone_count);
    SkinState& state = skins_[s];
    state.shared = &shared;
    if (shared.with_scene) {  // the scene's pose holds the skin's locals, and its worlds when it can
      state.pose.to_scene_ = shared.joint_to_scene;
      state.pose.scene_sources_ = sources_;
      state.pose.scene_matrices_ = compiled_->locals;
      state.pose.scene_worlds_ = worlds_;
      state.pose.worlds_in_scene_ = shared.palette_is_scene;
      if (!shared.palette_is_scene) state.pose.worlds_ = shared.bind_worlds;
    } else {
      state.pose.locals_ = data.bind_pose;
      state.pose.worlds_ = shared.bind_worlds;
      state.still.reserve(n);
    }
    state.lane = static_cast<std::uint32_t>(blocks_.size() * kPoseLanes);
    blocks_.resize(blocks_.size() + pose_block_count(n), shared.rest.data());
    state.pose.palette_.resize(n);
    if (!shared.roots.empty()) state.prefixes = data.skeleton_root_prefix;
  }
  // The rigid nodes' lanes, then IK's (add_two_bone_ik and add_aim_ik add theirs).
  scene_lane_ = static_cast<std::uint32_t>(blocks_.size() * kPoseLanes);
  if (compiled_->moves_scene_nodes) blocks_.resize(blocks_.size() + pose_block_count(bones), scene_rest_.data());
  ik_lane_ = static_cast<std::uint32_t>(blocks_.size() * kPoseLanes);
  point_skin_poses();
  if (compiled_->has_dqs) {  // bounds() poses these parts, and allocates nothing
    palette_scratch_.resize(compiled_->max_palette);
    dual_quaternion_scratch_.resize(compiled_->max_palette);
    scale_shear_scratch_.resize(compiled_->max_palette);
  }
  bounds_scratch_.resize(compiled_->largest_dqs_part);
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
  if (compiled_->has_markers) {
    events_.reserve(kMaxEvents);
    marker_scratch_.resize(kMaxEvents);
  }
  refresh_action_sets();
  pose_frame();
  evaluate_morphs(true);
}

namespace {

// A fade is a duration: shown in seconds to six digits, so that a fade of a few ticks shows as one.
void refuse_negative_fade(Ticks fade, const char* call) {
  if (fade >= Ticks{0}) return;
  throw std::invalid_argument(std::string("Animator::") + call + ": fade " + shown_number(seconds_from_ticks(fade)) + " s is negative");
}

}  // namespace

void Animator::play(int index, const PlayOptions& options) {
  if (index < -1 || index >= static_cast<int>(model_.animations.size())) {
    throw std::out_of_range("Animator::play: animation " + std::to_string(index) + " of " +
                            std::to_string(model_.animations.size()));
  }
  refuse_negative_fade(options.fade, "play");
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
  ready_blending();
  pose_frame();
}

// The blend's outputs are sized once a frame may blend (two clips, a fade, a layer weight other
// than 1, a mask, an additive layer): an instance that plays one clip at a time at full weight
// keeps none. Called by what changes those (play, set_layer_weight, set_layer_mask, drive),
// never by update().
void Animator::ready_blending() {
  bool blends = layers_.size() > 1;
  for (const Layer& l : layers_) {
    if (blends) break;
    blends |= l.actions.size() > 1 || l.fade_duration > 0.0 || l.weight != 1.f || l.additive || !l.node_mask.empty();
    for (const Action* a : l.actions) blends |= a->weight != 1.f;
  }
  if (!blends) return;
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    if (skins_[s].blended.empty()) skins_[s].blended.resize(pose_block_count(static_cast<std::size_t>(model_.skins[s].data.bone_count)));
  }
  if (scene_blended_.empty() && !scene_animated_.empty()) scene_blended_.resize(pose_block_count(model_.nodes.size()));
}

void Animator::play(std::string_view name, const PlayOptions& options) {
  const int index = model_.find_animation(name);
  if (index < 0) throw std::out_of_range("Animator::play: no animation named '" + std::string(name) + "'");
  play(index, options);
}

void Animator::stop(std::size_t layer, Ticks fade) {
  refuse_negative_fade(fade, "stop");
  if (layer >= layers_.size() || layers_[layer].actions.empty()) return;  // nothing plays there
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
  ready_blending();
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
  ready_blending();
}

// The layer's per-node mask and each skin's in palette order; reuses the vectors' room, so a
// mask of the same size set again allocates nothing.
void Animator::assign_mask(Layer& l, std::span<const float> node_weights) {
  // No mask, as before (every frame of a graph's unmasked layers): nothing to write. The skin
  // masks are made only here, from node_mask, so with it empty they are too.
  if (node_weights.empty() && l.node_mask.empty() && l.skin_masks.size() == skins_.size()) return;
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
  const glm::vec3& up = options.up;
  if (!is_finite(up) || !(glm::length(up) > 0.f)) {
    throw std::invalid_argument("Animator::enable_root_motion: the up axis (" + std::to_string(up.x) + ", " + std::to_string(up.y) +
                                ", " + std::to_string(up.z) + ") is not a finite non-zero direction");
  }
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
  root_.up = glm::normalize(up);
  root_.node = node;
  for (std::size_t s = 0; s < skins_.size() && root_.skin < 0; ++s) {
    const int p = skins_[s].shared->scene_to_joint[static_cast<std::size_t>(node)];
    if (p >= 0) root_.skin = static_cast<int>(s), root_.joint = static_cast<std::size_t>(p);
  }
  const int parent = model_.nodes[static_cast<std::size_t>(node)].parent;
  root_.parent_world = parent >= 0 ? bind_worlds_[static_cast<std::size_t>(parent)] : glm::mat4(1.f);
  root_.parent_inverse = glm::inverse(glm::mat3(root_.parent_world));
  root_.local_up = glm::normalize(glm::inverse(decompose_trs(root_.parent_world).rotation) * root_.up);
  root_tracks_.clear();
  root_tracks_.resize(model_.animations.size());
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
      const auto& compressed = model_.skins[s].compressed_clips;
      const bool caches = std::any_of(compressed.begin(), compressed.end(), [](const auto& c) { return c.second.caches_keys(); });
      made->skin_contexts[s].resize(n, caches ? CompressedKeys::cache : CompressedKeys::decode_every_run);
      made->skin_poses[s].resize(pose_block_count(n));
    }
    if (compiled_->moves_scene_nodes) {  // else no clip samples rigid nodes
      made->scene_context.resize(model_.nodes.size());
      made->scene_pose.resize(pose_block_count(model_.nodes.size()));
    }
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
  action->root = nullptr;
  action->live.reset();
  action->live_root_keys.clear();
  std::fill(action->morph_driven.begin(), action->morph_driven.end(), std::uint8_t{0});
  return action;
}

void Animator::release(Action* action) { free_actions_.push_back(action); }

void Animator::attach_root_motion(Action& action) {
  action.root = nullptr;
  action.root_memo = RootMotionMemo{};  // live_root may be remade at the same address
  if (!root_.enabled || action.animation < 0) return;
  const auto a = static_cast<std::size_t>(action.animation);
  if (!action.live && root_tracks_[a] != nullptr) {
    action.root = root_tracks_[a].get();
    return;
  }
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
  if (action.live) {
    action.live_root = RootMotionTrack(live_root_keys(action), rest, root_.parent_world, root_.up);
    action.root = &action.live_root;
    return;
  }
  root_tracks_[a] = std::make_unique<const RootMotionTrack>(keys, rest, root_.parent_world, root_.up);
  action.root = root_tracks_[a].get();
}

// A live animation's root-motion joint keyed at its source's key times (the motion the baked
// clip would hold), made when it starts playing.
std::span<const Keyframe> Animator::live_root_keys(Action& action) {
  const LiveRetarget& live = *animations_->animations[static_cast<std::size_t>(action.animation)].live;
  std::vector<std::vector<TrsBlock>> skin_poses(skins_.size());
  for (std::size_t s = 0; s < skins_.size(); ++s) skin_poses[s] = skins_[s].shared->rest;
  std::vector<TrsBlock> scene_pose(scene_rest_.begin(), scene_rest_.end());
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
