#include "marrow/model/animator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/joint_mask.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"
#include "marrow/runtime/skinned_bounds_job.hpp"
#include "marrow/runtime/skinning_job.hpp"

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
  const std::size_t bones = model.bones.size();
  parents_.resize(bones);
  locals_.resize(bones);
  for (std::size_t i = 0; i < bones; ++i) {
    parents_[i] = model.bones[i].parent;
    locals_[i] = model.bones[i].transform;
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
    state.scene_to_joint.assign(bones, -1);
    for (std::size_t p = 0; p < n && p < skin.palette_to_scene.size(); ++p) {
      const int node = skin.palette_to_scene[p];
      if (node >= 0 && static_cast<std::size_t>(node) < bones) state.scene_to_joint[static_cast<std::size_t>(node)] = static_cast<int>(p);
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
        const int ancestor = model.bones[static_cast<std::size_t>(bone)].parent;
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
  if (!std::isfinite(options.fade) || options.fade < 0.0) {
    throw std::invalid_argument("Animator::play: fade " + std::to_string(options.fade) + " s is negative or not finite");
  }
  if (!std::isfinite(options.rate)) {
    throw std::invalid_argument("Animator::play: rate " + std::to_string(options.rate) + " is not finite");
  }
  if (!std::isfinite(options.start)) {
    throw std::invalid_argument("Animator::play: start " + std::to_string(options.start) + " s is not finite");
  }
  Layer& layer = layer_at(options.layer);
  if (options.fade > 0.0 && !layer.actions.empty()) {
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
    layer.fade_duration = options.fade;
    layer.curve = options.curve;
  } else {
    for (Action* action : layer.actions) release(action);
    layer.actions.clear();
    layer.fade_duration = 0.0;
  }
  if (index >= 0) {
    Action* action = take_action(index);
    const Ticks duration = model_.animations[static_cast<std::size_t>(index)].duration;
    action->clock = PlaybackClock(duration, options.rate, options.loop, ticks_from_seconds(options.start));
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

void Animator::stop(std::size_t layer, double fade) {
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
  if (!node_weights.empty() && node_weights.size() != model_.bones.size()) {
    throw std::invalid_argument("Animator::set_layer_mask: " + std::to_string(node_weights.size()) +
                                " weights for " + std::to_string(model_.bones.size()) + " nodes");
  }
  for (std::size_t i = 0; i < node_weights.size(); ++i) {
    if (!std::isfinite(node_weights[i]) || node_weights[i] < 0.f) {
      throw std::invalid_argument("Animator::set_layer_mask: weight " + std::to_string(node_weights[i]) + " of node " +
                                  std::to_string(i) + " is negative or not finite");
    }
  }
  Layer& l = layer_at(layer);
  l.node_mask.assign(node_weights.begin(), node_weights.end());
  l.skin_masks.assign(skins_.size(), {});
  if (node_weights.empty()) return;
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    const std::vector<int>& to_scene = model_.skins[s].palette_to_scene;
    std::vector<float>& mask = l.skin_masks[s];
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
  const int parent = model_.bones[static_cast<std::size_t>(node)].parent;
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

namespace {

// The end of the index range an IK correction at `root` can move: root's subtree, when its nodes
// are exactly [root, e) (depth-first node orders, the usual), else every node after root. Parents
// precede their children, so one forward pass finds the subtree.
std::size_t subtree_end(const std::vector<int>& parents, std::size_t root) {
  const std::size_t n = parents.size();
  std::vector<char> inside(n, 0);
  inside[root] = 1;
  std::size_t end = root + 1;
  bool contiguous = true;
  for (std::size_t i = root + 1; i < n; ++i) {
    const int p = parents[i];
    inside[i] = p >= static_cast<int>(root) && inside[static_cast<std::size_t>(p)];
    if (inside[i]) {
      contiguous &= end == i;
      end = i + 1;
    }
  }
  return contiguous ? end : n;
}

}  // namespace

std::size_t Animator::add_two_bone_ik(std::string_view start, std::string_view mid, std::string_view end) {
  TwoBoneIkChain chain;
  chain.start = node_named(start, "add_two_bone_ik: start");
  chain.mid = node_named(mid, "add_two_bone_ik: mid");
  chain.end = node_named(end, "add_two_bone_ik: end");
  if (model_.bones[static_cast<std::size_t>(chain.mid)].parent != chain.start ||
      model_.bones[static_cast<std::size_t>(chain.end)].parent != chain.mid) {
    throw std::invalid_argument("Animator::add_two_bone_ik: '" + std::string(start) + "', '" + std::string(mid) +
                                "', '" + std::string(end) + "' is not a chain parent -> child -> grandchild");
  }
  two_bone_.push_back(chain);
  two_bone_end_.push_back(subtree_end(parents_, static_cast<std::size_t>(chain.start)));
  ik_touched_.reserve(2 * two_bone_.size() + aim_.size());
  return two_bone_.size() - 1;
}

namespace {

void check_finite(const glm::vec3& v, const char* what) {
  if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
    throw std::invalid_argument(std::string("Animator: ") + what + " (" + std::to_string(v.x) + ", " +
                                std::to_string(v.y) + ", " + std::to_string(v.z) + ") is not finite");
  }
}

void check_unit_weight(float weight, const char* what) {
  if (!(weight >= 0.f && weight <= 1.f)) {
    throw std::invalid_argument(std::string("Animator: ") + what + " weight " + std::to_string(weight) +
                                " is outside [0, 1]");
  }
}

}  // namespace

void Animator::set_two_bone_ik(std::size_t chain, const glm::vec3& target, float weight, std::optional<glm::vec3> pole,
                               float soften) {
  TwoBoneIkChain& c = two_bone_.at(chain);
  check_finite(target, "two-bone IK target");
  if (pole) check_finite(*pole, "two-bone IK pole");
  check_unit_weight(weight, "two-bone IK");
  if (!(soften > 0.f && soften <= 1.f)) {
    throw std::invalid_argument("Animator: two-bone IK soften " + std::to_string(soften) + " is outside (0, 1]");
  }
  c.target = target;
  c.pole = pole;
  c.weight = weight;
  c.soften = soften;
}

std::size_t Animator::add_aim_ik(std::string_view node, const glm::vec3& forward, const glm::vec3& up,
                                 const glm::vec3& offset) {
  AimIkChain chain;
  chain.node = node_named(node, "add_aim_ik: node");
  check_finite(forward, "aim IK forward");
  check_finite(up, "aim IK up");
  check_finite(offset, "aim IK offset");
  const auto unit = [](const glm::vec3& v) { return std::fabs(glm::length(v) - 1.f) < 1e-3f; };
  if (!unit(forward) || !unit(up) || glm::length(glm::cross(forward, up)) < 1e-3f) {
    throw std::invalid_argument("Animator::add_aim_ik: forward and up must be unit vectors that are not parallel");
  }
  chain.forward = forward;
  chain.up = up;
  chain.offset = offset;
  aim_.push_back(chain);
  aim_end_.push_back(subtree_end(parents_, static_cast<std::size_t>(chain.node)));
  ik_touched_.reserve(2 * two_bone_.size() + aim_.size());
  return aim_.size() - 1;
}

void Animator::set_aim_ik(std::size_t chain, const glm::vec3& target, float weight, const glm::vec3& pole) {
  AimIkChain& c = aim_.at(chain);
  check_finite(target, "aim IK target");
  check_finite(pole, "aim IK pole");
  if (glm::length(pole) <= 0.f) throw std::invalid_argument("Animator: aim IK pole is the zero vector");
  check_unit_weight(weight, "aim IK");
  c.target = target;
  c.weight = weight;
  c.pole = pole;
}

int Animator::node_named(std::string_view name, const char* what) const {
  for (std::size_t b = 0; b < model_.bones.size(); ++b) {
    if (model_.bones[b].name == name) return static_cast<int>(b);
  }
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
      made->skin_contexts[s].resize(n);
      made->skin_poses[s].resize(pose_block_count(n));
    }
    made->scene_context.resize(model_.bones.size());
    made->scene_pose.resize(pose_block_count(model_.bones.size()));
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
  return action;
}

void Animator::release(Action* action) { free_actions_.push_back(action); }

void Animator::attach_root_motion(Action& action) {
  action.root = RootMotionTrack{};
  if (!root_.enabled || action.animation < 0) return;
  const auto a = static_cast<std::size_t>(action.animation);
  const ModelBone& bone = model_.bones[static_cast<std::size_t>(root_.node)];
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
  action.root = RootMotionTrack(keys, rest, root_.parent_world);
}

int Animator::install_palettes() const {
  int installed = 0;
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    const std::span<const glm::mat4> palette = skins_[s].pose.skin_transforms();
    for (int m : model_.skins[s].meshes) {
      for (const ModelMeshPart& part : model_.meshes[static_cast<std::size_t>(m)].parts) {
        if (!part.skinned_material) continue;
        if (part.palette_joints.empty()) {
          part.skinned_material->set_bone_transforms(palette);
        } else {
          part.skinned_material->set_bone_transforms(palette, part.palette_joints);  // S4
        }
        ++installed;
      }
    }
  }
  return installed;
}

std::size_t Animator::write_palette(std::size_t skin, PaletteFormat format, std::span<float> out) const {
  const std::span<const glm::mat4> palette = skins_.at(skin).pose.skin_transforms();
  const std::size_t need = palette.size() * palette_floats_per_joint(format);
  if (out.size() < need) {
    throw std::invalid_argument("Animator::write_palette: skin " + std::to_string(skin) + " needs " +
                                std::to_string(need) + " floats, out holds " + std::to_string(out.size()));
  }
  return write_gpu_palette(palette, format, out);
}

std::size_t Animator::write_part_palette(std::size_t mesh, std::size_t part, PaletteFormat format,
                                         std::span<float> out) const {
  const ModelMesh& mesh_data = model_.meshes.at(mesh);
  const ModelMeshPart& data = mesh_data.parts.at(part);
  if (mesh_data.skin < 0) {
    throw std::invalid_argument("Animator::write_part_palette: mesh " + std::to_string(mesh) + " is not skinned");
  }
  const std::span<const glm::mat4> palette = skins_[static_cast<std::size_t>(mesh_data.skin)].pose.skin_transforms();
  const std::size_t joints = data.palette_joints.empty() ? palette.size() : data.palette_joints.size();
  const std::size_t need = joints * palette_floats_per_joint(format);
  if (out.size() < need) {
    throw std::invalid_argument("Animator::write_part_palette: mesh " + std::to_string(mesh) + " part " +
                                std::to_string(part) + " needs " + std::to_string(need) + " floats, out holds " +
                                std::to_string(out.size()));
  }
  // validate(Model) checked the map against the skin, so the gather writes every entry.
  return data.palette_joints.empty() ? write_gpu_palette(palette, format, out)
                                     : write_gpu_palette(palette, data.palette_joints, format, out);
}

std::span<const std::byte> Animator::vertex_bytes(std::size_t mesh, std::size_t part) const {
  const ModelMeshPart& data = model_.meshes.at(mesh).parts.at(part);
  const PartState& state = meshes_[mesh].parts[part];
  return data.morph ? std::span<const std::byte>(state.bytes) : std::span<const std::byte>(data.vertex_bytes);
}

std::uint64_t Animator::vertex_revision(std::size_t mesh, std::size_t part) const {
  return meshes_.at(mesh).parts.at(part).revision;
}

glm::mat4 Animator::part_world(std::size_t mesh) const {
  const ModelMesh& data = model_.meshes.at(mesh);
  const auto bone = static_cast<std::size_t>(data.parent_bone);
  return data.skin >= 0 ? bind_worlds_[bone] : worlds_[bone];
}

std::size_t Animator::size_in_bytes() const noexcept {
  const auto mats = [](const std::vector<glm::mat4>& v) { return v.capacity() * sizeof(glm::mat4); };
  const auto poses = [](const std::vector<TrsBlock>& v) { return v.capacity() * sizeof(TrsBlock); };
  std::size_t bytes = sizeof(*this) + parents_.capacity() * sizeof(int) + mats(locals_) + mats(worlds_) +
                      mats(bind_worlds_) + mats(palette_scratch_) + mats(scale_shear_scratch_) +
                      dual_quaternion_scratch_.capacity() * sizeof(SkinDualQuaternion) + poses(scene_rest_) +
                      poses(scene_blended_) +
                      scene_animated_.capacity() * sizeof(std::size_t) + events_.capacity() * sizeof(AnimationEvent) +
                      marker_scratch_.capacity() * sizeof(std::uint32_t) +
                      bounds_scratch_.capacity() * sizeof(glm::vec3) + skin_boxes_.capacity() * sizeof(BoundingBox) +
                      (blend_layers_.capacity() + blend_additive_.capacity()) * sizeof(BlendingLayer);
  for (const SkinState& s : skins_) {
    bytes += sizeof(s) + mats(s.pose.locals_) + mats(s.pose.worlds_) + mats(s.pose.palette_) + poses(s.rest) +
             poses(s.blended) + (s.animated.capacity() + s.still.capacity()) * sizeof(std::size_t) +
             s.scene_to_joint.capacity() * sizeof(int) + mats(s.prefixes) + s.roots.capacity() * sizeof(RootJoint);
  }
  for (const Layer& l : layers_) {
    bytes += sizeof(l) + l.node_mask.capacity() * sizeof(float) + l.actions.capacity() * sizeof(Action*);
    for (const auto& m : l.skin_masks) bytes += m.capacity() * sizeof(float);
  }
  for (const auto& a : actions_) {
    bytes += sizeof(*a) + a->scene_context.size_in_bytes() + poses(a->scene_pose);
    for (const SamplingContext& c : a->skin_contexts) bytes += c.size_in_bytes();
    for (const auto& p : a->skin_poses) bytes += poses(p);
    for (const auto& w : a->morph_weights) bytes += w.capacity() * sizeof(float);
  }
  for (const MeshState& m : meshes_) {
    bytes += sizeof(m) + (m.weights.capacity() + m.scratch.capacity()) * sizeof(float);
    for (const PartState& p : m.parts) bytes += sizeof(p) + p.bytes.capacity();
  }
  return bytes;
}

void Animator::pose_part(std::size_t mesh, std::size_t part, std::span<glm::vec3> positions,
                         std::span<glm::vec3> normals) {
  const ModelMesh& mesh_data = model_.meshes.at(mesh);
  const ModelMeshPart& data = mesh_data.parts.at(part);
  const std::span<const std::byte> bytes = vertex_bytes(mesh, part);
  const VertexLayout& layout = data.layout;
  const std::size_t n = data.vertex_count();
  if (positions.size() != n) {
    throw std::invalid_argument("Animator::pose_part: " + std::to_string(positions.size()) + " positions for " +
                                std::to_string(n) + " vertices");
  }
  const bool want_normals = !normals.empty() && layout.has(VertexAttribute::Normal);
  if (want_normals && normals.size() != n) {
    throw std::invalid_argument("Animator::pose_part: " + std::to_string(normals.size()) + " normals for " +
                                std::to_string(n) + " vertices");
  }
  const auto in_positions = attribute_view<glm::vec3>(bytes, layout, VertexAttribute::Position);
  const auto in_normals = want_normals ? attribute_view<glm::vec3>(bytes, layout, VertexAttribute::Normal)
                                       : StridedSpan<const glm::vec3>();
  const glm::mat4 world = part_world(mesh);

  if (mesh_data.skin >= 0) {
    // World-space palette: draw * palette = W_joint * IBM.
    const std::span<const glm::mat4> whole = skins_[static_cast<std::size_t>(mesh_data.skin)].pose.skin_transforms();
    // A split part (S4) skins with the sub-palette its JOINTS index (validate(Model) checked the
    // map, which is never longer than the skin).
    const std::span<const std::uint32_t> map = data.palette_joints;
    const std::size_t joints = map.empty() ? whole.size() : map.size();
    for (std::size_t j = 0; j < joints; ++j) palette_scratch_[j] = world * whole[map.empty() ? j : map[j]];
    const std::span<const glm::mat4> skin(palette_scratch_.data(), joints);
    SkinningJob job;
    job.palette = skin;
    job.influences = layout.influences;  // S1: every set of the part
    job.joints = attribute_view<glm::u16vec4>(bytes, layout, VertexAttribute::Joints0);
    job.weights = attribute_view<glm::vec4>(bytes, layout, VertexAttribute::Weights0);
    if (data.skinning == SkinningMode::DualQuaternion) {
      // S3: this palette as rigid dual quaternions and scale/shear parts, then DQS.
      if (dual_quaternion_scratch_.size() < skin.size()) {  // a part switched to DQS after construction
        dual_quaternion_scratch_.resize(skin.size());
        scale_shear_scratch_.resize(skin.size());
      }
      const DualQuaternionPaletteJob convert{job.palette, std::span(dual_quaternion_scratch_).first(skin.size()),
                                             std::span(scale_shear_scratch_).first(skin.size())};
      convert.run();
      job.mode = SkinningMode::DualQuaternion;
      job.dual_quaternions = convert.out_dual_quaternions;
      job.scale_shear = convert.out_scale_shear;
    }
    job.in_positions = in_positions;
    job.out_positions = positions;
    if (want_normals) {
      job.in_normals = in_normals;
      job.out_normals = normals;
    }
    // Sizes were checked above and joint indices at load (validate(Model)), so run() succeeds;
    // were it to refuse, run_or_throw() names the field.
    if (!job.run()) job.run_or_throw();
    return;
  }
  const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(world)));
  for (std::size_t v = 0; v < n; ++v) {
    positions[v] = glm::vec3(world * glm::vec4(in_positions.load(v), 1.f));
    if (want_normals) {
      const glm::vec3 nrm = normal_matrix * in_normals.load(v);
      const float len = glm::length(nrm);
      normals[v] = len > 0.f ? nrm / len : nrm;
    }
  }
}

