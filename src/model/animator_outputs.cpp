// What the Animator hands out (animator.hpp): skin palettes for materials and GPU buffers, the
// vertex bytes and world matrix of a part, posed (skinned) vertices, bounds, draw items, and its
// own size.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/runtime/skinned_bounds_job.hpp"
#include "marrow/runtime/skinning_job.hpp"

#include "gathered_locals.hpp"

namespace marrow {

int Animator::install_palettes() const {
  int installed = 0;
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    const std::span<const glm::mat4> palette = skins_[s].pose.skin_transforms();
    for (int m : model_.skins[s].meshes) {
      for (const ModelMeshPart& part : model_.meshes[static_cast<std::size_t>(m)].parts) {
        if (!part.skinned_material) continue;
        if (part.palette_joints.empty()) {
          part.skinned_material->set_bone_transforms(palette);
        } else {
          part.skinned_material->set_bone_transforms(palette, part.palette_joints);  // S4
        }
        ++installed;
      }
    }
  }
  return installed;
}

std::size_t Animator::write_palette(std::size_t skin, PaletteFormat format, std::span<float> out) const {
  const std::span<const glm::mat4> palette = skins_.at(skin).pose.skin_transforms();
  const std::size_t need = palette.size() * palette_floats_per_joint(format);
  if (out.size() < need) {
    throw std::invalid_argument("Animator::write_palette: skin " + std::to_string(skin) + " needs " +
                                std::to_string(need) + " floats, out holds " + std::to_string(out.size()));
  }
  return write_gpu_palette(palette, format, out);
}

std::size_t Animator::write_part_palette(std::size_t mesh, std::size_t part, PaletteFormat format,
                                         std::span<float> out) const {
  const ModelMesh& mesh_data = model_.meshes.at(mesh);
  const ModelMeshPart& data = mesh_data.parts.at(part);
  if (mesh_data.skin < 0) {
    throw std::invalid_argument("Animator::write_part_palette: mesh " + std::to_string(mesh) + " is not skinned");
  }
  const std::span<const glm::mat4> palette = skins_[static_cast<std::size_t>(mesh_data.skin)].pose.skin_transforms();
  const std::size_t joints = data.palette_joints.empty() ? palette.size() : data.palette_joints.size();
  const std::size_t need = joints * palette_floats_per_joint(format);
  if (out.size() < need) {
    throw std::invalid_argument("Animator::write_part_palette: mesh " + std::to_string(mesh) + " part " +
                                std::to_string(part) + " needs " + std::to_string(need) + " floats, out holds " +
                                std::to_string(out.size()));
  }
  // validate(Model) checked the map against the skin, so the gather writes every entry.
  return data.palette_joints.empty() ? write_gpu_palette(palette, format, out)
                                     : write_gpu_palette(palette, data.palette_joints, format, out);
}

std::span<const glm::mat4> SkinPose::bone_transforms() const {
  if (to_scene_.empty()) return locals_;
  if (locals_at_ != revision_) {
    gathered_locals_.resize(to_scene_.size());
    detail::gather_locals(scene_sources_, scene_blocks_, scene_matrices_, to_scene_, gathered_locals_);
    locals_at_ = revision_;
  }
  return gathered_locals_;
}

std::span<const glm::mat4> SkinPose::world_transforms() const {
  if (!worlds_in_scene_) return worlds_;
  if (worlds_at_ != revision_) {
    gathered_worlds_.resize(to_scene_.size());
    for (std::size_t p = 0; p < gathered_worlds_.size(); ++p) gathered_worlds_[p] = scene_worlds_[static_cast<std::size_t>(to_scene_[p])];
    worlds_at_ = revision_;
  }
  return gathered_worlds_;
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
  const auto bone = static_cast<std::size_t>(data.node);
  return data.skin >= 0 ? bind_worlds_[bone] : worlds_[bone];
}

