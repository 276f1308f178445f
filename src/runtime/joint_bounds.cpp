#include "marrow/runtime/joint_bounds.hpp"

#include <cstring>
#include <limits>

#include <glm/common.hpp>

#include "box_lanes.hpp"
#include "marrow/core/bounding_box.hpp"

namespace marrow {

JointBoundsBuilder::JointBoundsBuilder(std::span<const glm::mat4> inverse_binds)
    : inverse_binds_(inverse_binds),
      lo_(4 * inverse_binds.size(), std::numeric_limits<float>::infinity()),
      hi_(4 * inverse_binds.size(), -std::numeric_limits<float>::infinity()) {}

void JointBoundsBuilder::add(std::uint32_t joint, const glm::vec3& vertex) noexcept {
  if (joint >= inverse_binds_.size()) return;
  const detail::Lanes p = detail::transform_point(&inverse_binds_[joint][0][0], vertex.x, vertex.y, vertex.z);
  detail::widen(&lo_[4 * joint], &hi_[4 * joint], p, p);
}

void JointBoundsBuilder::add(std::uint32_t joint, const glm::vec3& lo, const glm::vec3& hi) noexcept {
  if (joint >= inverse_binds_.size()) return;
  const glm::vec3 c = (lo + hi) * 0.5f, e = glm::max(hi - c, c - lo);
  const float* m = &inverse_binds_[joint][0][0];
  const detail::Lanes center = detail::transform_point(m, c.x, c.y, c.z);
  const detail::Lanes extent = detail::transform_extent(m, e.x, e.y, e.z);
  detail::widen(&lo_[4 * joint], &hi_[4 * joint], detail::sub(center, extent), detail::add(center, extent));
}

BoundingBox JointBoundsBuilder::add_vertices(std::span<const std::byte> bytes, const VertexLayout& layout,
                                             std::span<const std::uint32_t> joint_map) noexcept {
  if (layout.stride == 0 || bytes.size() < layout.stride) return {};
  const std::size_t n = bytes.size() / layout.stride;
  const std::size_t palette = inverse_binds_.size();
  const std::uint32_t position = layout.offset(VertexAttribute::Position);
  const std::uint32_t joints = layout.offset(VertexAttribute::Joints0);
  const std::uint32_t weights = layout.offset(VertexAttribute::Weights0);
  glm::vec3 lo, hi;
  std::memcpy(&lo, bytes.data() + position, sizeof lo);
  hi = lo;
  for (std::size_t v = 0; v < n; ++v) {
    const std::byte* row = bytes.data() + v * layout.stride;
    glm::vec3 p;
    std::memcpy(&p, row + position, sizeof p);
    lo = glm::min(lo, p);  // as bounding_box_of
    hi = glm::max(hi, p);
    for (std::uint32_t i = 0; i < layout.influences; ++i) {
      std::uint16_t joint;
      float weight;
      std::memcpy(&joint, row + joints + 2 * i, sizeof joint);
      std::memcpy(&weight, row + weights + 4 * i, sizeof weight);
      if (weight == 0.f) continue;
      std::size_t j = joint;
      if (!joint_map.empty()) j = joint < joint_map.size() ? joint_map[joint] : palette;
      if (j >= palette) continue;
      const detail::Lanes q = detail::transform_point(&inverse_binds_[j][0][0], p.x, p.y, p.z);
      detail::widen(&lo_[4 * j], &hi_[4 * j], q, q);
    }
  }
  BoundingBox box;
  box.extend(lo);
  box.extend(hi);
  return box;
}

JointBounds JointBoundsBuilder::finish() const {
  JointBounds out;
  out.joint_count = inverse_binds_.size();
  for (std::size_t j = 0; j < inverse_binds_.size(); ++j) {
    const glm::vec3 lo(lo_[4 * j], lo_[4 * j + 1], lo_[4 * j + 2]), hi(hi_[4 * j], hi_[4 * j + 1], hi_[4 * j + 2]);
    if (!(lo.x <= hi.x)) continue;  // influences nothing
    out.joints.push_back(static_cast<std::uint32_t>(j));
    const glm::vec3 c = (lo + hi) * 0.5f;
    out.centers.push_back(c);
    out.extents.push_back(glm::max(hi - c, c - lo));  // reaches both ends despite rounding
  }
  return out;
}

}  // namespace marrow