BoundingBox Animator::bounds() {
  // Each skin's box once, in its palette space (SkinnedBoundsJob: the header's argument).
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    const JointBounds& joints = own_bounds_ ? own_bounds_->skins[s] : model_.skins[s].joint_bounds;
    SkinnedBoundsJob{joints.joints, joints.centers, joints.extents, skins_[s].pose.worlds_, &skin_boxes_[s]}.run();
  }
  BoundingBox box;
  for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
    const ModelMesh& mesh = model_.meshes[m];
    if (mesh.skin < 0) {  // rigid (morphs included in the local box): moved by its bone
      const BoundingBox& local = own_bounds_ ? own_bounds_->meshes[m] : mesh.local_bounds;
      box.extend(transformed(local, worlds_[static_cast<std::size_t>(mesh.parent_bone)]));
      continue;
    }
    bool linear = false;
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      if (part.vertex_count() == 0) continue;
      if (part.skinning != SkinningMode::DualQuaternion) {
        linear = true;
        continue;
      }
      // Dual-quaternion skinning is no convex blend (skinned_bounds_job.hpp): pose the part.
      if (bounds_scratch_.size() < part.vertex_count()) bounds_scratch_.resize(part.vertex_count());
      const std::span<glm::vec3> posed = std::span(bounds_scratch_).first(part.vertex_count());
      pose_part(m, p, posed);
      box.extend(bounding_box_of(posed));
    }
    // Palette space -> the space pose_part outputs (the part's draw matrix).
    if (linear) box.extend(transformed(skin_boxes_[static_cast<std::size_t>(mesh.skin)], part_world(m)));
  }
  return box;
}

void Animator::draw(const DrawCallback& callback) const {
  for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
    const ModelMesh& mesh = model_.meshes[m];
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      callback(DrawItem{m, p, &part, part_world(m), vertex_bytes(m, p), part.skinned_material.get()});
    }
  }
}

}  // namespace marrow
