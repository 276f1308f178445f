#pragma once
// Making a skin's per-joint boxes (JointBounds, joint_bounds.hpp) at load (S5): every importer's
// one walk over a skinned part's vertices, and the asset layer's per-mesh box (T14).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/bounding_box.hpp"
#include "marrow/core/vertex_layout.hpp"
#include "marrow/runtime/joint_bounds.hpp"

namespace marrow {

// Collects the boxes, then finish(). Vertices are in the space the inverse binds map from (the
// mesh's bind space) and land in each joint's space. Joints outside the palette are ignored
// (validation refuses them elsewhere).
class JointBoundsBuilder {
 public:
  // inverse_binds: one per joint (the palette), kept by reference until finish().
  explicit JointBoundsBuilder(std::span<const glm::mat4> inverse_binds);

  // A vertex influenced by `joint`.
  void add(std::uint32_t joint, const glm::vec3& vertex) noexcept;
  // A vertex that may lie anywhere in the mesh-space box [lo, hi] (morph targets move it there).
  void add(std::uint32_t joint, const glm::vec3& lo, const glm::vec3& hi) noexcept;
  // Every vertex of interleaved bytes: its position added to the joint of each of its
  // layout.influences (joint, weight) pairs whose weight is nonzero (S1: every set). The layout
  // must have Position, Joints0 and Weights0. joint_map: empty when JOINTS index the palette,
  // else the palette index of each JOINTS value (a split part's palette_joints, S4). One pass,
  // the load-time walk of every importer. Returns the box of every vertex's position (the
  // mesh's own box comes with the same pass over the bytes).
  BoundingBox add_vertices(std::span<const std::byte> bytes, const VertexLayout& layout,
                           std::span<const std::uint32_t> joint_map = {}) noexcept;

  JointBounds finish() const;

 private:
  std::span<const glm::mat4> inverse_binds_;
  std::vector<float> lo_, hi_;  // four floats per joint (x, y, z, unused): vector registers
};

}  // namespace marrow
