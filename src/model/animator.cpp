#include "marrow/model/animator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/absolute_bone_transforms.hpp"
#include "marrow/model/apply_clip_to_bones.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/skinning_job.hpp"

namespace marrow {

Animator::Animator(const Model& model) : model_(model) {
  validate(model);
  players_.reserve(model.skins.size());
  std::size_t max_palette = 0;
  for (const Skin& skin : model.skins) {
    players_.emplace_back(skin.data);
    max_palette = std::max(max_palette, static_cast<std::size_t>(skin.data.bone_count));
  }
  palette_scratch_.resize(max_palette);
  skins_.resize(model.skins.size());
  locals_.resize(model.bones.size());
  for (std::size_t i = 0; i < locals_.size(); ++i) locals_[i] = model.bones[i].transform;
  worlds_.resize(model.bones.size());
  compose_absolute_transforms(model, locals_, worlds_);
  bind_worlds_ = worlds_;
  // Root joints whose parent is a scene node: their prefix can follow that node's animation.
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const Skin& skin = model.skins[s];
    SkinState& state = skins_[s];
    if (!has_root_prefix(skin.data) || skin.palette_to_scene.size() != static_cast<std::size_t>(skin.data.bone_count)) {
      continue;
    }
    for (std::size_t p = 0; p < skin.palette_to_scene.size(); ++p) {
      const int bone = skin.palette_to_scene[p];
      if (skin.data.skeleton_hierarchy[p] >= 0 || bone <= 0) continue;
      const int ancestor = model.bones[static_cast<std::size_t>(bone)].parent;
      if (ancestor <= 0) continue;  // under the synthetic root: nothing above can move
      state.roots.push_back(RootJoint{p, ancestor, glm::inverse(worlds_[static_cast<std::size_t>(ancestor)])});
    }
    state.prefixes = skin.data.skeleton_root_prefix;
  }
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
  evaluate_morphs(true);
}

void Animator::play(int index) {
  if (index < -1 || index >= static_cast<int>(model_.animations.size())) {
    throw std::out_of_range("Animator::play: animation " + std::to_string(index) + " of " +
                            std::to_string(model_.animations.size()));
  }
  animation_ = index;
  time_ = Ticks{0};
  const ModelAnimation* anim = index >= 0 ? &model_.animations[static_cast<std::size_t>(index)] : nullptr;
  for (std::size_t s = 0; s < players_.size(); ++s) {
    const auto& clips = model_.skins[s].data.animation_clips;
    const auto it = anim ? clips.find(anim->name) : clips.end();
    if (it != clips.end()) {
      players_[s].start_clip(it->second);
    } else {
      players_[s].stop_clip();
    }
  }
  rigid_cursors_.assign(anim ? anim->scene_clip.tracks.size() : 0, TrackCursor{});
  // A skin follows its ancestors only while the animation moves one of them (rigid tracks, or
  // another skin's joints); otherwise its data's prefix is exact and used as is.
  std::vector<bool> moving(model_.bones.size(), false);
  if (anim) {
    for (const BoneTrack& track : anim->scene_clip.tracks) {
      if (!track.keys.empty() && track.bone_index >= 0 && static_cast<std::size_t>(track.bone_index) < moving.size()) {
        moving[static_cast<std::size_t>(track.bone_index)] = true;
      }
    }
    for (std::size_t s = 0; s < players_.size(); ++s) {
      if (players_[s].current_clip() == nullptr) continue;
      for (int bone : model_.skins[s].palette_to_scene) {
        if (bone >= 0) moving[static_cast<std::size_t>(bone)] = true;
      }
    }
  }
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    SkinState& state = skins_[s];
    state.follows_ancestors = false;
    for (const RootJoint& root : state.roots) {
      for (int b = root.ancestor; b > 0 && !state.follows_ancestors; b = model_.bones[static_cast<std::size_t>(b)].parent) {
        state.follows_ancestors = moving[static_cast<std::size_t>(b)];
      }
    }
    if (state.follows_ancestors) {
      players_[s].set_root_prefixes(state.prefixes);
    } else {
      players_[s].set_root_prefixes({});
    }
  }
  for (MeshState& state : meshes_) state.track = nullptr;
  if (anim) {
    for (const MorphWeightChannel& channel : anim->morph_channels) {
      meshes_[static_cast<std::size_t>(channel.mesh)].track = &channel.track;
    }
  }
  update(Ticks{0}, false);
}

void Animator::play(std::string_view name) {
  const int index = model_.find_animation(name);
  if (index < 0) throw std::out_of_range("Animator::play: no animation named '" + std::string(name) + "'");
  play(index);
}

