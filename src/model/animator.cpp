#include "marrow/model/animator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/vertex_access.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"
#include "marrow/runtime/skinning_job.hpp"

namespace marrow {

namespace {

// The matrices' largest element difference, relative to their size.
bool close(const glm::mat4& a, const glm::mat4& b) {
  float diff = 0.f, size = 1.f;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      diff = std::max(diff, std::fabs(a[c][r] - b[c][r]));
      size = std::max(size, std::fabs(a[c][r]));
    }
  }
  return diff <= 1e-4f * size;
}

void compose(std::span<const int> parents, std::span<const glm::mat4> locals, std::span<const glm::mat4> prefixes,
             std::span<glm::mat4> out) {
  LocalToModelJob job;
  job.parents = parents;
  job.local_matrices = locals;
  job.root_prefix = prefixes;
  job.models = out;
  job.run();  // the model was validated: parents precede their children, sizes match
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
  compose(parents_, locals_, {}, worlds_);
  bind_worlds_ = worlds_;
  scene_context_.resize(bones);
  scene_pose_.resize(pose_block_count(bones));

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
    state.context.resize(n);
    state.sampled.resize(pose_block_count(n));
    state.prefixes = data.skeleton_root_prefix;
    // The skeleton at bind in its palette space (the player's worlds)...
    compose(data.skeleton_hierarchy, data.bind_pose,
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
  palette_scratch_.resize(max_palette);
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
  update(Ticks{0}, false);
  evaluate_morphs(true);
}

void Animator::play(int index) {
  if (index < -1 || index >= static_cast<int>(model_.animations.size())) {
    throw std::out_of_range("Animator::play: animation " + std::to_string(index) + " of " +
                            std::to_string(model_.animations.size()));
  }
  animation_ = index;
  time_ = Ticks{0};
  const CompiledAnimation* compiled = index >= 0 ? &animations_->animations[static_cast<std::size_t>(index)] : nullptr;
  // Every node starts from its loaded transform; only animated ones are written per frame.
  for (std::size_t i = 0; i < locals_.size(); ++i) locals_[i] = model_.bones[i].transform;
  scene_animated_.clear();
  if (compiled != nullptr && compiled->has_scene_tracks) {
    for (std::size_t i = 0; i < locals_.size(); ++i) {
      if (compiled->scene_clip.animated(i)) scene_animated_.push_back(i);
    }
  }
  std::vector<bool> moving(model_.bones.size(), false);  // for skins composed on their own
  for (std::size_t i : scene_animated_) moving[i] = true;
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    SkinState& state = skins_[s];
    const SkinningData& data = model_.skins[s].data;
    const std::optional<RuntimeClip>* clip = compiled != nullptr ? &compiled->skin_clips[s] : nullptr;
    state.clip = clip != nullptr && clip->has_value() ? &**clip : nullptr;
    state.pose.clip_ = state.clip != nullptr ? compiled->skin_sources[s] : nullptr;
    state.animated.clear();
    state.still.clear();
    std::copy(data.bind_pose.begin(), data.bind_pose.end(), state.pose.locals_.begin());
    if (state.clip == nullptr) continue;
    for (std::size_t p = 0; p < state.clip->joint_count(); ++p) {
      (state.clip->animated(p) ? state.animated : state.still).push_back(p);
    }
    for (int bone : model_.skins[s].palette_to_scene) {
      if (bone >= 0) moving[static_cast<std::size_t>(bone)] = true;
    }
  }
  // A skin composed on its own follows its ancestors only while the animation moves one of
  // them; otherwise its data's prefix is exact and used as is.
  for (SkinState& state : skins_) {
    state.follows_ancestors = false;
    for (const RootJoint& root : state.roots) {
      for (int b = root.ancestor; b > 0 && !state.follows_ancestors; b = model_.bones[static_cast<std::size_t>(b)].parent) {
        state.follows_ancestors = moving[static_cast<std::size_t>(b)];
      }
    }
  }
  for (MeshState& state : meshes_) state.track = nullptr;
  if (index >= 0) {
    for (const MorphWeightChannel& channel : model_.animations[static_cast<std::size_t>(index)].morph_channels) {
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
  // One clock for the whole instance, with the player's rule.
  const Ticks duration = animation_ >= 0 ? model_.animations[static_cast<std::size_t>(animation_)].duration : Ticks{0};
  const Ticks t = playback_time(relative_to_current_time ? saturating_add(time_, time) : time, duration, loop);
  time_ = t;

  // Step 5: the rigid clip poses this instance's scene nodes.
  if (!scene_animated_.empty()) {
    const RuntimeClip& clip = animations_->animations[static_cast<std::size_t>(animation_)].scene_clip;
    SamplingJob{&clip, t, &scene_context_, scene_pose_}.run();
    for (std::size_t i : scene_animated_) locals_[i] = compose_trs(pose_joint(scene_pose_, i));
  }
  // Step 1: each skin's clip; its joints' scene nodes take the sampled locals, so absolute
  // transforms are what an attachment (a weapon on a hand) needs.
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    SkinState& state = skins_[s];
    state.pose.time_ = t;
    if (state.clip == nullptr) continue;
    SamplingJob{state.clip, t, &state.context, state.sampled}.run();
    const SkinningData& data = model_.skins[s].data;
    pose_to_matrices(state.sampled, state.pose.locals_);  // eight joints at a time
    for (std::size_t p : state.still) state.pose.locals_[p] = data.bind_pose[p];  // exact, not a T/R/S round trip
    const std::vector<int>& to_scene = model_.skins[s].palette_to_scene;
    for (std::size_t p : state.animated) {
      if (p < to_scene.size() && to_scene[p] >= 0) locals_[static_cast<std::size_t>(to_scene[p])] = state.pose.locals_[p];
    }
  }
  // Step 2: the scene, once.
  compose(parents_, locals_, {}, worlds_);
  // Step 3: each skin's palette, once.
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    SkinState& state = skins_[s];
    const Skin& skin = model_.skins[s];
    SkinPaletteJob palette;
    palette.inverse_binds = skin.data.inverse_bind_pose;
    palette.palette = state.pose.palette_;
    if (state.with_scene) {
      palette.skin_models = state.pose.worlds_;  // the palette-space worlds, in the same pass
      palette.models = worlds_;
      palette.joints = skin.palette_to_scene;
      palette.root = &state.scene_to_palette;
    } else {
      // Composed on its own; a root under a moving scene node gets the prefix
      // P(t) = P * inverse(W_ancestor at bind) * W_ancestor(t).
      std::span<const glm::mat4> prefixes;
      if (state.follows_ancestors) {
        for (const RootJoint& root : state.roots) {
          state.prefixes[root.palette] = skin.data.skeleton_root_prefix[root.palette] * root.inverse_bind_ancestor *
                                         worlds_[static_cast<std::size_t>(root.ancestor)];
        }
        prefixes = state.prefixes;
      } else if (has_root_prefix(skin.data)) {
        prefixes = skin.data.skeleton_root_prefix;
      }
      compose(skin.data.skeleton_hierarchy, state.pose.locals_, prefixes, state.pose.worlds_);
      palette.models = state.pose.worlds_;
    }
    palette.run();
  }

  // Step 6.
  evaluate_morphs(false);
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
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    const std::span<const glm::mat4> palette = skins_[s].pose.skin_transforms();
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

std::size_t Animator::size_in_bytes() const noexcept {
  const auto mats = [](const std::vector<glm::mat4>& v) { return v.capacity() * sizeof(glm::mat4); };
  std::size_t bytes = sizeof(*this) + parents_.capacity() * sizeof(int) + mats(locals_) + mats(worlds_) +
                      mats(bind_worlds_) + mats(palette_scratch_) + scene_context_.size_in_bytes() +
                      scene_pose_.capacity() * sizeof(TrsBlock) + scene_animated_.capacity() * sizeof(std::size_t);
  for (const SkinState& s : skins_) {
    bytes += sizeof(s) + mats(s.pose.locals_) + mats(s.pose.worlds_) + mats(s.pose.palette_) + s.context.size_in_bytes() +
             s.sampled.capacity() * sizeof(TrsBlock) + (s.animated.capacity() + s.still.capacity()) * sizeof(std::size_t) + mats(s.prefixes) +
             s.roots.capacity() * sizeof(RootJoint);
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
    const std::span<const glm::mat4> skin = skins_[static_cast<std::size_t>(mesh_data.skin)].pose.skin_transforms();
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
