#include "marrow/asset/model_instance.hpp"

#include <stdexcept>
#include <string>

#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/skin_palette_job.hpp"
#include "marrow/asset/asset_loader.hpp"

namespace marrow::asset {

namespace {

// A mesh's palette from the Model node transforms of a pose: out[b] = worlds[model_nodes[b]] *
// inverse_binds[b] (the one skin-palette job).
void palette_from(std::span<const glm::mat4> worlds, const Mesh& mesh, std::span<const int> model_nodes,
                  std::span<glm::mat4> out) {
  SkinPaletteJob job;
  job.models = worlds;
  job.inverse_binds = mesh.inverse_binds();
  job.joints = model_nodes;
  job.palette = out;
  throw_if_invalid(job.validate(), "asset palette");
  job.run();
}

// The block the group's pose is written to, which `holders` share: in place unless someone else
// still holds the last pose (a copy of a member or of the group), which then keeps it unchanged
// while the pose goes to a fresh block (an allocation only after such a copy).
std::vector<glm::mat4>& writable_pose(std::shared_ptr<std::vector<glm::mat4>>& block, long holders, std::size_t size) {
  if (!block || block.use_count() > holders) block = std::make_shared<std::vector<glm::mat4>>(size);
  block->resize(size);
  return *block;
}

// An animation of the model, else std::out_of_range naming who asked.
float checked_duration(const Model& model, const MeshAnimation& animation, const std::string& owner) {
  if (animation.index < 0 || static_cast<std::size_t>(animation.index) >= model.animations.size() ||
      model.animations[static_cast<std::size_t>(animation.index)].name != animation.name) {
    throw std::out_of_range(owner + ": animation '" + animation.name + "' is not one of its animations");
  }
  return static_cast<float>(seconds_from_ticks(model.animations[static_cast<std::size_t>(animation.index)].duration));
}

}  // namespace

ModelInstance::ModelInstance(std::shared_ptr<const Mesh> mesh, const glm::mat4& transform)
    : mesh_(std::move(mesh)), transform_(transform) {
  if (!mesh_) throw std::invalid_argument("ModelInstance: no mesh");
  palette_.assign(mesh_->bind_palette().begin(), mesh_->bind_palette().end());
}

ModelInstance::ModelInstance(const ModelInstance& other)
    : mesh_(other.mesh_), transform_(other.transform_), palette_(other.palette_), pose_(other.pose_),
      posed_model_(other.posed_model_) {
  if (posed_model_ != nullptr && !pose_) {
    const std::span<const glm::mat4> own = other.node_transforms();
    pose_ = std::make_shared<std::vector<glm::mat4>>(own.begin(), own.end());
  }
}

ModelInstance& ModelInstance::operator=(const ModelInstance& other) {
  if (this != &other) *this = ModelInstance(other);
  return *this;
}

void ModelInstance::apply_bind_pose() {
  std::copy(mesh_->bind_palette().begin(), mesh_->bind_palette().end(), palette_.begin());
  posed_model_ = nullptr;
  pose_.reset();
}

InstanceAnimationPlayer ModelInstance::animation_player(const MeshAnimation& animation) {
  if (!mesh_->is_skeletal()) {
    throw std::out_of_range("ModelInstance: animation '" + animation.name + "' is not one of mesh '" + mesh_->name() +
                            "'s animations (it has no skeletal data)");
  }
  return InstanceAnimationPlayer(*this, animation.index,
                                 checked_duration(mesh_->model(), animation, "ModelInstance of mesh '" + mesh_->name() + "'"));
}

void InstanceAnimationPlayer::pose(float seconds) {
  ModelInstance& i = instance_;
  const Mesh& mesh = *i.mesh_;
  const Animator& animator = i.evaluator_.evaluate_animator(mesh.shared(), animation_, seconds);
  // The Animator's palette of the mesh's skin is the glTF joint matrix; drawn with the part's
  // matrix it is node world * inversion (the asset palette), so no second palette is formed.
  const std::span<const glm::mat4> joints = animator.player(static_cast<std::size_t>(mesh.skin())).skin_transforms();
  const glm::mat4 draw = animator.part_world(static_cast<std::size_t>(mesh.model_meshes()[0]));
  const bool at_origin = draw == glm::mat4(1.f);  // a built mesh's: the product is skipped
  const std::span<const int> bone_joints = mesh.bone_joints();
  for (std::size_t b = 0; b < bone_joints.size(); ++b) {
    const glm::mat4& joint = joints[static_cast<std::size_t>(bone_joints[b])];
    i.palette_[b] = at_origin ? joint : draw * joint;
  }
  i.pose_.reset();  // node transforms read in place from the Animator
  i.posed_model_ = &mesh.model();
}

void ModelInstance::pose_vertices(std::span<glm::vec3> positions, std::span<glm::vec3> normals) const {
  pose_mesh_vertices(*mesh_, palette_, positions, normals);
}

ModelInstanceGroup::ModelInstanceGroup(std::vector<ModelInstance> instances, std::shared_ptr<const AnimationTable> table)
    : instances_(std::move(instances)), table_(std::move(table)) {}

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
  return GroupAnimationPlayer(*this, animation.index, checked_duration(table_->shared().model, animation, "ModelInstanceGroup's table"));
}

void GroupAnimationPlayer::pose(float seconds) {
  ModelInstanceGroup& g = group_;
  const AnimationTable& table = *g.table_;
  // Evaluated once for every instance.
  const std::span<const glm::mat4> worlds = g.evaluator_.evaluate(table.shared(), animation_, seconds);
  // The pose is written where the members read their node transforms (writable_pose).
  long members_holding = 0;
  for (const ModelInstance& instance : g.instances_) members_holding += instance.pose_ == g.worlds_ ? 1 : 0;
  std::vector<glm::mat4>& pose = writable_pose(g.worlds_, 1 + members_holding, worlds.size());
  std::copy(worlds.begin(), worlds.end(), pose.begin());
  for (ModelInstance& instance : g.instances_) {
    const std::vector<int>* model_nodes = table.bone_model_nodes(instance.mesh());
    if (model_nodes == nullptr) continue;  // not in the table: left unchanged
    palette_from(pose, instance.mesh(), *model_nodes, instance.palette_);
    // Each member refers to the pose's node transforms, so its nodes can be read like those of
    // an instance its own player posed.
    if (instance.pose_ != g.worlds_) instance.pose_ = g.worlds_;
    instance.posed_model_ = &table.shared().model;
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
