#include "marrow/model/compiled_animations.hpp"

namespace marrow {

std::size_t CompiledAnimations::size_in_bytes() const noexcept {
  std::size_t bytes = sizeof(*this);
  for (const CompiledAnimation& a : animations) {
    bytes += sizeof(a) + a.scene_clip.size_in_bytes();
    for (const auto& clip : a.skin_clips) bytes += clip ? clip->size_in_bytes() : sizeof(clip);
  }
  return bytes;
}

std::shared_ptr<const CompiledAnimations> compile_animations(const Model& model) {
  auto out = std::make_shared<CompiledAnimations>();
  std::vector<glm::mat4> rest(model.bones.size());
  for (std::size_t i = 0; i < rest.size(); ++i) rest[i] = model.bones[i].transform;
  out->animations.reserve(model.animations.size());
  for (const ModelAnimation& animation : model.animations) {
    CompiledAnimation& compiled = out->animations.emplace_back();
    for (const Skin& skin : model.skins) {
      const auto it = skin.data.animation_clips.find(animation.name);
      if (it == skin.data.animation_clips.end()) {
        compiled.skin_clips.emplace_back();
        compiled.skin_sources.push_back(nullptr);
      } else {
        compiled.skin_clips.emplace_back(compile_clip(it->second, skin.data));
        compiled.skin_sources.push_back(&it->second);
      }
    }
    compiled.scene_clip = compile_clip(animation.scene_clip, rest);  // scene-node indices, any rest
    for (std::size_t i = 0; i < rest.size(); ++i) compiled.has_scene_tracks |= compiled.scene_clip.animated(i);
  }
  return out;
}

}  // namespace marrow
