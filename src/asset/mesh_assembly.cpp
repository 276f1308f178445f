#include "mesh_assembly.hpp"

#include <algorithm>

#include "marrow/model/animated_bounds.hpp"
#include "marrow/runtime/joint_bounds.hpp"
#include "marrow/runtime/skinned_bounds_job.hpp"

namespace marrow::asset {

namespace {

// Node worlds at the animation's time (nullptr: bind) and the bone palette from them.
void palette_at(const SkeletalRig& rig, const RigAnimation* animation, float seconds, std::vector<glm::mat4>& locals,
                std::vector<glm::mat4>& worlds, std::vector<glm::mat4>& palette) {
  rig.evaluate(animation, seconds, locals, worlds);
  rig.palette(worlds, palette);
}

// A mesh for the one animated-bounds routine (model/animated_bounds.hpp): its bind pose posed
// exactly, each animation's key times through the per-joint boxes (S5) of its vertices.
class MeshSource final : public AnimatedBoundsSource {
 public:
  MeshSource(const Mesh& mesh, bool with_animations)
      : mesh_(mesh), rig_(with_animations && mesh.is_skeletal() ? mesh.rig() : nullptr) {
    if (rig_ == nullptr) return;
    JointBoundsBuilder builder(rig_->inverse_binds);
    for (const MeshVertexSkeletal& v : mesh.vertices()) {
      for (std::size_t i = 0; i < 4; ++i) {
        if (v.bone_weights[i] > 0.f) builder.add(v.bone_indices[i], v.location);
      }
    }
    joints_ = builder.finish();
    locals_.resize(rig_->nodes.size());
    worlds_.resize(rig_->nodes.size());
    models_.resize(rig_->bone_count());
  }

  BoundingBox loaded_pose() override {
    std::vector<glm::vec3> posed(mesh_.vertices().size());
    pose_mesh_vertices(mesh_, mesh_.bind_palette(), posed);
    return bounding_box_of(posed);
  }
  std::size_t clip_count() const override { return rig_ != nullptr ? rig_->animations.size() : 0; }
  std::vector<Ticks> key_times(std::size_t clip) const override { return rig_->animations[clip].key_times; }
  BoundingBox frame(std::size_t clip, Ticks t) override {
    rig_->evaluate(&rig_->animations[clip], static_cast<float>(seconds_from_ticks(t)), locals_, worlds_);
    for (std::size_t b = 0; b < models_.size(); ++b) models_[b] = worlds_[static_cast<std::size_t>(rig_->bone_nodes[b])];
    BoundingBox box;
    SkinnedBoundsJob{joints_.joints, joints_.centers, joints_.extents, models_, &box}.run();
    return box;
  }

 private:
  const Mesh& mesh_;
  const SkeletalRig* rig_;
  JointBounds joints_;
  std::vector<glm::mat4> locals_, worlds_, models_;
};

}  // namespace

std::vector<Ticks> animation_key_times(const RigAnimation& animation) {
  std::vector<Ticks> times;
  append_key_times(animation.tracks, times);
  sort_key_times(times);
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
  MeshSource source(mesh, with_animations);
  BoundingBox box = animated_bounds(source);
  if (override_box) box = *override_box;
  if (!box.empty && margin != 0.f) {
    box.min -= glm::vec3(margin);
    box.max += glm::vec3(margin);
  }
  mesh.bounds_ = box;
}

}  // namespace marrow::asset
