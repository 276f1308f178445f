#include "marrow/model/retarget_clips.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "marrow/core/trs.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/compiled_animations.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/two_bone_ik_job.hpp"
#include "model/retarget_plan.hpp"

namespace marrow {
namespace {

// The keys of the driven joints as clips of the target: per skin (its joints) and rigid.
void add_animation(Model& model, const RetargetMap& map, const ModelAnimation& source_animation, const std::string& name,
                   const std::vector<std::size_t>& driven, std::vector<std::vector<Keyframe>>& keys) {
  ModelAnimation animation;
  animation.name = name;
  animation.duration = source_animation.duration;
  animation.markers = source_animation.markers;
  animation.scene_clip = AnimationClip{name, source_animation.duration, {}, ClipTargetSpace::SceneNode};
  std::vector<AnimationClip> skin_clips(model.skins.size(), AnimationClip{name, source_animation.duration, {}, ClipTargetSpace::JointPalette});
  for (std::size_t d = 0; d < driven.size(); ++d) {
    const auto node = static_cast<std::size_t>(map.target_nodes()[driven[d]]);
    bool joint = false;
    for (std::size_t k = 0; k < model.skins.size(); ++k) {
      const int palette = model.skins[k].scene_to_palette[node];
      if (palette < 0) continue;
      skin_clips[k].tracks.push_back(BoneTrack{palette, keys[d]});
      joint = true;
    }
    if (!joint) animation.scene_clip.tracks.push_back(BoneTrack{static_cast<int>(node), std::move(keys[d])});
  }
  for (std::size_t k = 0; k < model.skins.size(); ++k)
    if (!skin_clips[k].tracks.empty()) model.skins[k].data.animation_clips[name] = std::move(skin_clips[k]);
  model.animations.push_back(std::move(animation));
}

}  // namespace

namespace detail {

std::vector<Ticks> key_times(const Model& model, const ModelAnimation& animation) {
  std::vector<Ticks> times{Ticks{0}};
  const auto add = [&](const AnimationClip& clip) {
    for (const BoneTrack& track : clip.tracks)
      for (const Keyframe& key : track.keys) times.push_back(std::clamp(key.time, Ticks{0}, animation.duration));
  };
  add(animation.scene_clip);
  for (const Skin& skin : model.skins)
    if (const auto it = skin.data.animation_clips.find(animation.name); it != skin.data.animation_clips.end()) add(it->second);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

std::vector<int> asked_clips(const Model& source, const Model& target, const RetargetClipsOptions& options) {
  std::vector<int> indices;
  if (options.clips.empty()) {
    for (std::size_t a = 0; a < source.animations.size(); ++a) indices.push_back(static_cast<int>(a));
  } else {
    for (const std::string& name : options.clips) {
      const int a = source.find_animation(name);
      if (a < 0) throw std::invalid_argument("retarget: the source has no clip named \"" + name + "\"");
      indices.push_back(a);
    }
  }
  std::vector<std::string> names;
  for (const int a : indices) {
    const std::string name = options.prefix + source.animations[static_cast<std::size_t>(a)].name;
    if (target.find_animation(name) >= 0)
      throw std::invalid_argument("retarget: the target already has a clip named \"" + name + "\" (give a prefix)");
    if (std::find(names.begin(), names.end(), name) != names.end())
      throw std::invalid_argument("retarget: two clips would be named \"" + name + "\"");
    names.push_back(name);
  }
  return indices;
}

std::vector<std::size_t> driven_joints(const RetargetRig& rig) {
  std::vector<std::uint8_t> driven(rig.target_joint_count(), 0);
  for (std::size_t i = 0; i < driven.size(); ++i) driven[i] = rig.target_source[i] >= 0 ? 1 : 0;
  for (const RetargetChain& chain : rig.chains)
    for (const int b : chain.between) driven[static_cast<std::size_t>(b)] = 1;
  if (rig.target_hips >= 0) driven[static_cast<std::size_t>(rig.target_hips)] = 1;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < driven.size(); ++i)
    if (driven[i] != 0) out.push_back(i);
  return out;
}

}  // namespace detail

void pin_feet(std::span<const int> parents, const RetargetMap& map, std::span<const TrsBlock> source_pose,
              std::span<TrsBlock> target_pose, std::span<glm::mat4> node_locals, std::span<glm::mat4> node_worlds) {
  const std::span<const int> nodes = map.target_nodes();
  const std::span<const glm::mat4> rest = map.target_rest();
  std::copy(rest.begin(), rest.end(), node_locals.begin());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    node_locals[static_cast<std::size_t>(nodes[i])] = compose_trs(pose_joint(target_pose, i));
  LocalToModelJob compose{.parents = parents, .local_matrices = node_locals, .models = node_worlds};
  compose.run();
  for (const RetargetLeg& leg : map.legs()) {
    if (leg.upper < 0 || leg.lower < 0 || leg.foot < 0) continue;
    const auto node = [&](int joint) { return static_cast<std::size_t>(nodes[static_cast<std::size_t>(joint)]); };
    const glm::vec3 source_foot = retarget_source_position(map.rig(), source_pose, static_cast<std::size_t>(leg.source_foot));
    const glm::vec3 goal = leg.target_rest + map.root_scale() * (source_foot - leg.source_rest);
    const glm::mat4 foot_world = node_worlds[node(leg.foot)];
    glm::quat upper_correction, lower_correction;
    TwoBoneIkJob ik{.start = &node_worlds[node(leg.upper)], .mid = &node_worlds[node(leg.lower)], .end = &node_worlds[node(leg.foot)],
                    .target = goal, .start_correction = &upper_correction, .mid_correction = &lower_correction};
    if (!ik.run()) continue;
    rotate_joint(target_pose, static_cast<std::size_t>(leg.upper), upper_correction);
    rotate_joint(target_pose, static_cast<std::size_t>(leg.lower), lower_correction);
    node_locals[node(leg.upper)] = compose_trs(pose_joint(target_pose, static_cast<std::size_t>(leg.upper)));
    node_locals[node(leg.lower)] = compose_trs(pose_joint(target_pose, static_cast<std::size_t>(leg.lower)));
    compose.from = node(leg.upper);
    compose.run();
    // The foot keeps its model rotation: its local is taken again from its (moved) parent.
    const int parent = parents[node(leg.foot)];
    const glm::mat4 parent_world = parent < 0 ? glm::mat4(1.f) : node_worlds[static_cast<std::size_t>(parent)];
    glm::mat4 wanted = foot_world;
    wanted[3] = node_worlds[node(leg.foot)][3];
    Trs foot = pose_joint(target_pose, static_cast<std::size_t>(leg.foot));
    foot.rotation = decompose_trs(glm::inverse(parent_world) * wanted).rotation;
    set_pose_joint(target_pose, static_cast<std::size_t>(leg.foot), foot);
    node_locals[node(leg.foot)] = compose_trs(foot);
    compose.from = node(leg.foot);
    compose.run();
  }
}

Model retarget_clips(const Model& source, const Model& target, const RetargetMap& map, const RetargetClipsOptions& options) {
  const std::vector<int> clips = detail::asked_clips(source, target, options);
  Model out = target;
  if (clips.empty()) return out;

  const RetargetRig& rig = map.rig();
  Animator animator(source);
  RetargetContext context(rig);
  std::vector<TrsBlock> source_pose(pose_block_count(rig.source_joint_count()));
  std::vector<TrsBlock> target_pose(pose_block_count(rig.target_joint_count()));
  std::vector<glm::mat4> node_locals(target.nodes.size()), node_worlds(target.nodes.size());
  std::vector<int> parents(target.nodes.size());
  for (std::size_t n = 0; n < parents.size(); ++n) parents[n] = target.nodes[n].parent;
  const std::vector<std::size_t> driven = detail::driven_joints(rig);
  for (const int a : clips) {
    const ModelAnimation& animation = source.animations[static_cast<std::size_t>(a)];
    const std::vector<Ticks> times = detail::key_times(source, animation);
    std::vector<std::vector<Keyframe>> keys(driven.size());
    for (auto& k : keys) k.reserve(times.size());
    animator.play(a);
    for (const Ticks time : times) {
      animator.update(time, false, false);
      map.gather_source(animator.bone_transforms(), source_pose);
      RetargetJob{.rig = &rig, .context = &context, .source_pose = source_pose, .target_pose = target_pose}.run();
      if (options.feet_ik) pin_feet(parents, map, source_pose, target_pose, node_locals, node_worlds);
      for (std::size_t d = 0; d < driven.size(); ++d) {
        const Trs trs = pose_joint(target_pose, driven[d]);
        keys[d].push_back(Keyframe{time, trs.translation, trs.rotation, trs.scale});
      }
    }
    add_animation(out, map, animation, options.prefix + animation.name, driven, keys);
  }
  validate(out);
  return out;
}

}  // namespace marrow
