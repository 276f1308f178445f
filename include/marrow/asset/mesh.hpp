#pragma once
// An asset-level mesh (seed 003): vertices and triangles, and for a skeletal mesh its skeleton
// and animations, with a bounding box that covers them (T14). Meshes are created by the
// AssetLoader or the MeshBuilder and shared (std::shared_ptr) by the instances that draw them.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/gtc/type_precision.hpp>

#include "marrow/model/bounds.hpp"
#include "marrow/asset/mesh_animation.hpp"
#include "marrow/asset/mesh_vertex.hpp"
#include "marrow/asset/skeletal_rig.hpp"
#include "marrow/asset/skeleton.hpp"

namespace marrow::asset {

class Mesh {
 public:
  const std::string& name() const noexcept { return name_; }
  std::span<const MeshVertexSkeletal> vertices() const noexcept { return vertices_; }
  std::span<const VertexTriangle> triangles() const noexcept { return triangles_; }
  // True when the mesh has bones (vertex bone indices and weights are meaningful).
  bool is_skeletal() const noexcept { return rig_ && rig_->bone_count() > 0; }

  Skeleton skeleton() const { return Skeleton(rig_); }
  Animations animations() const { return Animations(rig_); }
  const BoundingBox& bounding_box() const noexcept { return bounds_; }

  const SkeletalRig* rig() const noexcept { return rig_.get(); }
  // Bone transforms of the bind pose (node world * bind-pose inversion), one per bone.
  std::span<const glm::mat4> bind_palette() const noexcept { return bind_palette_; }
  // The vertices' bone indices widened for the skinning job (derived once, when built).
  std::span<const glm::u16vec4> skin_joints() const noexcept { return skin_joints_; }

 private:
  friend class MeshBuilder;
  friend class AssetLoader;
  friend struct MeshAssembly;

  std::string name_;
  std::vector<MeshVertexSkeletal> vertices_;
  std::vector<VertexTriangle> triangles_;
  std::shared_ptr<SkeletalRig> rig_;  // null: no skeletal data
  std::vector<glm::mat4> bind_palette_;
  std::vector<glm::u16vec4> skin_joints_;
  BoundingBox bounds_;
};

// Posed model-space positions (and normals, when given a span) of a mesh's vertices with a bone
// palette (linear blend skinning, four influences per vertex, T16). Sizes must match the
// vertices; a mesh without bones copies its vertices.
void pose_mesh_vertices(const Mesh& mesh, std::span<const glm::mat4> palette, std::span<glm::vec3> positions,
                        std::span<glm::vec3> normals = {});

}  // namespace marrow::asset
