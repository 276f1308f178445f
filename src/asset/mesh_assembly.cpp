#include "mesh_assembly.hpp"

#include <algorithm>

#include "marrow/model/animated_bounds.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/runtime/skinned_bounds_job.hpp"
#include "marrow/asset/model_pose.hpp"

namespace marrow::asset {

namespace {

// A mesh for the one animated-bounds routine (model/animated_bounds.hpp): its bind pose posed
// exactly, each animation's key times through its skin joints' boxes of its own vertices (S5,
// mesh_joint_bounds: every influence, morph targets' reach included).
class BoundsSource final : public AnimatedBoundsSource {
 public:
  BoundsSource(const Mesh& mesh, bool with_animations) : mesh_(mesh), animated_(with_animations && mesh.is_skeletal()) {
    if (!animated_) return;
    joints_ = mesh_joint_bounds(mesh.model(), static_cast<std::size_t>(mesh.model_meshes()[0]));
    models_.resize(joints_.joint_count);
  }

  BoundingBox loaded_pose() override {
    std::vector<glm::vec3> posed(mesh_.vertex_count());
    pose_mesh_vertices(mesh_, mesh_.bind_palette(), posed);
    return bounding_box_of(posed);
  }
  std::size_t clip_count() const override { return animated_ ? mesh_.model().animations.size() : 0; }
  std::vector<Ticks> key_times(std::size_t clip) const override { return animation_key_times(mesh_.model(), clip); }
  BoundingBox frame(std::size_t clip, Ticks t) override {
    const std::span<const glm::mat4> worlds =
        pose_.evaluate(mesh_.shared(), static_cast<int>(clip), static_cast<float>(seconds_from_ticks(t)));
    const std::vector<int>& nodes = mesh_.model().skins[static_cast<std::size_t>(mesh_.skin())].palette_to_scene;
    for (std::size_t q = 0; q < models_.size(); ++q) models_[q] = worlds[static_cast<std::size_t>(nodes[q])];
    BoundingBox box;
    SkinnedBoundsJob{joints_.joints, joints_.centers, joints_.extents, models_, &box}.run();
    return box;
  }

 private:
  const Mesh& mesh_;
  bool animated_;
  JointBounds joints_;
  ModelPose pose_;
  std::vector<glm::mat4> models_;
};

}  // namespace

std::shared_ptr<Mesh> MeshAssembly::view(std::string name, std::shared_ptr<SharedModel> shared, std::vector<int> meshes,
                                         int skin, std::shared_ptr<SkeletonNodes> skeleton, std::vector<int> bone_joints) {
  auto mesh = std::make_shared<Mesh>();
  mesh->name_ = std::move(name);
  mesh->shared_ = std::move(shared);
  mesh->meshes_ = std::move(meshes);
  if (skin < 0) return mesh;
  const Skin& s = mesh->model().skins[static_cast<std::size_t>(skin)];
  mesh->skin_ = skin;
  mesh->skeleton_ = std::move(skeleton);
  mesh->bone_joints_ = std::move(bone_joints);
  const std::size_t bones = mesh->bone_joints_.size();
  mesh->bone_model_nodes_.resize(bones);
  mesh->inverse_binds_.resize(bones);
  mesh->bind_palette_.resize(bones);
  for (std::size_t b = 0; b < bones; ++b) {
    const auto joint = static_cast<std::size_t>(mesh->bone_joints_[b]);
    mesh->bone_model_nodes_[b] = s.palette_to_scene[joint];
    mesh->inverse_binds_[b] = s.data.inverse_bind_pose[joint];
    mesh->bind_palette_[b] =
        mesh->shared_->bind_worlds[static_cast<std::size_t>(mesh->bone_model_nodes_[b])] * mesh->inverse_binds_[b];
  }
  mesh->skeleton_->meshes.push_back(mesh.get());
  return mesh;
}

void MeshAssembly::compute_bounds(Mesh& mesh, bool with_animations, const std::optional<BoundingBox>& override_box,
                                  float margin) {
  BoundsSource source(mesh, with_animations);
  BoundingBox box = animated_bounds(source);
  if (override_box) box = *override_box;
  if (!box.empty && margin != 0.f) {
    box.min -= glm::vec3(margin);
    box.max += glm::vec3(margin);
  }
  mesh.bounds_ = box;
}

}  // namespace marrow::asset
