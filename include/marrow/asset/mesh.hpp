#pragma once
// An asset-level mesh (seed 003): vertices and triangles, and for a skeletal mesh its skeleton
// and animations, with a bounding box that covers them (T14). A mesh is a view of a Model
// (shared_model.hpp): a built mesh is a Model of its own, a loaded one some meshes of its file's
// Model. So what draws, writes, converts or poses a Model (render, write_gltf, marrow convert,
// Animator) takes a mesh's model() as it takes any import. Meshes are created by the AssetLoader
// or the MeshBuilder and shared (std::shared_ptr) by the instances that draw them.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/model/bounds.hpp"
#include "marrow/asset/mesh_animation.hpp"
#include "marrow/asset/mesh_vertex.hpp"
#include "marrow/asset/shared_model.hpp"
#include "marrow/asset/skeleton.hpp"

namespace marrow::asset {

class Mesh {
 public:
  const std::string& name() const noexcept { return name_; }
  // True when the mesh has bones (it is posed by a skin of its model).
  bool is_skeletal() const noexcept { return skin_ >= 0; }

  // The Model this mesh is (built) or is part of (loaded: its file's, shared with the file's
  // other meshes and table), the model meshes it draws, and the skin that poses it (-1: static).
  const Model& model() const noexcept { return shared_->model; }
  std::shared_ptr<const Model> shared_model() const noexcept { return {shared_, &shared_->model}; }
  std::span<const int> model_meshes() const noexcept { return meshes_; }
  int skin() const noexcept { return skin_; }

  // The vertices of its model meshes' parts in order, decoded into the seed's vertex (T16: the
  // four largest influences, renormalised; the bitangent from the normal and the tangent's
  // handedness; bone indices are this mesh's bones). A skeletal mesh gives them unposed, a
  // static one placed in model space at rest. Triangles index them (triangle parts only).
  std::size_t vertex_count() const noexcept;
  std::vector<MeshVertexSkeletal> vertices() const;
  std::vector<VertexTriangle> triangles() const;

  Skeleton skeleton() const { return Skeleton(skeleton_); }
  Animations animations() const { return Animations(skeleton_); }
  const BoundingBox& bounding_box() const noexcept { return bounds_; }

  // Per bone (the bone a MeshNode names, the index of bone_transforms()): its Model node, its
  // model-space -> bone-space inversion at bind, and its transform in the bind pose (Model node
  // world * inversion).
  std::span<const int> bone_model_nodes() const noexcept { return bone_model_nodes_; }
  std::span<const int> bone_joints() const noexcept { return bone_joints_; }  // its skin palette index
  std::span<const glm::mat4> inverse_binds() const noexcept { return inverse_binds_; }
  std::span<const glm::mat4> bind_palette() const noexcept { return bind_palette_; }
  std::size_t bone_count() const noexcept { return bone_model_nodes_.size(); }

  const SkeletonNodes* skeleton_nodes() const noexcept { return skeleton_.get(); }
  const SharedModel& shared() const noexcept { return *shared_; }

 private:
  friend class MeshBuilder;
  friend struct MeshAssembly;

  std::string name_;
  std::shared_ptr<SharedModel> shared_;
  std::vector<int> meshes_;                  // model meshes drawn, in order
  int skin_ = -1;
  std::shared_ptr<SkeletonNodes> skeleton_;  // null: no skeletal data
  std::vector<int> bone_model_nodes_;
  std::vector<int> bone_joints_;             // per bone: its palette index in the skin
  std::vector<glm::mat4> inverse_binds_;
  std::vector<glm::mat4> bind_palette_;
  BoundingBox bounds_;
};

// Posed model-space positions (and normals, when given a span) of a mesh's vertices (in
// vertices() order) with a palette of its bones: each skinned part by linear blend skinning
// over every influence it has (S1); a static mesh at rest. Sizes must match the vertex count.
void pose_mesh_vertices(const Mesh& mesh, std::span<const glm::mat4> palette, std::span<glm::vec3> positions,
                        std::span<glm::vec3> normals = {});

}  // namespace marrow::asset
