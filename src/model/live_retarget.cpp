#include "marrow/model/live_retarget.hpp"

#include <stdexcept>
#include <string>

#include "marrow/model/compiled_animations.hpp"
#include "marrow/model/model.hpp"
#include "model/retarget_plan.hpp"

namespace marrow {
namespace {

// The source joints' reads: a joint of a source skin that has the clip reads that skin's pose
// (the first such skin, as the Animator's scene nodes take their skin's), else the rigid pose.
std::vector<LiveRetarget::Read> source_reads(const Model& source, const CompiledAnimation& clip, const RetargetMap& map) {
  std::vector<LiveRetarget::Read> reads;
  for (const int node : map.source_nodes()) {
    LiveRetarget::Read read{-1, static_cast<std::size_t>(node)};
    for (std::size_t k = 0; k < source.skins.size(); ++k) {
      const int palette = source.skins[k].scene_to_palette[static_cast<std::size_t>(node)];
      if (palette >= 0 && clip.skin_clips[k]) {
        read = {static_cast<int>(k), static_cast<std::size_t>(palette)};
        break;
      }
    }
    reads.push_back(read);
  }
  return reads;
}

std::shared_ptr<const LiveRetarget> bind(const std::shared_ptr<const Model>& source, const Model& target,
                                         const std::shared_ptr<const RetargetMap>& map, int animation, bool feet_ik,
                                         const std::shared_ptr<const CompiledAnimations>& source_animations) {
  auto live = std::make_shared<LiveRetarget>();
  live->source = source;
  live->source_animations = source_animations;
  live->map = map;
  live->source_animation = animation;
  live->feet_ik = feet_ik;
  live->reads = source_reads(*source, source_animations->animations[static_cast<std::size_t>(animation)], *map);
  live->driven = detail::driven_joints(map->rig());
  live->skin_writes.resize(target.skins.size());
  live->skin_joint_driven.resize(target.skins.size());
  for (std::size_t s = 0; s < target.skins.size(); ++s)
    live->skin_joint_driven[s].assign(static_cast<std::size_t>(target.skins[s].data.bone_count), 0);
  live->scene_node_driven.assign(target.nodes.size(), 0);
  for (std::size_t k = 0; k < live->driven.size(); ++k) {
    const auto node = static_cast<std::size_t>(map->target_nodes()[live->driven[k]]);
    bool joint = false;
    for (std::size_t s = 0; s < target.skins.size(); ++s) {
      const int palette = target.skins[s].scene_to_palette[node];
      if (palette < 0) continue;
      live->skin_writes[s].emplace_back(live->driven[k], static_cast<std::size_t>(palette));
      live->skin_joint_driven[s][static_cast<std::size_t>(palette)] = 1;
      joint = true;
    }
    if (!joint) {
      live->scene_writes.emplace_back(live->driven[k], node);
      live->scene_node_driven[node] = 1;
    }
  }
  for (const ModelNode& n : target.nodes) live->target_parents.push_back(n.parent);
  return live;
}

}  // namespace

Model retarget_live(std::shared_ptr<const Model> source, const Model& target, std::shared_ptr<const RetargetMap> map,
                    const RetargetClipsOptions& options) {
  if (!source || !map) throw std::invalid_argument("retarget_live: no source model or no map");
  if (map->source_rest().size() != source->nodes.size() || map->target_rest().size() != target.nodes.size())
    throw std::invalid_argument("retarget_live: the map was made for other models (node counts differ)");
  const std::vector<int> clips = detail::asked_clips(*source, target, options);
  const std::shared_ptr<const CompiledAnimations> source_animations = compile_animations(*source);
  Model out = target;
  for (const int a : clips) {
    const ModelAnimation& from = source->animations[static_cast<std::size_t>(a)];
    ModelAnimation animation;
    animation.name = options.prefix + from.name;
    animation.duration = from.duration;
    animation.markers = from.markers;
    animation.scene_clip = AnimationClip{animation.name, from.duration, {}, ClipTargetSpace::SceneNode};
    animation.live = bind(source, target, map, a, options.feet_ik, source_animations);
    out.animations.push_back(std::move(animation));
  }
  return out;
}

bool live_retarget_fits(const LiveRetarget& live, const Model& model) noexcept {
  if (!live.source || !live.map || !live.source_animations || live.skin_writes.size() != model.skins.size() ||
      live.skin_joint_driven.size() != model.skins.size() || live.scene_node_driven.size() != model.nodes.size() ||
      live.target_parents.size() != model.nodes.size() || live.map->target_rest().size() != model.nodes.size())
    return false;
  for (std::size_t s = 0; s < model.skins.size(); ++s)
    if (live.skin_joint_driven[s].size() != static_cast<std::size_t>(model.skins[s].data.bone_count)) return false;
  for (std::size_t n = 0; n < model.nodes.size(); ++n)
    if (live.target_parents[n] != model.nodes[n].parent) return false;
  return true;
}

void require_no_live_animations(const Model& model, std::string_view who) {
  for (const ModelAnimation& a : model.animations)
    if (a.live)
      throw std::invalid_argument(std::string(who) + ": animation \"" + a.name +
                                  "\" plays live through a retarget map and has no keys to write; bake it with retarget_clips");
}

LiveRetargetSampler::LiveRetargetSampler(const LiveRetarget& live) : live_(&live), context_(live.map->rig()) {
  const Model& source = *live.source;
  const CompiledAnimation& clip = live.source_animations->animations[static_cast<std::size_t>(live.source_animation)];
  skin_contexts_.resize(source.skins.size());
  skin_poses_.resize(source.skins.size());
  for (std::size_t k = 0; k < source.skins.size(); ++k) {
    if (!clip.skin_clips[k]) continue;
    skin_contexts_[k] = SamplingContext(*clip.skin_clips[k]);
    skin_poses_[k].resize(pose_block_count(clip.skin_clips[k]->joint_count()));
  }
  scene_context_ = SamplingContext(clip.scene_clip);
  scene_pose_.resize(pose_block_count(source.nodes.size()));
  source_.resize(pose_block_count(live.map->source_nodes().size()));
  target_.resize(pose_block_count(live.map->target_nodes().size()));
  if (live.feet_ik) {
    node_locals_.resize(live.target_parents.size());
    node_worlds_.resize(live.target_parents.size());
  }
}

void LiveRetargetSampler::sample(Ticks t, std::span<std::vector<TrsBlock>> skin_poses, std::span<TrsBlock> scene_pose) noexcept {
  const LiveRetarget& live = *live_;
  const CompiledAnimation& clip = live.source_animations->animations[static_cast<std::size_t>(live.source_animation)];
  for (std::size_t k = 0; k < skin_poses_.size(); ++k)
    if (clip.skin_clips[k]) SamplingJob{clip.skin_clips[k].get(), t, &skin_contexts_[k], skin_poses_[k]}.run();
  SamplingJob{&clip.scene_clip, t, &scene_context_, scene_pose_}.run();
  for (std::size_t j = 0; j < live.reads.size(); ++j) {
    const LiveRetarget::Read& r = live.reads[j];
    const std::span<const TrsBlock> from = r.skin >= 0 ? std::span<const TrsBlock>(skin_poses_[static_cast<std::size_t>(r.skin)])
                                                       : std::span<const TrsBlock>(scene_pose_);
    set_pose_joint(source_, j, pose_joint(from, r.index));
  }
  const RetargetMap& map = *live.map;
  RetargetJob{.rig = &map.rig(), .context = &context_, .source_pose = source_, .target_pose = target_}.run();
  if (live.feet_ik) pin_feet(live.target_parents, map, source_, target_, node_locals_, node_worlds_);
  for (std::size_t s = 0; s < live.skin_writes.size() && s < skin_poses.size(); ++s)
    for (const auto& [joint, palette] : live.skin_writes[s]) set_pose_joint(skin_poses[s], palette, pose_joint(target_, joint));
  for (const auto& [joint, node] : live.scene_writes) set_pose_joint(scene_pose, node, pose_joint(target_, joint));
}

}  // namespace marrow
