#include "marrow/render/animated_bounds.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "marrow/model/animator.hpp"
#include "marrow/model/skeleton_bones.hpp"
#include "marrow/render/frame_times.hpp"

namespace marrow::render {

namespace {

void extend_with_pose(Animator& animator, bool vertices, const std::vector<std::uint8_t>& skeleton,
                      std::vector<glm::vec3>& scratch, BoundingBox& box) {
  const Model& model = animator.model();
  if (!vertices) {
    // The skeleton's joints, not the cameras and lights beside it (skeleton_bones.hpp).
    const auto worlds = animator.absolute_bone_transforms();
    for (std::size_t b = 1; b < worlds.size(); ++b) {
      if (skeleton[b] != 0) box.extend(glm::vec3(worlds[b][3]));
    }
    return;
  }
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
      scratch.resize(model.meshes[m].parts[p].vertex_count());
      animator.pose_part(m, p, scratch);
      for (const glm::vec3& v : scratch) box.extend(v);
    }
  }
}

}  // namespace

BoundingBox animated_bounds(const Model& model, int samples_per_clip) {
  if (samples_per_clip < 1) {
    throw std::invalid_argument("animated_bounds: samples_per_clip " + std::to_string(samples_per_clip) + " must be at least 1");
  }
  Animator animator(model);
  bool vertices = false;
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) vertices = vertices || part.vertex_count() > 0;
  }
  std::vector<glm::vec3> scratch;
  const std::vector<std::uint8_t> skeleton = skeleton_bones(model);
  BoundingBox box;
  extend_with_pose(animator, vertices, skeleton, scratch, box);
  for (std::size_t a = 0; a < model.animations.size(); ++a) {
    animator.play(static_cast<int>(a));
    const Ticks duration = model.animations[a].duration;
    for (int k = 0; k <= samples_per_clip; ++k) {
      animator.update(spread_frame_time(duration, k, samples_per_clip + 1), false, false);
      extend_with_pose(animator, vertices, skeleton, scratch, box);
    }
  }
  return box;
}

}  // namespace marrow::render
