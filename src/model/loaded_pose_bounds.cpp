#include "marrow/model/loaded_pose_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/type_precision.hpp>

#include "marrow/core/strided_span.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/model/frame_bounds.hpp"
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

bool posed_by_palette(const ModelMesh& mesh, const ModelMeshPart& part) {
  if (mesh.skin < 0 || !part.skinned_material) return false;
  const auto palette = part.skinned_material->bone_transforms();
  return !std::all_of(palette.begin(), palette.end(), is_identity);
}

// The sphere of bounding_sphere_of (the box's centre, the farthest point's distance) over every
// part's vertices, read where they are: only parts a bind palette moves are posed into a scratch
// buffer (sized once per mesh), nothing else is copied. boxes_known: every local_bounds was just
// made by compute_frame_bounds, which for a mesh drawn as stored is the box this would make.
void loaded_pose_spheres(Model& model, bool boxes_known) {
  std::vector<glm::vec3> posed;
  std::vector<StridedSpan<const glm::vec3>> points;
  std::vector<SkinDualQuaternion> dual_quaternions;
  std::vector<glm::mat4> scale_shear;
  for (ModelMesh& mesh : model.meshes) {
    std::size_t posed_count = 0;
    for (const ModelMeshPart& part : mesh.parts) posed_count += posed_by_palette(mesh, part) ? part.vertex_count() : 0;
    posed.resize(posed_count);
    points.clear();
    std::size_t at = 0;
    for (const ModelMeshPart& part : mesh.parts) {
      const auto positions = attribute_view<glm::vec3>(part.vertex_bytes, part.layout, VertexAttribute::Position);
      // A bind palette of identities (inverse binds that exactly undo the bind pose, the common
      // case) leaves the vertices where they are: no skinning pass.
      if (!posed_by_palette(mesh, part)) {
        points.push_back(positions);
        continue;
      }
      const std::span<glm::vec3> out = std::span<glm::vec3>(posed).subspan(at, part.vertex_count());
      at += out.size();
      const auto palette = part.skinned_material->bone_transforms();
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
      job.out_positions = out;
      job.run();
      points.push_back(StridedSpan<const glm::vec3>(std::span<const glm::vec3>(out)));
    }
    // Drawn as stored: no morph targets (local_bounds covers where they reach) and nothing posed.
    const bool stored = posed_count == 0 && std::none_of(mesh.parts.begin(), mesh.parts.end(),
                                                         [](const ModelMeshPart& part) { return part.morph.has_value(); });
    BoundingBox box;
    if (boxes_known && stored) {
      box = mesh.local_bounds;
    } else {
      for (const StridedSpan<const glm::vec3>& part : points) box.extend(bounding_box_of(part));
    }
    mesh.bounding_sphere = {};
    if (box.empty) continue;
    const glm::vec3 center = box.center();
    float r2 = 0.f;
    for (const StridedSpan<const glm::vec3>& part : points) r2 = std::max(r2, farthest_squared_distance(part, center));
    mesh.bounding_sphere = BoundingSphere{center, std::sqrt(r2)};
  }
}

}  // namespace

void compute_loaded_pose_bounds(Model& model) { loaded_pose_spheres(model, false); }

void compute_import_bounds(Model& model) {
  compute_frame_bounds(model);
  loaded_pose_spheres(model, true);
}

}  // namespace marrow
