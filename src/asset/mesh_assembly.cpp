#include "mesh_assembly.hpp"

#include <algorithm>

namespace marrow::asset {

namespace {

constexpr std::size_t kMaxExactSamples = 64;

// Node worlds at the animation's time (nullptr: bind) and the bone palette from them.
void palette_at(const SkeletalRig& rig, const RigAnimation* animation, float seconds, std::vector<glm::mat4>& locals,
                std::vector<glm::mat4>& worlds, std::vector<glm::mat4>& palette) {
  rig.evaluate(animation, seconds, locals, worlds);
  rig.palette(worlds, palette);
}

}  // namespace

std::vector<Ticks> animation_key_times(const RigAnimation& animation) {
  std::vector<Ticks> times;
  for (const BoneTrack& track : animation.tracks) {
    for (const Keyframe& key : track.keys) times.push_back(key.time);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

void MeshAssembly::finish(Mesh& mesh) {
  mesh.skin_joints_.resize(mesh.vertices_.size());
  for (std::size_t i = 0; i < mesh.vertices_.size(); ++i) {
    const auto& b = mesh.vertices_[i].bone_indices;
    mesh.skin_joints_[i] = glm::u16vec4(b[0], b[1], b[2], b[3]);
  }
  mesh.bind_palette_.clear();
  if (!mesh.rig_) return;
  SkeletalRig& rig = *mesh.rig_;
  std::vector<glm::mat4> locals(rig.nodes.size()), worlds(rig.nodes.size());
  mesh.bind_palette_.resize(rig.bone_count());
  palette_at(rig, nullptr, 0.f, locals, worlds, mesh.bind_palette_);
  if (std::find(rig.meshes.begin(), rig.meshes.end(), &mesh) == rig.meshes.end()) rig.meshes.push_back(&mesh);
}

void MeshAssembly::compute_bounds(Mesh& mesh, bool with_animations, const std::optional<BoundingBox>& override_box,
                                  float margin) {
  BoundingBox box;
  std::vector<glm::vec3> posed(mesh.vertices_.size());
  pose_mesh_vertices(mesh, mesh.bind_palette_, posed);
  box.extend(bounding_box_of(posed));
  if (with_animations && mesh.is_skeletal()) {
    const SkeletalRig& rig = *mesh.rig_;
    // Each bone's box of the vertices it influences (mesh space), for the conservative bound.
    std::vector<BoundingBox> bone_boxes(rig.bone_count());
    for (const MeshVertexSkeletal& v : mesh.vertices_) {
      for (int i = 0; i < 4; ++i) {
        if (v.bone_weights[static_cast<std::size_t>(i)] > 0.f && v.bone_indices[static_cast<std::size_t>(i)] < bone_boxes.size()) {
          bone_boxes[v.bone_indices[static_cast<std::size_t>(i)]].extend(v.location);
        }
      }
    }
    std::vector<glm::mat4> locals(rig.nodes.size()), worlds(rig.nodes.size()), palette(rig.bone_count());
    for (const RigAnimation& animation : rig.animations) {
      const std::vector<Ticks> times = animation_key_times(animation);
      const std::size_t n = times.size();
      // Up to 64 evenly spread key times (first and last included) are posed exactly.
      std::vector<bool> exact(n, n <= kMaxExactSamples);
      for (std::size_t j = 0; n > kMaxExactSamples && j < kMaxExactSamples; ++j) {
        exact[(j * (n - 1) + (kMaxExactSamples - 1) / 2) / (kMaxExactSamples - 1)] = true;
      }
      for (std::size_t k = 0; k < n; ++k) {
        palette_at(rig, &animation, static_cast<float>(seconds_from_ticks(times[k])), locals, worlds, palette);
        if (exact[k]) {
          pose_mesh_vertices(mesh, palette, posed);
          box.extend(bounding_box_of(posed));
          continue;
        }
        // A skinned vertex is a convex blend of its bones' transforms of it, so it lies in the
        // box of the bones' moved vertex boxes.
        for (std::size_t b = 0; b < bone_boxes.size(); ++b) {
          if (bone_boxes[b].empty) continue;
          for (int corner = 0; corner < 8; ++corner) {
            const glm::vec3 c((corner & 1) ? bone_boxes[b].max.x : bone_boxes[b].min.x,
                              (corner & 2) ? bone_boxes[b].max.y : bone_boxes[b].min.y,
                              (corner & 4) ? bone_boxes[b].max.z : bone_boxes[b].min.z);
            box.extend(glm::vec3(palette[b] * glm::vec4(c, 1.f)));
          }
        }
      }
    }
  }
  if (override_box) box = *override_box;
  if (!box.empty && margin != 0.f) {
    box.min -= glm::vec3(margin);
    box.max += glm::vec3(margin);
  }
  mesh.bounds_ = box;
}

}  // namespace marrow::asset
