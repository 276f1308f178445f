// MotionClips (model/motion_matcher.hpp): the database's clips gathered into one model, each
// moved to start over the origin facing +Z, and the feet's contacts per row.
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/core/quoted_name.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/model/humanoid_map.hpp"
#include "marrow/model/motion_matcher.hpp"
#include "motion_mirror.hpp"

namespace marrow {

namespace {

glm::vec3 ground(const glm::vec3& v) { return {v.x, 0.f, v.z}; }

// The joints (scene nodes of the first model): hips, then per leg upper, lower, foot.
struct MatcherJoints {
  int hips = -1;
  std::array<std::array<int, 3>, 2> legs{};
};

MatcherJoints find_joints(const Model& model, const MotionClipsOptions& o) {
  const std::string* names[7] = {&o.hips, &o.left_upper_leg, &o.left_lower_leg, &o.left_foot,
                                 &o.right_upper_leg, &o.right_lower_leg, &o.right_foot};
  const HumanoidBone bones[7] = {HumanoidBone::Hips,          HumanoidBone::LeftUpperLeg,  HumanoidBone::LeftLowerLeg,
                                 HumanoidBone::LeftFoot,      HumanoidBone::RightUpperLeg, HumanoidBone::RightLowerLeg,
                                 HumanoidBone::RightFoot};
  const bool all_named = std::all_of(std::begin(names), std::end(names), [](const std::string* n) { return !n->empty(); });
  HumanoidMap map;
  if (!all_named) map = humanoid_map(model);  // throws naming the bone it cannot find
  int nodes[7];
  for (int i = 0; i < 7; ++i) {
    if (names[i]->empty()) {
      nodes[i] = map.node(bones[i]);
    } else {
      nodes[i] = model.find_node(*names[i]);
      if (nodes[i] < 0) throw std::invalid_argument("MotionClips: the model has no node named " + quoted_name(*names[i]));
    }
    if (nodes[i] < 0) throw std::invalid_argument("MotionClips: the humanoid map lacks a leg joint or the hips");
  }
  return {nodes[0], {{{nodes[1], nodes[2], nodes[3]}, {nodes[4], nodes[5], nodes[6]}}}};
}

// Every model must be the first one's rig: the same nodes in the same order, the same skins.
void check_rig(const Model& first, const Model& other, std::size_t index) {
  bool same = first.nodes.size() == other.nodes.size() && first.skins.size() == other.skins.size();
  for (std::size_t n = 0; same && n < first.nodes.size(); ++n)
    same = first.nodes[n].name == other.nodes[n].name && first.nodes[n].parent == other.nodes[n].parent;
  for (std::size_t s = 0; same && s < first.skins.size(); ++s)
    same = first.skins[s].palette_to_scene == other.skins[s].palette_to_scene;
  if (!same) throw std::invalid_argument("MotionClips: model " + std::to_string(index) + " is not the first model's rig");
}

glm::mat4 loaded_world(const Model& model, int node) {
  glm::mat4 w(1.f);
  for (int n = node; n >= 0; n = model.nodes[static_cast<std::size_t>(n)].parent) w = model.nodes[static_cast<std::size_t>(n)].transform * w;
  return w;
}

// The database's rig forward in the hips' frame (motion_database.cpp: the first frame of the
// first clip with rows, across the upper legs crossed with up).
glm::vec3 forward_in_hips(const Model& model, int animation, const MatcherJoints& j) {
  Animator animator(model);
  animator.play(animation, {.loop = LoopMode::Once});
  const std::span<const glm::mat4> w = animator.absolute_bone_transforms();
  const glm::vec3 across = glm::vec3(w[static_cast<std::size_t>(j.legs[0][0])][3] - w[static_cast<std::size_t>(j.legs[1][0])][3]);
  glm::vec3 forward = ground(glm::cross(across, glm::vec3(0.f, 1.f, 0.f)));
  if (!(glm::length(forward) > 1e-6f)) forward = glm::vec3(0.f, 0.f, 1.f);
  const glm::quat hips = decompose_trs(w[static_cast<std::size_t>(j.hips)]).rotation;
  return glm::inverse(hips) * glm::normalize(forward);
}

bool is_ancestor(const Model& model, int node, int of) {
  for (int n = model.nodes[static_cast<std::size_t>(of)].parent; n >= 0; n = model.nodes[static_cast<std::size_t>(n)].parent)
    if (n == node) return true;
  return false;
}

// A track's scene node (to_scene: a skin's palette_to_scene; empty for the rigid clip), or -1.
int node_of(const BoneTrack& t, const std::vector<int>& to_scene) {
  if (t.bone_index < 0) return -1;
  const auto b = static_cast<std::size_t>(t.bone_index);
  return to_scene.empty() ? t.bone_index : (b < to_scene.size() ? to_scene[b] : -1);
}

// The clip's tracks of the hips' ancestors go (they rest at their loaded pose); returns the
// hips' track (the later one wins, as the Animator plays it), or null.
BoneTrack* strip_ancestors(const Model& model, AnimationClip& clip, const std::vector<int>& to_scene, int hips, int hips_index) {
  std::erase_if(clip.tracks, [&](const BoneTrack& t) {
    const int node = node_of(t, to_scene);
    return node >= 0 && is_ancestor(model, node, hips);
  });
  BoneTrack* found = nullptr;
  for (BoneTrack& t : clip.tracks)
    if (t.bone_index == hips_index && !t.keys.empty()) found = &t;
  return found;
}

// The hips' world motion, moved by `align`, as the hips' local transform (their parent rests at
// its loaded pose once the ancestors' tracks are gone).
glm::mat4 hips_to_local(const Model& source, int hips, const glm::mat4& align) {
  const int parent = source.nodes[static_cast<std::size_t>(hips)].parent;
  return glm::inverse(parent >= 0 ? loaded_world(source, parent) : glm::mat4(1.f)) * align;
}

// Clip `animation` of `source` into `merged` as `name`: its rigid clip and each skin's clip of
// that name with the hips' ancestors' tracks dropped (strip_ancestors), then keyed again by
// rekey(clip, palette_to_scene or {} for the rigid clip, the hips' track or null). Refused when
// no part of it moves the hips.
template <class Rekey>
void add_clip(const Model& source, int animation, int hips, Model& merged, const std::string& name, const Rekey& rekey) {
  ModelAnimation a = source.animations[static_cast<std::size_t>(animation)];
  const std::string source_name = a.name;
  a.name = name;
  a.scene_clip.name = name;
  BoneTrack* track = strip_ancestors(source, a.scene_clip, {}, hips, hips);
  bool keyed = track != nullptr;
  rekey(a.scene_clip, std::vector<int>{}, track);
  for (std::size_t s = 0; s < source.skins.size(); ++s) {
    const Skin& skin = source.skins[s];
    const auto found = skin.data.animation_clips.find(source_name);
    if (found == skin.data.animation_clips.end()) continue;
    AnimationClip clip = found->second;
    clip.name = name;
    track = strip_ancestors(source, clip, skin.palette_to_scene, hips, skin.scene_to_palette[static_cast<std::size_t>(hips)]);
    keyed |= track != nullptr;
    rekey(clip, skin.palette_to_scene, track);
    merged.skins[s].data.animation_clips[name] = std::move(clip);
  }
  if (!keyed) throw std::invalid_argument("MotionClips: clip '" + source_name + "' does not move the hips");
  merged.animations.push_back(std::move(a));
}

// The clip with its hips keyed at their key times with their world motion (ancestors folded
// in), moved by `align`.
void add_aligned_clip(const Model& source, int animation, Animator& sampler, const glm::mat4& align, int hips, Model& merged,
                      const std::string& name) {
  const glm::mat4 to_local = hips_to_local(source, hips, align);
  add_clip(source, animation, hips, merged, name, [&](AnimationClip&, const std::vector<int>&, BoneTrack* track) {
    if (track == nullptr) return;
    for (Keyframe& k : track->keys) {
      sampler.update(k.time, false);
      const Trs trs = decompose_trs(to_local * sampler.absolute_bone_transforms()[static_cast<std::size_t>(hips)]);
      k.translation = trs.translation, k.rotation = trs.rotation;
    }
  });
}

// MM5: the clip mirrored (motion_mirror.hpp, by `reflect`): every track keyed at its key times
// with the mirrored pose's local transform, the hips' with their world motion moved by `align`
// (as add_aligned_clip). A node keeps its loaded pose when the clip has no track for it, even if
// its mirror moves (motion-capture clips key every joint).
void add_mirrored_clip(const Model& source, int animation, Animator& sampler, const glm::mat4& align, const glm::mat4& reflect,
                       const detail::MotionMirror& mirror, int hips, Model& merged, const std::string& name) {
  const glm::mat4 to_local = hips_to_local(source, hips, align);
  std::map<Ticks, std::vector<glm::mat4>> poses;  // the mirrored pose per key time (tracks share them)
  const auto pose_at = [&](Ticks time) -> const std::vector<glm::mat4>& {
    auto [it, inserted] = poses.try_emplace(time);
    if (inserted) sampler.update(time, false), detail::mirror_pose(mirror, reflect, sampler.absolute_bone_transforms(), it->second);
    return it->second;
  };
  add_clip(source, animation, hips, merged, name, [&](AnimationClip& clip, const std::vector<int>& to_scene, BoneTrack*) {
    for (BoneTrack& track : clip.tracks) {
      const int node = node_of(track, to_scene);
      if (node < 0 || static_cast<std::size_t>(node) >= source.nodes.size()) continue;
      const int parent = source.nodes[static_cast<std::size_t>(node)].parent;
      for (Keyframe& k : track.keys) {
        const std::vector<glm::mat4>& w = pose_at(k.time);
        const glm::mat4 local = node == hips ? to_local * w[static_cast<std::size_t>(hips)]
                                             : glm::inverse(parent >= 0 ? w[static_cast<std::size_t>(parent)] : glm::mat4(1.f)) *
                                                   w[static_cast<std::size_t>(node)];
        const Trs trs = decompose_trs(local);
        k.translation = trs.translation, k.rotation = trs.rotation, k.scale = trs.scale;
      }
    }
  });
}

// Across a facing on the ground (the database's fallback, +Z, for none).
glm::vec3 lateral(const glm::vec3& facing) {
  const glm::vec3 f = glm::length(facing) > 1e-6f ? glm::normalize(facing) : glm::vec3(0.f, 0.f, 1.f);
  return {f.z, 0.f, -f.x};
}

void check_options(const MotionClipsOptions& options) {
  if (!(options.contact_quantile > 0.f && options.contact_quantile < 1.f))
    throw std::invalid_argument("MotionClips: contact_quantile " + std::to_string(options.contact_quantile) + " is not in (0, 1)");
}

const MotionDatabase& database_of(const Model& gathered) {
  if (!gathered.motion_database) throw std::invalid_argument("MotionClips: the model holds no motion database (marrow match build makes one)");
  return *gathered.motion_database;
}

float quantile(std::vector<float> values, float q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<float>(values.size() - 1))];
}

}  // namespace

