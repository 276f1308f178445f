#include "marrow/model/loaded_pose_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include <glm/gtc/type_precision.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/runtime/skinning_job.hpp"

namespace marrow {

namespace {

bool is_identity(const glm::mat4& m) noexcept {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (std::fabs(m[c][r] - (c == r ? 1.f : 0.f)) > 1e-6f) return false;
    }
  }
  return true;
}

}  // namespace

void compute_loaded_pose_bounds(Model& model) {
  std::vector<glm::vec3> points, posed;
  std::vector<SkinDualQuaternion> dual_quaternions;
  std::vector<glm::mat4> scale_shear;
  for (ModelMesh& mesh : model.meshes) {
    points.clear();
    for (const ModelMeshPart& part : mesh.parts) {
      const std::size_t n = part.vertex_count();
      const auto positions = attribute_view<glm::vec3>(part.vertex_bytes, part.layout, VertexAttribute::Position);
      const auto palette = part.skinned_material ? part.skinned_material->bone_transforms() : std::span<const glm::mat4>();
      // A bind palette of identities (inverse binds that exactly undo the bind pose, the common
      // case) leaves the vertices where they are: skip the skinning pass.
      if (mesh.skin >= 0 && part.skinned_material && !std::all_of(palette.begin(), palette.end(), is_identity)) {
        posed.resize(n);
        SkinningJob job;
        job.palette = palette;
        job.influences = part.layout.influences;
        job.joints = attribute_view<glm::u16vec4>(part.vertex_bytes, part.layout, VertexAttribute::Joints0);
        job.weights = attribute_view<glm::vec4>(part.vertex_bytes, part.layout, VertexAttribute::Weights0);
        if (part.skinning == SkinningMode::DualQuaternion) {  // as the Animator poses it (S3)
          dual_quaternions.resize(palette.size());
          scale_shear.resize(palette.size());
          DualQuaternionPaletteJob{palette, dual_quaternions, scale_shear}.run();
          job.mode = SkinningMode::DualQuaternion;
          job.dual_quaternions = dual_quaternions;
          job.scale_shear = scale_shear;
        }
        job.in_positions = positions;
        job.out_positions = std::span<glm::vec3>(posed);
        job.run();
        points.insert(points.end(), posed.begin(), posed.end());
      } else {
        const std::size_t first = points.size();
        points.resize(first + n);
        for (std::size_t v = 0; v < n; ++v) points[first + v] = positions.load(v);
      }
    }
    mesh.bounding_sphere = bounding_sphere_of(points);
  }
}

}  // namespace marrow
