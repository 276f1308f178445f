#include "marrow/model/unit_scale.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/vertex_access.hpp"

namespace marrow {

namespace {

void scale_translation(glm::mat4& m, float s) {
  m[3].x *= s;
  m[3].y *= s;
  m[3].z *= s;
}

void scale_clip(AnimationClip& clip, float s) {
  for (BoneTrack& track : clip.tracks) {
    for (Keyframe& key : track.keys) key.translation *= s;
  }
}

void scale_positions(std::vector<std::byte>& bytes, const VertexLayout& layout, float s) {
  if (layout.stride == 0) return;
  const auto positions = attribute_view<glm::vec3>(std::span<std::byte>(bytes), layout, VertexAttribute::Position);
  for (std::size_t v = 0; v < positions.size(); ++v) positions.store(v, positions.load(v) * s);
}

}  // namespace

void apply_unit_scale(Model& model, float s) {
  if (!std::isfinite(s) || !(s > 0.f)) {
    throw std::invalid_argument("apply_unit_scale: scale " + std::to_string(s) + " is not a positive finite number");
  }
  for (ModelBone& bone : model.bones) scale_translation(bone.transform, s);
  for (Skin& skin : model.skins) {
    for (glm::mat4& m : skin.data.bind_pose) scale_translation(m, s);
    for (glm::mat4& m : skin.data.inverse_bind_pose) scale_translation(m, s);
    for (glm::mat4& m : skin.data.skeleton_root_prefix) scale_translation(m, s);
    for (auto& [name, clip] : skin.data.animation_clips) scale_clip(clip, s);
  }
  for (ModelAnimation& anim : model.animations) scale_clip(anim.scene_clip, s);
  for (ModelMesh& mesh : model.meshes) {
    mesh.bounding_sphere.center *= s;
    mesh.bounding_sphere.radius *= s;
    for (ModelMeshPart& part : mesh.parts) {
      scale_positions(part.vertex_bytes, part.layout, s);
      ++part.revision;
      if (!part.morph) continue;
      scale_positions(part.morph->base_vertex_bytes, part.morph->layout, s);
      for (auto& deltas : part.morph->position_deltas) {
        for (glm::vec3& d : deltas) d *= s;
      }
    }
  }
}

}  // namespace marrow
