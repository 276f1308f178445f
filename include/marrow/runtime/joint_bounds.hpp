#pragma once
// Per-joint boxes for per-frame bounds (S5): for each joint of a skin, the box in the joint's
// own space (inverse_bind * vertex) around every vertex it influences with a nonzero weight,
// made once at load. SkinnedBoundsJob moves them with the joints each frame.
//
// Joints that influence no vertex are left out of `joints` (so the job never visits them);
// centers[k] and extents[k] belong to joint joints[k].
//
// Immutable once made: shared by every instance of a model.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/common.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace marrow {

struct JointBounds {
  std::size_t joint_count = 0;         // the palette size these boxes were made for
  std::vector<std::uint32_t> joints;   // the joints that influence some vertex, ascending
  std::vector<glm::vec3> centers;      // per entry of joints: box centre, joint space
  std::vector<glm::vec3> extents;      // per entry of joints: half extent, joint space

  bool operator==(const JointBounds&) const = default;
};

// Collects the boxes: add() each (joint, vertex) influence, then finish(). The vertex is in the
// space the inverse binds map from (the mesh's bind space), and lands in the joint's space.
class JointBoundsBuilder {
 public:
  // inverse_binds: one per joint (the palette), kept by reference until finish().
  explicit JointBoundsBuilder(std::span<const glm::mat4> inverse_binds);

  // A vertex influenced by `joint` (joints outside the palette are ignored: validation refuses
  // them elsewhere).
  // (Inline: the load-time walk calls it once per influence.)
  void add(std::uint32_t joint, const glm::vec3& vertex) noexcept {
    if (joint >= inverse_binds_.size()) return;
    const glm::mat4& m = inverse_binds_[joint];
    const glm::vec4 p = m[0] * vertex.x + m[1] * vertex.y + m[2] * vertex.z + m[3];
    lo_[joint] = glm::min(lo_[joint], p);
    hi_[joint] = glm::max(hi_[joint], p);
  }
  // A vertex that may lie anywhere in the mesh-space box [lo, hi] (morph targets move it there).
  void add(std::uint32_t joint, const glm::vec3& lo, const glm::vec3& hi) noexcept;

  JointBounds finish() const;

 private:
  std::span<const glm::mat4> inverse_binds_;
  std::vector<glm::vec4> lo_, hi_;  // four lanes: the load-time walk stays in vector registers
};

}  // namespace marrow
