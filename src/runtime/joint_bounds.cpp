#include "marrow/runtime/joint_bounds.hpp"

#include <limits>

#include <glm/common.hpp>

#include "marrow/core/bounding_box.hpp"

namespace marrow {

JointBoundsBuilder::JointBoundsBuilder(std::span<const glm::mat4> inverse_binds)
    : inverse_binds_(inverse_binds),
      lo_(inverse_binds.size(), glm::vec4(std::numeric_limits<float>::infinity())),
      hi_(inverse_binds.size(), glm::vec4(-std::numeric_limits<float>::infinity())) {}

void JointBoundsBuilder::add(std::uint32_t joint, const glm::vec3& lo, const glm::vec3& hi) noexcept {
  if (joint >= inverse_binds_.size()) return;
  const BoundingBox moved = transformed(BoundingBox{lo, hi, false}, inverse_binds_[joint]);
  lo_[joint] = glm::min(lo_[joint], glm::vec4(moved.min, 0.f));
  hi_[joint] = glm::max(hi_[joint], glm::vec4(moved.max, 0.f));
}

JointBounds JointBoundsBuilder::finish() const {
  JointBounds out;
  out.joint_count = inverse_binds_.size();
  for (std::size_t j = 0; j < lo_.size(); ++j) {
    if (!(lo_[j].x <= hi_[j].x)) continue;  // influences nothing
    out.joints.push_back(static_cast<std::uint32_t>(j));
    const glm::vec3 lo(lo_[j]), hi(hi_[j]);
    const glm::vec3 c = (lo + hi) * 0.5f;
    out.centers.push_back(c);
    out.extents.push_back(glm::max(hi - c, c - lo));  // reaches both ends despite rounding
  }
  return out;
}

}  // namespace marrow
