#pragma once
// Per-joint boxes for per-frame bounds (S5): for each joint of a skin, the box in the joint's
// own space (inverse_bind * vertex) around every vertex it influences with a nonzero weight,
// made once at load (JointBoundsBuilder, offline/joint_bounds_builder.hpp). SkinnedBoundsJob
// moves them with the joints each frame.
//
// Joints that influence no vertex are left out of `joints` (so the job never visits them);
// centers[k] and extents[k] belong to joint joints[k].
//
// Immutable once made: shared by every instance of a model.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace marrow {

struct JointBounds {
  std::size_t joint_count = 0;         // the palette size these boxes were made for
  std::vector<std::uint32_t> joints;   // the joints that influence some vertex, ascending
  std::vector<glm::vec3> centers;      // per entry of joints: box centre, joint space
  std::vector<glm::vec3> extents;      // per entry of joints: half extent, joint space

  bool operator==(const JointBounds&) const = default;
};

}  // namespace marrow