MotionClips::MotionClips(const MotionDatabase& database, std::span<const Model* const> models, const MotionClipsOptions& options)
    : db_(database) {
  if (models.empty() || std::any_of(models.begin(), models.end(), [](const Model* m) { return m == nullptr; }))
    throw std::invalid_argument("MotionClips: no model, or a null one");
  check_options(options);
  const Model& first = *models[0];
  const MatcherJoints joints = find_joints(first, options);
  hips_ = joints.hips;
  legs_ = joints.legs;
  for (std::size_t m = 1; m < models.size(); ++m) check_rig(first, *models[m], m);
  const std::span<const MotionRange> ranges = db_.ranges();
  const auto first_clip = std::find_if(ranges.begin(), ranges.end(), [](const MotionRange& r) { return r.rows > 0; });
  if (first_clip == ranges.end() || first_clip->model >= models.size())
    throw std::invalid_argument("MotionClips: the database's ranges name no clip of these models");
  hips_forward_ = forward_in_hips(*models[first_clip->model], first_clip->animation, joints);

  model_ = std::make_unique<Model>(first);
  model_->animations.clear();
  for (Skin& skin : model_->skins) skin.data.animation_clips.clear(), skin.compressed_clips.clear();
  std::vector<std::unique_ptr<Animator>> samplers(models.size());
  const bool mirrored = !ranges.empty() && ranges.back().mirrored;
  const detail::MotionMirror mirror = mirrored ? detail::make_motion_mirror(first, legs_[0][0], legs_[1][0]) : detail::MotionMirror{};
  for (const MotionRange& r : ranges) {
    if (r.rows == 0 || r.model >= models.size()) {
      animation_of_range_.push_back(-1);
      continue;
    }
    const Model& source = *models[r.model];
    if (source.animations[static_cast<std::size_t>(r.animation)].live)
      throw std::invalid_argument("MotionClips: clip '" + r.name + "' is a live retarget");
    if (!samplers[r.model]) samplers[r.model] = std::make_unique<Animator>(source);
    Animator& sampler = *samplers[r.model];
    sampler.play(r.animation, {.loop = LoopMode::Once});
    // The move that puts the hips over the origin facing +Z at time 0.
    const glm::mat4 hips0 = sampler.absolute_bone_transforms()[static_cast<std::size_t>(hips_)];
    const glm::vec3 facing = ground(decompose_trs(hips0).rotation * hips_forward_);
    const float yaw0 = glm::length(facing) > 1e-6f ? std::atan2(facing.x, facing.z) : 0.f;
    const glm::mat4 align = glm::rotate(glm::mat4(1.f), -yaw0, glm::vec3(0.f, 1.f, 0.f)) *
                            glm::translate(glm::mat4(1.f), -ground(glm::vec3(hips0[3])));
    std::string name = r.name;
    while (model_->find_animation(name) >= 0) name += "'";  // clip names must stay unique
    animation_of_range_.push_back(static_cast<int>(model_->animations.size()));
    if (!r.mirrored) {
      add_aligned_clip(source, r.animation, sampler, align, hips_, *model_, name);
    } else {
      // The database's plane (motion_database.cpp): through the hips on the ground at time 0,
      // spanned by up and the facing; the mirrored clip starts where the original does.
      const glm::mat4 reflect = detail::reflection(ground(glm::vec3(hips0[3])), lateral(facing));
      add_mirrored_clip(source, r.animation, sampler, align, reflect, mirror, hips_, *model_, name);
    }
  }
  finish(options);
}

