#include "marrow/model/animated_bounds.hpp"

#include <algorithm>
#include <cstdint>

#include "marrow/model/animator.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/model/skeleton_bones.hpp"

namespace marrow {

namespace {

class ModelBoundsSource final : public AnimatedBoundsSource {
 public:
  explicit ModelBoundsSource(const Model& model) : model_(model), animator_(model) {
    for (const ModelMesh& mesh : model.meshes) {
      for (const ModelMeshPart& part : mesh.parts) vertices_ = vertices_ || part.vertex_count() > 0;
    }
    if (!vertices_) skeleton_ = skeleton_bones(model);
  }

  BoundingBox loaded_pose() override { return vertices_ ? posed_bounds(animator_) : joints(); }
  std::size_t clip_count() const override { return model_.animations.size(); }
  std::vector<Ticks> key_times(std::size_t clip) const override { return animation_key_times(model_, clip); }
  BoundingBox frame(std::size_t clip, Ticks t) override {
    if (animator_.current_animation() != static_cast<int>(clip)) animator_.play(static_cast<int>(clip));
    animator_.update(t, false, false);
    return vertices_ ? animator_.bounds() : joints();
  }

 private:
  // The skeleton's joints, not the cameras and lights beside it.
  BoundingBox joints() const {
    BoundingBox box;
    const auto worlds = animator_.absolute_bone_transforms();
    for (std::size_t b = 1; b < worlds.size(); ++b) {
      if (skeleton_[b] != 0) box.extend(glm::vec3(worlds[b][3]));
    }
    return box;
  }

  const Model& model_;
  Animator animator_;
  bool vertices_ = false;
  std::vector<std::uint8_t> skeleton_;
};

}  // namespace

BoundingBox animated_bounds(AnimatedBoundsSource& source) {
  BoundingBox box = source.loaded_pose();
  for (std::size_t c = 0; c < source.clip_count(); ++c) {
    const std::vector<Ticks> keys = source.key_times(c);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      box.extend(source.frame(c, keys[k]));
      if (k + 1 == keys.size()) break;
      // Between two keys a joint turns through an arc that can leave both ends' boxes.
      const Ticks step = (keys[k + 1] - keys[k]) / kAnimatedBoundsSteps;
      for (int s = 1; s < kAnimatedBoundsSteps && step.count() > 0; ++s) box.extend(source.frame(c, keys[k] + s * step));
    }
  }
  return box;
}

BoundingBox animated_bounds(const Model& model) {
  ModelBoundsSource source(model);
  return animated_bounds(source);
}

BoundingBox posed_bounds(Animator& animator) {
  const Model& model = animator.model();
  BoundingBox box;
  std::vector<glm::vec3> posed;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
      posed.resize(model.meshes[m].parts[p].vertex_count());
      animator.pose_part(m, p, posed);
      box.extend(bounding_box_of(posed));
    }
  }
  return box;
}

std::vector<Ticks> animation_key_times(const Model& model, std::size_t index) {
  const ModelAnimation& animation = model.animations.at(index);
  std::vector<Ticks> times;
  append_key_times(animation.scene_clip.tracks, times);
  for (const Skin& skin : model.skins) {
    const auto clip = skin.data.animation_clips.find(animation.name);
    if (clip != skin.data.animation_clips.end()) append_key_times(clip->second.tracks, times);
  }
  for (const MorphWeightChannel& channel : animation.morph_channels) {
    for (const double seconds : channel.track.times) times.push_back(ticks_from_seconds(seconds));
  }
  sort_key_times(times);
  return times;
}

void append_key_times(std::span<const BoneTrack> tracks, std::vector<Ticks>& times) {
  for (const BoneTrack& track : tracks) {
    for (const Keyframe& key : track.keys) times.push_back(key.time);
  }
}

void sort_key_times(std::vector<Ticks>& times) {
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
}

}  // namespace marrow
