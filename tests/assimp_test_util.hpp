#pragma once
// Helpers of the Assimp tests (assimp_assets_test.cpp, assimp_import_test.cpp,
// assimp_parity_test.cpp): a skip when the Collada and FBX assets are absent, and posed vertices
// and boxes of a model.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/bounding_box.hpp"
#include "marrow/model/animator.hpp"
#include "shared_assets.hpp"

namespace marrow::test {

#define SKIP_WITHOUT_ASSETS()                                                                                      \
  if (!std::filesystem::is_directory(test::kAssets / "dae") ||                                                     \
      !std::filesystem::is_directory(test::kAssets / "fbx")) {                                                     \
    GTEST_SKIP() << "shared assets not found at " << test::kAssets << " (../shared/assets is not present)";        \
  }

inline std::vector<glm::vec3> posed(Animator& animator, std::size_t mesh) {
  const ModelMeshPart& part = animator.model().meshes[mesh].parts[0];
  std::vector<glm::vec3> out(part.vertex_count());
  animator.pose_part(mesh, 0, out);
  return out;
}

inline BoundingBox box_of_all_meshes(Animator& animator) {
  BoundingBox box;
  for (std::size_t m = 0; m < animator.model().meshes.size(); ++m) {
    for (const glm::vec3& p : posed(animator, m)) box.extend(p);
  }
  return box;
}

inline double diagonal(const BoundingBox& box) { return static_cast<double>(glm::length(box.size())); }

}  // namespace marrow::test