MotionClips::MotionClips(const Model& gathered, const MotionClipsOptions& options)
    : kept_db_(gathered.motion_database), db_(database_of(gathered)) {
  check_options(options);
  validate(db_, gathered);
  const MatcherJoints joints = find_joints(gathered, options);
  hips_ = joints.hips;
  legs_ = joints.legs;
  int first_clip = -1;
  for (const MotionRange& r : db_.ranges()) {
    animation_of_range_.push_back(r.rows > 0 ? r.animation : -1);
    if (r.rows == 0) continue;
    if (gathered.animations[static_cast<std::size_t>(r.animation)].live)
      throw std::invalid_argument("MotionClips: clip '" + r.name + "' is a live retarget");
    if (first_clip < 0) first_clip = r.animation;
  }
  hips_forward_ = forward_in_hips(gathered, first_clip, joints);  // a database has rows
  model_ = std::make_unique<Model>(gathered);
  finish(options);
}

Model MotionClips::gathered_model() const {
  Model out = *model_;
  MotionDatabaseData d = db_.data();
  for (std::size_t k = 0; k < d.ranges.size(); ++k) {
    const int a = animation_of_range_[k];
    d.ranges[k].model = 0;
    d.ranges[k].animation = a;
    if (a >= 0) d.ranges[k].name = out.animations[static_cast<std::size_t>(a)].name;  // a repeated name got primes
  }
  out.motion_database = std::make_shared<const MotionDatabase>(std::move(d));
  return out;
}

