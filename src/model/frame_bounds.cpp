#include "marrow/model/frame_bounds.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <glm/common.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/runtime/offline/joint_bounds_builder.hpp"

namespace marrow {

namespace {

// Per morph target of a mesh, the lowest and highest weight it can take.
struct WeightRange {
  std::vector<float> lo, hi;

  void include(std::size_t target, float w) {
    if (target >= lo.size()) return;
    lo[target] = std::min(lo[target], w);
    hi[target] = std::max(hi[target], w);
  }
  void include(const MorphWeightTrack& track) {
    const std::size_t n = track.weight_count;
    const bool cubic = track.interpolation == Interpolation::CubicSpline && !track.in_tangents.empty();
    for (std::size_t k = 0; k < track.times.size(); ++k) {
      for (std::size_t t = 0; t < n; ++t) {
        const float value = track.values[k * n + t];
        include(t, value);
        if (!cubic) continue;
        // The Hermite segment's Bezier control points: value +- tangent * dt / 3.
        if (k + 1 < track.times.size()) {
          include(t, value + track.out_tangents[k * n + t] * static_cast<float>(track.times[k + 1] - track.times[k]) / 3.f);
        }
        if (k > 0) {
          include(t, value - track.in_tangents[k * n + t] * static_cast<float>(track.times[k] - track.times[k - 1]) / 3.f);
        }
      }
    }
  }
};

WeightRange weight_range(const Model& model, std::size_t m) {
  const ModelMesh& mesh = model.meshes[m];
  std::size_t targets = mesh.morph_weights.size();
  for (const ModelMeshPart& part : mesh.parts) {
    if (part.morph) targets = std::max(targets, part.morph->target_count());
  }
  WeightRange range{std::vector<float>(targets, 0.f), std::vector<float>(targets, 1.f)};
  for (std::size_t t = 0; t < mesh.morph_weights.size(); ++t) range.include(t, mesh.morph_weights[t]);
  for (const ModelMeshPart& part : mesh.parts) {
    if (!part.morph) continue;
    for (std::size_t t = 0; t < part.morph->weights.size(); ++t) range.include(t, part.morph->weights[t]);
    if (part.morph->weight_track) range.include(*part.morph->weight_track);
  }
  for (const ModelAnimation& animation : model.animations) {
    for (const MorphWeightChannel& channel : animation.morph_channels) {
      if (channel.mesh == static_cast<int>(m)) range.include(channel.track);
    }
  }
  return range;
}

// One part's vertices: each as a point, or as the box its morph targets can move it through;
// every skin influence with a nonzero weight adds it to that joint's box.
void walk_part(const ModelMeshPart& part, const WeightRange& range, JointBoundsBuilder* joints, BoundingBox& local) {
  const std::span<const std::byte> bytes = part.morph ? std::span<const std::byte>(part.morph->base_vertex_bytes)
                                                      : std::span<const std::byte>(part.vertex_bytes);
  const VertexLayout& layout = part.morph ? part.morph->layout : part.layout;
  if (layout.stride == 0 || !layout.has(VertexAttribute::Position)) return;
  const auto positions = attribute_view<glm::vec3>(bytes, layout, VertexAttribute::Position);
  const std::size_t n = positions.size();
  if (n == 0) return;
  const bool skinned = joints != nullptr && layout.has(VertexAttribute::Joints0) && layout.has(VertexAttribute::Weights0);
  const std::vector<std::vector<glm::vec3>>* deltas = part.morph ? &part.morph->position_deltas : nullptr;
  if (deltas == nullptr || deltas->empty()) {
    // A skinned part's box comes with its joint walk: one pass over the vertices.
    local.extend(skinned ? joints->add_vertices(bytes, layout, part.palette_joints) : bounding_box_of(positions));
    return;
  }
  glm::vec3 lo = positions.load(0), hi = lo;
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec3 p = positions.load(v);
    glm::vec3 p_lo = p, p_hi = p;
    for (std::size_t t = 0; t < deltas->size(); ++t) {
      const std::vector<glm::vec3>& d = (*deltas)[t];
      if (d.size() != n) continue;
      const glm::vec3 a = d[v] * range.lo[t], b = d[v] * range.hi[t];
      p_lo += glm::min(a, b);
      p_hi += glm::max(a, b);
    }
    lo = glm::min(lo, p_lo);
    hi = glm::max(hi, p_hi);
    if (!skinned) continue;
    const std::byte* row = bytes.data() + v * layout.stride;
    for (std::uint32_t i = 0; i < layout.influences; ++i) {
      std::uint16_t joint;
      float weight;
      std::memcpy(&joint, row + layout.offset(VertexAttribute::Joints0) + 2 * i, sizeof joint);
      std::memcpy(&weight, row + layout.offset(VertexAttribute::Weights0) + 4 * i, sizeof weight);
      if (weight == 0.f) continue;
      const std::span<const std::uint32_t> map = part.palette_joints;  // S4: a split part's JOINTS
      if (map.empty()) {
        joints->add(joint, p_lo, p_hi);
      } else if (joint < map.size()) {
        joints->add(map[joint], p_lo, p_hi);
      }
    }
  }
  local.extend(BoundingBox{lo, hi, false});
}

}  // namespace

FrameBounds make_frame_bounds(const Model& model) {
  std::vector<JointBoundsBuilder> builders;
  builders.reserve(model.skins.size());
  for (const Skin& skin : model.skins) builders.emplace_back(skin.data.inverse_bind_pose);
  FrameBounds out;
  out.meshes.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    const WeightRange range = weight_range(model, m);
    JointBoundsBuilder* joints = mesh.skin >= 0 && static_cast<std::size_t>(mesh.skin) < builders.size()
                                     ? &builders[static_cast<std::size_t>(mesh.skin)]
                                     : nullptr;
    for (const ModelMeshPart& part : mesh.parts) walk_part(part, range, joints, out.meshes[m]);
  }
  out.skins.reserve(builders.size());
  for (const JointBoundsBuilder& builder : builders) out.skins.push_back(builder.finish());
  return out;
}

JointBounds mesh_joint_bounds(const Model& model, std::size_t m) {
  const ModelMesh& mesh = model.meshes.at(m);
  if (mesh.skin < 0) return {};
  JointBoundsBuilder joints(model.skins.at(static_cast<std::size_t>(mesh.skin)).data.inverse_bind_pose);
  const WeightRange range = weight_range(model, m);
  BoundingBox local;
  for (const ModelMeshPart& part : mesh.parts) walk_part(part, range, &joints, local);
  return joints.finish();
}

void compute_frame_bounds(Model& model) {
  FrameBounds bounds = make_frame_bounds(model);
  for (std::size_t s = 0; s < model.skins.size(); ++s) model.skins[s].joint_bounds = std::move(bounds.skins[s]);
  for (std::size_t m = 0; m < model.meshes.size(); ++m) model.meshes[m].local_bounds = bounds.meshes[m];
}

bool frame_bounds_ready(const Model& model) noexcept {
  for (const Skin& skin : model.skins) {
    if (skin.joint_bounds.joint_count != skin.data.inverse_bind_pose.size()) return false;
  }
  for (const ModelMesh& mesh : model.meshes) {
    if (!mesh.local_bounds.empty) continue;
    for (const ModelMeshPart& part : mesh.parts) {
      if (part.vertex_count() > 0) return false;
    }
  }
  return true;
}

}  // namespace marrow
