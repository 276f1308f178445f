#pragma once
// IK on an Animator's pose (K1, K2): chains set up once by node name, their targets set every
// frame in model (scene) space. Animator::update() runs them after the pose is composed and
// before the palettes are formed, so skinning sees the corrected pose.
//
//   const std::size_t leg = animator.add_two_bone_ik("LeftUpLeg", "LeftLeg", "LeftFoot");
//   animator.two_bone_ik(leg).target = foot_on_ground;            // every frame
//   animator.update(dt);
#include <optional>

#include <glm/vec3.hpp>

namespace marrow {

struct TwoBoneIkChain {
  int start = -1, mid = -1, end = -1;  // scene nodes: start -> mid -> end, parent to child
  glm::vec3 target{0.f};               // model space
  std::optional<glm::vec3> pole;       // model-space point the mid joint bends towards
  float weight = 0.f;                  // [0, 1]; 0 (the default) leaves the pose alone
  float soften = 1.f;                  // (0, 1]
  bool reached = false;                // set by update(): the end reached the target
};

struct AimIkChain {
  int node = -1;                       // the scene node that aims
  glm::vec3 target{0.f};               // model space
  glm::vec3 forward{0.f, 0.f, 1.f};    // node space, unit
  glm::vec3 offset{0.f};               // node space
  glm::vec3 up{0.f, 1.f, 0.f};         // node space, unit
  glm::vec3 pole{0.f, 1.f, 0.f};       // model-space direction
  float weight = 0.f;                  // [0, 1]; 0 leaves the pose alone
  bool reached = false;
};

}  // namespace marrow
