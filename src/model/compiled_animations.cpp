#include "marrow/model/compiled_animations.hpp"

#include <stdexcept>
#include <string>

#include "marrow/core/trs.hpp"
#include "marrow/model/live_retarget.hpp"
#include "marrow/runtime/sampling_job.hpp"

namespace marrow {

std::size_t CompiledAnimations::size_in_bytes() const noexcept {
  std::size_t bytes = sizeof(*this);
  for (const CompiledAnimation& a : animations) {
    bytes += sizeof(a) + a.scene_clip.size_in_bytes() + a.scene_reference.capacity() * sizeof(TrsBlock) +
             a.marker_times.capacity() * sizeof(Ticks);
    for (const auto& clip : a.skin_clips) bytes += clip ? clip->size_in_bytes() : sizeof(clip);
    for (const auto& pose : a.skin_references) bytes += pose.capacity() * sizeof(TrsBlock);
    for (const auto& w : a.morph_references) bytes += w.capacity() * sizeof(float);
  }
  return bytes;
}

namespace {

std::vector<TrsBlock> pose_at_zero(const RuntimeClip& clip) {
  std::vector<TrsBlock> pose(pose_block_count(clip.joint_count()));
  SamplingContext context(clip);
  SamplingJob{&clip, Ticks{0}, &context, pose}.run();
  return pose;
}

// A live animation (live_retarget.hpp): the rest where it drives nothing, its pose at 0 as the
// additive reference.
void compile_live(const Model& model, const LiveRetarget& live, CompiledAnimation& compiled) {
  compiled.live = &live;
  std::vector<glm::mat4> rest(model.nodes.size());
  for (std::size_t i = 0; i < rest.size(); ++i) rest[i] = model.nodes[i].transform;
  compiled.scene_clip = compile_clip(AnimationClip{{}, {}, {}, ClipTargetSpace::SceneNode}, rest);
  for (std::size_t i = 0; i < rest.size(); ++i) compiled.has_scene_tracks |= live.scene_node_driven[i] != 0;
  std::vector<std::vector<TrsBlock>> skin_poses(model.skins.size());
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const SkinningData& data = model.skins[s].data;
    skin_poses[s].resize(pose_block_count(data.bind_pose.size()));
    for (std::size_t p = 0; p < data.bind_pose.size(); ++p) set_pose_joint(skin_poses[s], p, decompose_trs(data.bind_pose[p]));
  }
  std::vector<TrsBlock> scene_pose(pose_block_count(rest.size()));
  for (std::size_t i = 0; i < rest.size(); ++i) set_pose_joint(scene_pose, i, decompose_trs(rest[i]));
  LiveRetargetSampler(live).sample(Ticks{0}, skin_poses, scene_pose);
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    compiled.skin_clips.emplace_back();
    compiled.skin_sources.push_back(nullptr);
    compiled.skin_references.push_back(compiled.drives_skin(s) ? std::move(skin_poses[s]) : std::vector<TrsBlock>{});
  }
  if (compiled.has_scene_tracks) compiled.scene_reference = std::move(scene_pose);
}

}  // namespace

bool CompiledAnimation::live_drives_skin(std::size_t s) const noexcept { return !live->skin_writes[s].empty(); }

bool CompiledAnimation::drives_joint(std::size_t s, std::size_t p) const noexcept {
  if (live != nullptr) return live->skin_joint_driven[s][p] != 0;
  return skin_clips[s] != nullptr && skin_clips[s]->animated(p);
}

bool CompiledAnimation::drives_node(std::size_t i) const noexcept {
  if (live != nullptr) return live->scene_node_driven[i] != 0;
  return has_scene_tracks && scene_clip.animated(i);
}

std::shared_ptr<const CompiledAnimations> compile_animations(const Model& model) {
  auto out = std::make_shared<CompiledAnimations>();
  std::vector<glm::mat4> rest(model.nodes.size());
  for (std::size_t i = 0; i < rest.size(); ++i) rest[i] = model.nodes[i].transform;
  out->animations.reserve(model.animations.size());
  for (const ModelAnimation& animation : model.animations) {
    CompiledAnimation& compiled = out->animations.emplace_back();
    compiled.has_morphs = !animation.morph_channels.empty();
    if (animation.live) {
      compile_live(model, *animation.live, compiled);
      for (const AnimationMarker& marker : animation.markers) compiled.marker_times.push_back(marker.time);
      continue;
    }
    for (const Skin& skin : model.skins) {
      const auto it = skin.data.animation_clips.find(animation.name);
      if (it == skin.data.animation_clips.end()) {
        compiled.skin_clips.emplace_back();
        compiled.skin_sources.push_back(nullptr);
        compiled.skin_references.emplace_back();
      } else {
        // A compressed clip of the skin (compress_model_clips) plays instead of the authored one.
        const auto compressed = skin.compressed_clips.find(animation.name);
        if (compressed == skin.compressed_clips.end()) {
          compiled.skin_clips.push_back(std::make_unique<const RuntimeClip>(compile_clip(it->second, skin.data)));
        } else if (compressed->second.joint_count() != static_cast<std::size_t>(skin.data.bone_count)) {
          throw std::invalid_argument("compile_animations: compressed clip '" + animation.name + "' has " +
                                      std::to_string(compressed->second.joint_count()) + " joints, its skin " +
                                      std::to_string(skin.data.bone_count));
        } else {
          compiled.skin_clips.push_back(std::make_unique<const RuntimeClip>(compressed->second));
        }
        compiled.skin_sources.push_back(&it->second);
        compiled.skin_references.push_back(pose_at_zero(*compiled.skin_clips.back()));
      }
    }
    compiled.scene_clip = compile_clip(animation.scene_clip, rest);  // scene-node indices, any rest
    for (std::size_t i = 0; i < rest.size(); ++i) compiled.has_scene_tracks |= compiled.scene_clip.animated(i);
    if (compiled.has_scene_tracks) compiled.scene_reference = pose_at_zero(compiled.scene_clip);
    for (const MorphWeightChannel& channel : animation.morph_channels) {
      // An empty channel holds the mesh's initial weights (as the Animator plays it).
      const bool known = channel.mesh >= 0 && static_cast<std::size_t>(channel.mesh) < model.meshes.size();
      compiled.morph_references.push_back(
          !channel.track.empty() ? evaluate_morph_weights(channel.track, 0.0)
          : known                ? model.meshes[static_cast<std::size_t>(channel.mesh)].morph_weights
                                 : std::vector<float>(channel.track.weight_count, 0.f));
    }
    for (const AnimationMarker& marker : animation.markers) compiled.marker_times.push_back(marker.time);
  }
  return out;
}

}  // namespace marrow