std::size_t Animator::size_in_bytes() const noexcept {
  const auto mats = [](const std::vector<glm::mat4>& v) { return v.capacity() * sizeof(glm::mat4); };
  const auto poses = [](const std::vector<TrsBlock>& v) { return v.capacity() * sizeof(TrsBlock); };
  std::size_t bytes = sizeof(*this) + sources_.capacity() * sizeof(std::uint32_t) + blocks_.capacity() * sizeof(TrsBlock*) +
                      poses(ik_pose_) + mats(gathered_locals_) + mats(worlds_) + mats(palette_scratch_) + mats(scale_shear_scratch_) +
                      dual_quaternion_scratch_.capacity() * sizeof(SkinDualQuaternion) + poses(scene_blended_) +
                      scene_animated_.capacity() * sizeof(std::uint32_t) + moving_.capacity() +
                      events_.capacity() * sizeof(AnimationEvent) + marker_scratch_.capacity() * sizeof(std::uint32_t) +
                      bounds_scratch_.capacity() * sizeof(glm::vec3) + skin_boxes_.capacity() * sizeof(BoundingBox) +
                      (blend_layers_.capacity() + blend_additive_.capacity()) * sizeof(BlendingLayer) +
                      ik_touched_.capacity() * sizeof(ik_touched_[0]) + root_tracks_.capacity() * sizeof(root_tracks_[0]);
  for (const auto& track : root_tracks_) bytes += track != nullptr ? track->size_in_bytes() : 0;
  for (const SkinState& s : skins_) {
    bytes += sizeof(s) + mats(s.pose.locals_) + mats(s.pose.worlds_) + mats(s.pose.palette_) + mats(s.pose.gathered_locals_) +
             mats(s.pose.gathered_worlds_) + poses(s.blended) +
             s.still.capacity() * sizeof(std::uint32_t) + mats(s.prefixes);
  }
  for (const Layer& l : layers_) {
    bytes += sizeof(l) + l.node_mask.capacity() * sizeof(float) + l.actions.capacity() * sizeof(Action*);
    for (const auto& m : l.skin_masks) bytes += m.capacity() * sizeof(float);
  }
  for (const auto& a : actions_) {
    bytes += sizeof(*a) + a->scene_context.size_in_bytes() + poses(a->scene_pose);
    for (const SamplingContext& c : a->skin_contexts) bytes += c.size_in_bytes();
    for (const auto& p : a->skin_poses) bytes += poses(p);
    for (const auto& w : a->morph_weights) bytes += w.capacity() * sizeof(float);
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
    // World space: draw * palette = W_joint * IBM, the draw matrix as the job's root.
    const std::span<const glm::mat4> whole = skins_[static_cast<std::size_t>(mesh_data.skin)].pose.skin_transforms();
    // A split part (S4) skins with the sub-palette its JOINTS index, gathered (validate(Model)
    // checked the map, which is never longer than the skin); a whole skin's palette as it is.
    const std::span<const std::uint32_t> map = data.palette_joints;
    std::span<const glm::mat4> skin = whole;
    if (!map.empty()) {
      if (palette_scratch_.size() < map.size()) palette_scratch_.resize(compiled_->max_palette);  // the first call
      for (std::size_t j = 0; j < map.size(); ++j) palette_scratch_[j] = whole[map[j]];
      skin = std::span<const glm::mat4>(palette_scratch_.data(), map.size());
    }
    SkinningJob job;
    job.palette = skin;
    job.root = &world;
    job.influences = layout.influences;  // S1: every set of the part
    job.joints = attribute_view<glm::u16vec4>(bytes, layout, VertexAttribute::Joints0);
    job.weights = attribute_view<glm::vec4>(bytes, layout, VertexAttribute::Weights0);
    if (data.skinning == SkinningMode::DualQuaternion) {
      // S3: this palette as rigid dual quaternions and scale/shear parts, then DQS.
      if (dual_quaternion_scratch_.size() < skin.size()) {  // a part switched to DQS after construction
        dual_quaternion_scratch_.resize(skin.size());
        scale_shear_scratch_.resize(skin.size());
      }
      const DualQuaternionPaletteJob convert{job.palette, std::span(dual_quaternion_scratch_).first(skin.size()),
                                             std::span(scale_shear_scratch_).first(skin.size())};
      convert.run();
      job.mode = SkinningMode::DualQuaternion;
      job.dual_quaternions = convert.out_dual_quaternions;
      job.scale_shear = convert.out_scale_shear;
    }
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

BoundingBox Animator::bounds() {
  // Each skin's box once, in its palette space (SkinnedBoundsJob: the header's argument).
  for (std::size_t s = 0; s < skins_.size(); ++s) {
    const JointBounds& joints = compiled_->own_bounds ? compiled_->own_bounds->skins[s] : model_.skins[s].joint_bounds;
    const SkinState& state = skins_[s];
    if (state.pose.worlds_in_scene_) {  // the same matrices, in the scene's worlds
      SkinnedBoundsJob{state.shared->bound_nodes, joints.centers, joints.extents, worlds_, &skin_boxes_[s]}.run();
    } else {
      SkinnedBoundsJob{joints.joints, joints.centers, joints.extents, state.pose.worlds_, &skin_boxes_[s]}.run();
    }
  }
  BoundingBox box;
  for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
    const ModelMesh& mesh = model_.meshes[m];
    if (mesh.skin < 0) {  // rigid (morphs included in the local box): moved by its bone
      const BoundingBox& local = compiled_->own_bounds ? compiled_->own_bounds->meshes[m] : mesh.local_bounds;
      box.extend(transformed(local, worlds_[static_cast<std::size_t>(mesh.node)]));
      continue;
    }
    bool linear = false;
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      if (part.vertex_count() == 0) continue;
      if (part.skinning != SkinningMode::DualQuaternion) {
        linear = true;
        continue;
      }
      // Dual-quaternion skinning is no convex blend (skinned_bounds_job.hpp): pose the part.
      if (bounds_scratch_.size() < part.vertex_count()) bounds_scratch_.resize(part.vertex_count());
      const std::span<glm::vec3> posed = std::span(bounds_scratch_).first(part.vertex_count());
      pose_part(m, p, posed);
      box.extend(bounding_box_of(posed));
    }
    // Palette space -> the space pose_part outputs (the part's draw matrix).
    if (linear) box.extend(transformed(skin_boxes_[static_cast<std::size_t>(mesh.skin)], part_world(m)));
  }
  return box;
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
