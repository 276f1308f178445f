#pragma once
// Private: what one joint's channel values mean (docs/formats.md, "BVH").
//   translation: the OFFSET, with each component a position channel names replaced by its value
//                (the bandai-locomotion files put every joint's offset there, so adding would
//                double each bone);
//   rotation:    R = R_first * R_second * R_third over the rotation channels in file order
//                (column vectors, degrees), as three.js's BVHLoader and Blender read them.
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "bvh_document.hpp"

namespace marrow::bvh {

struct JointPose {
  glm::vec3 translation{0.f};
  glm::quat rotation{1.f, 0.f, 0.f, 0.f};
};

// values: this joint's channel values of one frame, joint.channels.size() of them.
JointPose joint_pose(const Joint& joint, const float* values) noexcept;

}  // namespace marrow::bvh
