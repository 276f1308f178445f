#include "marrow/asset/mesh.hpp"

#include <stdexcept>
#include <cstddef>
#include <string>

#include "marrow/runtime/skinning_job.hpp"

namespace marrow::asset {

void pose_mesh_vertices(const Mesh& mesh, std::span<const glm::mat4> palette, std::span<glm::vec3> positions,
                        std::span<glm::vec3> normals) {
  const std::span<const MeshVertexSkeletal> v = mesh.vertices();
  if (positions.size() != v.size() || (!normals.empty() && normals.size() != v.size())) {
    throw std::invalid_argument("pose_mesh_vertices: " + std::to_string(positions.size()) + " positions for " +
                                std::to_string(v.size()) + " vertices");
  }
  if (!mesh.is_skeletal()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      positions[i] = v[i].location;
      if (!normals.empty()) normals[i] = v[i].normal;
    }
    return;
  }
  // The vertex structs are read through strided views; nothing is allocated.
  const auto* base = reinterpret_cast<const std::byte*>(v.data());
  const std::size_t stride = sizeof(MeshVertexSkeletal);
  SkinningJob job;
  job.palette = palette;
  job.joints = mesh.skin_joints();
  job.weights = StridedSpan<const glm::vec4>(base + offsetof(MeshVertexSkeletal, bone_weights), v.size(), stride);
  job.in_positions = StridedSpan<const glm::vec3>(base + offsetof(MeshVertexSkeletal, location), v.size(), stride);
  job.out_positions = positions;
  if (!normals.empty()) {
    job.in_normals = StridedSpan<const glm::vec3>(base + offsetof(MeshVertexSkeletal, normal), v.size(), stride);
    job.out_normals = normals;
  }
  if (!job.run()) job.run_or_throw();  // sizes checked above: never refused
}

}  // namespace marrow::asset