void Animator::update(Ticks time, bool relative_to_current_time, bool loop) {
  // Step 1: one clock for the whole instance, with the player's own rule.
  const Ticks duration = animation_ >= 0 ? model_.animations[static_cast<std::size_t>(animation_)].duration : Ticks{0};
  Ticks t = relative_to_current_time ? saturating_add(time_, time) : time;
  if (duration <= Ticks{0}) {
    t = Ticks{0};
  } else if (loop) {
    t = floor_mod(t, duration);
  } else {
    t = std::clamp(t, Ticks{0}, duration);
  }
  time_ = t;

  // Step 5 comes first in data order: the rigid clip poses this instance's scene nodes, and a
  // skeleton whose ancestors it animates must follow them (glTF), so those roots get a prefix
  // P(t) = P * inverse(W_ancestor at bind) * W_ancestor(t).
  for (std::size_t i = 0; i < locals_.size(); ++i) locals_[i] = model_.bones[i].transform;
  if (animation_ >= 0) {
    apply_clip_to_bones(locals_, model_.animations[static_cast<std::size_t>(animation_)].scene_clip, t, rigid_cursors_);
  }
  // Steps 1-3: each skin's player; its joints' scene nodes then follow it, so absolute
  // transforms are what an attachment (a weapon on a hand) needs.
  for (std::size_t s = 0; s < players_.size(); ++s) {
    SkinState& state = skins_[s];
    if (state.follows_ancestors) {
      const std::vector<glm::mat4>& base = model_.skins[s].data.skeleton_root_prefix;
      for (const RootJoint& root : state.roots) {
        state.prefixes[root.palette] = base[root.palette] * root.inverse_bind_ancestor * ancestor_world(root.ancestor);
      }
    }
    players_[s].update(t, false, loop);
    const std::vector<int>& to_scene = model_.skins[s].palette_to_scene;
    const std::span<const glm::mat4> joint_locals = players_[s].bone_transforms();
    for (std::size_t p = 0; p < to_scene.size() && p < joint_locals.size(); ++p) {
      if (to_scene[p] >= 0 && static_cast<std::size_t>(to_scene[p]) < locals_.size()) {
        locals_[static_cast<std::size_t>(to_scene[p])] = joint_locals[p];
      }
    }
  }
  compose_absolute_transforms(model_, locals_, worlds_);

  // Step 6.
  evaluate_morphs(false);
}

glm::mat4 Animator::ancestor_world(int bone) const {
  glm::mat4 world(1.f);
  for (int b = bone; b >= 0; b = model_.bones[static_cast<std::size_t>(b)].parent) {
    world = locals_[static_cast<std::size_t>(b)] * world;
  }
  return world;
}

void Animator::evaluate_morphs(bool force) {
  const double seconds = seconds_from_ticks(time_);
  for (std::size_t m = 0; m < meshes_.size(); ++m) {
    MeshState& state = meshes_[m];
    if (state.weights.empty()) continue;
    const ModelMesh& mesh = model_.meshes[m];
    if (state.track != nullptr && state.track->weight_count == state.scratch.size() && !state.track->empty()) {
      evaluate_morph_weights(*state.track, seconds, state.scratch);
    } else {
      std::copy(mesh.morph_weights.begin(), mesh.morph_weights.end(), state.scratch.begin());
    }
    if (!force && state.scratch == state.weights) continue;  // only when changed
    state.weights.swap(state.scratch);
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      if (!part.morph) continue;
      blend_morph_targets(*part.morph, state.weights, state.parts[p].bytes);
      ++state.parts[p].revision;
    }
  }
}

int Animator::install_palettes() const {
  int installed = 0;
  for (std::size_t s = 0; s < players_.size(); ++s) {
    const std::span<const glm::mat4> palette = players_[s].skin_transforms();
    for (int m : model_.skins[s].meshes) {
      for (const ModelMeshPart& part : model_.meshes[static_cast<std::size_t>(m)].parts) {
        if (!part.skinned_material) continue;
        part.skinned_material->set_bone_transforms(palette);
        ++installed;
      }
    }
  }
  return installed;
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
    const std::span<const glm::mat4> skin = players_[static_cast<std::size_t>(mesh_data.skin)].skin_transforms();
    for (std::size_t j = 0; j < skin.size(); ++j) palette_scratch_[j] = world * skin[j];
    SkinningJob job;
    job.palette = std::span<const glm::mat4>(palette_scratch_.data(), skin.size());
    job.joints = attribute_view<glm::u16vec4>(bytes, layout, VertexAttribute::Joints0);
    job.weights = attribute_view<glm::vec4>(bytes, layout, VertexAttribute::Weights0);
    job.in_positions = in_positions;
    job.out_positions = positions;
    if (want_normals) {
      job.in_normals = in_normals;
      job.out_normals = normals;
    }
    job.run();
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
