#include "marrow/model/unit_scale.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "marrow/core/vertex_access.hpp"
#include "marrow/runtime/offline/clip_compression.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"

namespace marrow {

namespace {

// Every translation-bearing quantity of the model, passed through f (glm::vec3 -> glm::vec3).
// One traversal serves both the range check and the scaling, so they cannot disagree.
template <class F>
void for_each_length(Model& model, F&& f) {
  const auto translation = [&](glm::mat4& m) {
    const glm::vec3 t = f(glm::vec3(m[3]));
    m[3] = glm::vec4(t, m[3].w);
  };
  const auto clip = [&](AnimationClip& c) {
    for (BoneTrack& track : c.tracks) {
      for (Keyframe& key : track.keys) key.translation = f(key.translation);
    }
  };
  const auto positions = [&](std::vector<std::byte>& bytes, const VertexLayout& layout) {
    if (layout.stride == 0) return;
    const auto view = attribute_view<glm::vec3>(std::span<std::byte>(bytes), layout, VertexAttribute::Position);
    for (std::size_t v = 0; v < view.size(); ++v) view.store(v, f(view.load(v)));
  };
  for (ModelNode& bone : model.nodes) translation(bone.transform);
  for (Skin& skin : model.skins) {
    for (glm::mat4& m : skin.data.bind_pose) translation(m);
    for (glm::mat4& m : skin.data.inverse_bind_pose) translation(m);
    for (glm::mat4& m : skin.data.skeleton_root_prefix) translation(m);
    for (auto& [name, c] : skin.data.animation_clips) clip(c);
    // S5: joint-space points scale with the lengths (inverse bind translations and vertices).
    for (glm::vec3& c : skin.joint_bounds.centers) c = f(c);
    for (glm::vec3& e : skin.joint_bounds.extents) e = f(e);
  }
  for (ModelAnimation& anim : model.animations) clip(anim.scene_clip);
  for (ModelMesh& mesh : model.meshes) {
    mesh.bounding_sphere.center = f(mesh.bounding_sphere.center);
    mesh.bounding_sphere.radius = f(glm::vec3(mesh.bounding_sphere.radius, 0.f, 0.f)).x;
    if (!mesh.local_bounds.empty) mesh.local_bounds = BoundingBox{f(mesh.local_bounds.min), f(mesh.local_bounds.max), false};
    for (ModelMeshPart& part : mesh.parts) {
      positions(part.vertex_bytes, part.layout);
      if (!part.morph) continue;
      positions(part.morph->base_vertex_bytes, part.morph->layout);
      for (auto& deltas : part.morph->position_deltas) {
        for (glm::vec3& d : deltas) d = f(d);
      }
    }
  }
}

}  // namespace

void apply_unit_scale(Model& model, float s) {
  if (!std::isfinite(s) || !(s > 0.f)) {
    throw std::invalid_argument("apply_unit_scale: scale " + std::to_string(s) + " is not a positive finite number");
  }
  // A motion database's features are lengths of the units it was built in, normalized: scaling
  // the model under it would leave them wrong. Rebuild it at the new scale instead.
  if (s != 1.f && model.motion_database != nullptr) {
    throw std::invalid_argument("apply_unit_scale: the model carries a motion database built at its present units; "
                                "rebuild it at the new scale (marrow match build --unit-scale)");
  }
  // A finite model can still overflow when enlarged: check first, so a refusal changes nothing.
  float largest = 0.f;
  for_each_length(model, [&](const glm::vec3& v) {
    largest = std::max({largest, std::abs(v.x), std::abs(v.y), std::abs(v.z)});
    return v;
  });
  if (!std::isfinite(largest * s)) {
    throw std::invalid_argument("apply_unit_scale: scale " + std::to_string(s) + " takes a length of " +
                                std::to_string(largest) + " beyond the float range");
  }
  // Compressed clips scale their translation ranges, against the rest pose as it will be (its
  // translations scaled as below), and the authored clip stays what they play.
  std::vector<std::map<std::string, RuntimeClip>> compressed(model.skins.size());
  for (std::size_t k = 0; k < model.skins.size(); ++k) {
    if (model.skins[k].compressed_clips.empty()) continue;
    std::vector<glm::mat4> rest = model.skins[k].data.bind_pose;
    for (glm::mat4& m : rest) m[3] = glm::vec4(glm::vec3(m[3]) * s, m[3].w);
    const auto scaled_rest = compressed_rest_pose(rest);
    for (const auto& [name, clip] : model.skins[k].compressed_clips) {
      CompressedClipData data = compressed_clip_data(clip);
      for (std::size_t c = 0; c < data.channels.size(); c += 3) {
        for (std::size_t i = 0; i < 3; ++i) data.channels[c].min[i] *= s, data.channels[c].step[i] *= s, data.channels[c].extent[i] *= s;
      }
      compressed[k].emplace(name, make_compressed_clip(clip.name(), clip.duration(), data, scaled_rest));
    }
  }
  for_each_length(model, [s](const glm::vec3& v) { return v * s; });
  for (std::size_t k = 0; k < model.skins.size(); ++k) {
    Skin& skin = model.skins[k];
    for (auto& [name, clip] : compressed[k]) {
      AnimationClip& authored = skin.data.animation_clips.at(name);
      AnimationClip played = decompress_clip(clip);
      played.target_space = authored.target_space;
      authored = std::move(played);
    }
    skin.compressed_clips = std::move(compressed[k]);
  }
  for (ModelMesh& mesh : model.meshes) {
    for (ModelMeshPart& part : mesh.parts) ++part.revision;
  }
}

}  // namespace marrow
