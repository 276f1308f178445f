#include "marrow/asset/model_instance.hpp"

#include <stdexcept>
#include <string>

#include "marrow/runtime/skin_palette_job.hpp"
#include "marrow/asset/asset_loader.hpp"

namespace marrow::asset {

ModelInstance::ModelInstance(std::shared_ptr<const Mesh> mesh, const glm::mat4& transform)
    : mesh_(std::move(mesh)), transform_(transform) {
  if (!mesh_) throw std::invalid_argument("ModelInstance: no mesh");
  palette_.assign(mesh_->bind_palette().begin(), mesh_->bind_palette().end());
  if (const SkeletalRig* rig = mesh_->rig()) {
    locals_.resize(rig->nodes.size());
    node_worlds_.resize(rig->nodes.size());
  }
}

void ModelInstance::apply_bind_pose() {
  std::copy(mesh_->bind_palette().begin(), mesh_->bind_palette().end(), palette_.begin());
  posed_rig_ = nullptr;
  group_pose_.reset();
}

InstanceAnimationPlayer ModelInstance::animation_player(const MeshAnimation& animation) {
  const SkeletalRig* rig = mesh_->rig();
  if (rig == nullptr || animation.index < 0 || static_cast<std::size_t>(animation.index) >= rig->animations.size() ||
      rig->animations[static_cast<std::size_t>(animation.index)].name != animation.name) {
    throw std::out_of_range("ModelInstance: animation '" + animation.name + "' is not one of mesh '" + mesh_->name() +
                            "'s animations");
  }
  return InstanceAnimationPlayer(*this, animation.index,
                                 rig->animations[static_cast<std::size_t>(animation.index)].default_duration_seconds);
}

void InstanceAnimationPlayer::pose(float seconds) {
  ModelInstance& i = instance_;
  const SkeletalRig& rig = *i.mesh_->rig();
  const RigAnimation& animation = rig.animations[static_cast<std::size_t>(animation_)];
  if (i.cursor_animation_ != animation_) {  // new animation: fresh cursors (not per frame)
    i.cursors_.assign(animation.tracks.size(), TrackCursor{});
    i.cursor_animation_ = animation_;
  }
  rig.evaluate(&animation, seconds, i.locals_, i.node_worlds_, i.cursors_);
  rig.palette(i.node_worlds_, i.palette_);
  i.posed_rig_ = &rig;
  i.group_pose_.reset();
}

void ModelInstance::pose_vertices(std::span<glm::vec3> positions, std::span<glm::vec3> normals) const {
  pose_mesh_vertices(*mesh_, palette_, positions, normals);
}

ModelInstanceGroup::ModelInstanceGroup(std::vector<ModelInstance> instances, std::shared_ptr<const AnimationTable> table)
    : instances_(std::move(instances)), table_(std::move(table)) {
  if (table_) {
    locals_.resize(table_->rig().nodes.size());
    worlds_ = std::make_shared<std::vector<glm::mat4>>(table_->rig().nodes.size());
  }
}

Skeleton ModelInstanceGroup::skeleton() const {
  if (!table_) throw std::logic_error("ModelInstanceGroup: not linked to an animation table");
  return table_->skeleton();
}

Animations ModelInstanceGroup::animations() const {
  if (!table_) throw std::logic_error("ModelInstanceGroup: not linked to an animation table");
  return table_->animations();
}

GroupAnimationPlayer ModelInstanceGroup::animation_player(const MeshAnimation& animation) {
  if (!table_) throw std::logic_error("ModelInstanceGroup: not linked to an animation table");
  const auto& animations = table_->rig().animations;
  if (animation.index < 0 || static_cast<std::size_t>(animation.index) >= animations.size() ||
      animations[static_cast<std::size_t>(animation.index)].name != animation.name) {
    throw std::out_of_range("ModelInstanceGroup: animation '" + animation.name + "' is not one of the table's");
  }
  return GroupAnimationPlayer(*this, animation.index,
                              animations[static_cast<std::size_t>(animation.index)].default_duration_seconds);
}

void GroupAnimationPlayer::pose(float seconds) {
  ModelInstanceGroup& g = group_;
  const AnimationTable& table = *g.table_;
  const SkeletalRig& rig = table.rig();
  const RigAnimation& animation = rig.animations[static_cast<std::size_t>(animation_)];
  if (g.cursor_animation_ != animation_) {
    g.cursors_.assign(animation.tracks.size(), TrackCursor{});
    g.cursor_animation_ = animation_;
  }
  // The pose is written where the members read their node transforms. Anyone else still holding
  // the last pose (a copy of a member, a member taken out of the group, a copy of the group) keeps
  // it unchanged: the pose then goes to a fresh block (an allocation only after such a copy).
  long members_holding = 0;
  for (const ModelInstance& instance : g.instances_) members_holding += instance.group_pose_ == g.worlds_ ? 1 : 0;
  if (g.worlds_.use_count() > 1 + members_holding) {
    g.worlds_ = std::make_shared<std::vector<glm::mat4>>(rig.nodes.size());
  }
  rig.evaluate(&animation, seconds, g.locals_, *g.worlds_, g.cursors_);  // once for every instance
  for (ModelInstance& instance : g.instances_) {
    const std::vector<int>* nodes = table.bone_nodes(instance.mesh());
    if (nodes == nullptr) continue;  // not in the table: left unchanged
    SkinPaletteJob palette;
    palette.models = *g.worlds_;
    palette.inverse_binds = instance.mesh().rig()->inverse_binds;
    palette.joints = *nodes;
    palette.palette = instance.palette_;
    throw_if_invalid(palette.validate(), "GroupAnimationPlayer");
    palette.run();
    // Each member refers to the pose's node transforms, so its nodes can be read like those of
    // an instance its own player posed.
    if (instance.group_pose_ != g.worlds_) instance.group_pose_ = g.worlds_;
    instance.posed_rig_ = &rig;
  }
}

ModelInstanceGroup create_model_instances(std::span<const std::shared_ptr<Mesh>> meshes,
                                          std::shared_ptr<const AnimationTable> table) {
  std::vector<ModelInstance> instances;
  instances.reserve(meshes.size());
  for (const auto& mesh : meshes) instances.emplace_back(mesh);
  return ModelInstanceGroup(std::move(instances), std::move(table));
}

ModelInstanceGroup create_model_instances(const ModelBundle& bundle) {
  return create_model_instances(bundle.meshes, bundle.table);
}

ModelInstanceGroup group_model_instances(std::vector<ModelInstance> instances,
                                         std::shared_ptr<const AnimationTable> table) {
  return ModelInstanceGroup(std::move(instances), std::move(table));
}

}  // namespace marrow::asset