// The compiled model, the clips in place, and the feet's contacts per row.
void MotionClips::finish(const MotionClipsOptions& options) {
  compiled_ = compile_model(*model_);
  bake_root_motion();
  for (std::size_t c = 0; c < 6; ++c) foot_unscale_[c] = db_.scale()[c] != 0.f ? 1.f / db_.scale()[c] : 0.f;

  // MM6: contact thresholds, quantiles of every foot height and speed of the database.
  contacts_.assign(2 * db_.size(), 0);
  const std::span<const float> scale = db_.scale();
  if (std::any_of(scale.begin(), scale.begin() + 12, [](float s) { return s == 0.f; })) return;  // feet that never move: no contact
  std::vector<float> heights, speeds;
  for (std::size_t r = 0; r < db_.size(); ++r) {
    for (std::size_t f = 0; f < 2; ++f) {
      heights.push_back(foot_position(r, f).y);
      glm::vec3 v;
      for (std::size_t k = 0; k < 3; ++k) v[static_cast<int>(k)] = db_.row(r)[6 + 3 * f + k] / scale[6 + 3 * f + k] + db_.mean()[6 + 3 * f + k];
      speeds.push_back(glm::length(v));
    }
  }
  contact_height_ = quantile(heights, options.contact_quantile);
  contact_speed_ = quantile(speeds, options.contact_quantile);
  for (std::size_t i = 0; i < contacts_.size(); ++i) contacts_[i] = heights[i] <= contact_height_ && speeds[i] <= contact_speed_;
}

