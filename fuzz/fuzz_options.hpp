#pragma once
// Shared by the fuzz targets: import limits small enough that no input can make a run slow or
// large (a refusal by limit is a correct answer, not a finding), and a bounded workout of an
// accepted model (every clip at a few times, every part posed), which is where an importer bug
// would surface as a crash or a sanitizer report.
#include <vector>

#include "marrow/io/import_options.hpp"
#include "marrow/model/animator.hpp"
#include "simd_choice.hpp"

namespace marrow::fuzz {

inline ImportOptions options() {
  ImportOptions o;
  o.limits.max_file_bytes = 8u << 20;
  o.limits.max_total_bytes = 64u << 20;
  o.limits.max_nodes = 10000;
  o.limits.max_accessor_elements = 1u << 20;
  o.limits.max_animation_keys = 200000;
  o.max_palette = 256;
  return o;
}

// Poses every part of the animator's current frame.
inline void pose_all(const Model& model, Animator& animator, std::vector<glm::vec3>& positions,
                     std::vector<glm::vec3>& normals) {
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
      const std::size_t n = model.meshes[m].parts[p].vertex_count();
      positions.resize(n);
      normals.resize(n);
      animator.pose_part(m, p, positions, normals);
    }
  }
}

// Plays up to 4 clips at 3 times each and poses every part, then once more with every part
// switched to the other skinning mode (S3); any exception other than the ones documented for
// valid models is a finding (it propagates and aborts the run).
inline void work_out(const Model& model) {
  use_simd_choice_of(model.nodes.size() + model.meshes.size());  // a kernel copy per input
  {
    Model other = model;
    for (ModelMesh& mesh : other.meshes) {
      for (ModelMeshPart& part : mesh.parts) {
        part.skinning = part.skinning == SkinningMode::Linear ? SkinningMode::DualQuaternion : SkinningMode::Linear;
      }
    }
    Animator animator(other);
    std::vector<glm::vec3> positions, normals;
    animator.play(other.animations.empty() ? -1 : 0);
    animator.update(ticks_from_seconds(0.37), false, true);
    pose_all(other, animator, positions, normals);
  }
  Animator animator(model);
  std::vector<glm::vec3> positions, normals;
  const int clips = static_cast<int>(std::min<std::size_t>(model.animations.size(), 4));
  for (int clip = -1; clip < clips; ++clip) {
    animator.play(clip);
    for (double t : {0.0, 0.37, 1e6}) {
      animator.update(ticks_from_seconds(t), false, true);
      animator.install_palettes();
      pose_all(model, animator, positions, normals);
    }
  }
}

}  // namespace marrow::fuzz
