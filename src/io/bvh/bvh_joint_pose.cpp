#include "bvh_joint_pose.hpp"

#include <cstddef>

namespace marrow::bvh {

JointPose joint_pose(const Joint& joint, const float* values) noexcept {
  JointPose pose;
  pose.translation = joint.offset;
  // Composed in double so that three 32-bit angles lose no more than the final rounding.
  glm::dquat rotation(1.0, 0.0, 0.0, 0.0);
  for (std::size_t i = 0; i < joint.channels.size(); ++i) {
    const double v = values[i];
    switch (joint.channels[i]) {
      case Channel::Xposition: pose.translation.x = values[i]; break;
      case Channel::Yposition: pose.translation.y = values[i]; break;
      case Channel::Zposition: pose.translation.z = values[i]; break;
      case Channel::Xrotation: rotation = rotation * glm::angleAxis(glm::radians(v), glm::dvec3(1, 0, 0)); break;
      case Channel::Yrotation: rotation = rotation * glm::angleAxis(glm::radians(v), glm::dvec3(0, 1, 0)); break;
      case Channel::Zrotation: rotation = rotation * glm::angleAxis(glm::radians(v), glm::dvec3(0, 0, 1)); break;
    }
  }
  pose.rotation = glm::quat(glm::normalize(rotation));
  return pose;
}

}  // namespace marrow::bvh