// Each clip played with R1 on the hips (yaw included), seeked to each of its hips keys: the
// offset it reports there is kept, and the hips' local transform it shows (the offset taken
// out) becomes that key of the in-place copy, in every clip of the animation that keys the hips.
// The copy plays its keys: a compressed clip (Skin::compressed_clips, which plays instead of
// the keys) would still carry the travel, and a compressed model's keys are what its compressed
// clips decode to (compress_model_clips).
void MotionClips::bake_root_motion() {
  in_place_model_ = std::make_unique<Model>(*model_);
  for (Skin& skin : in_place_model_->skins) skin.compressed_clips.clear();
  Animator animator(compiled_);
  animator.enable_root_motion({.joint = model_->nodes[static_cast<std::size_t>(hips_)].name, .yaw = true});
  root_motion_.assign(animation_of_range_.size(), BakedRootMotion{});
  for (std::size_t r = 0; r < animation_of_range_.size(); ++r) {
    const int a = animation_of_range_[r];
    if (a < 0) continue;
    ModelAnimation& animation = in_place_model_->animations[static_cast<std::size_t>(a)];
    std::vector<BoneTrack*> hips;  // the rigid clip's hips track and each skin's
    for (BoneTrack& t : animation.scene_clip.tracks)
      if (t.bone_index == hips_) hips.push_back(&t);
    for (std::size_t s = 0; s < in_place_model_->skins.size(); ++s) {
      Skin& skin = in_place_model_->skins[s];
      const auto found = skin.data.animation_clips.find(animation.name);
      const int bone = skin.scene_to_palette[static_cast<std::size_t>(hips_)];
      if (found == skin.data.animation_clips.end() || bone < 0) continue;
      for (BoneTrack& t : found->second.tracks)
        if (t.bone_index == bone) hips.push_back(&t);
    }
    BakedRootMotion& baked = root_motion_[r];
    for (const BoneTrack* t : hips)
      for (const Keyframe& k : t->keys) baked.times.push_back(k.time);
    std::sort(baked.times.begin(), baked.times.end());
    baked.times.erase(std::unique(baked.times.begin(), baked.times.end()), baked.times.end());
    std::vector<Trs> shown(baked.times.size());  // the hips' local at each time, R1 taken out
    animator.play(a, {.loop = LoopMode::Once});
    for (std::size_t k = 0; k < baked.times.size(); ++k) {
      animator.update(baked.times[k], false);
      baked.offsets.push_back(animator.root_motion_offset());
      shown[k] = decompose_trs(animator.bone_transforms()[static_cast<std::size_t>(hips_)]);
    }
    for (BoneTrack* t : hips) {
      for (Keyframe& key : t->keys) {
        const auto k = static_cast<std::size_t>(std::lower_bound(baked.times.begin(), baked.times.end(), key.time) - baked.times.begin());
        key.translation = shown[k].translation, key.rotation = shown[k].rotation;
      }
    }
  }
  in_place_ = compile_model(*in_place_model_);
}

glm::vec3 MotionClips::foot_position(std::size_t row, std::size_t foot) const {
  const std::span<const float> features = db_.row(row);
  // (A column of scale 0 holds its mean: its unscale is 0, and its features are finite.)
  glm::vec3 p;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t c = 3 * foot + k;
    p[static_cast<int>(k)] = features[c] * foot_unscale_[c] + db_.mean()[c];
  }
  return p;
}

}  // namespace marrow
