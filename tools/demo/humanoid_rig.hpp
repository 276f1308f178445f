#pragma once
// Synthetic humanoid rigs in Mixamo's layout (fixtures of the retargeting tests and benchmarks):
// a chosen number of spine bones, proportions, up axis and unit, random local rest frames (so
// that no two rigs share a bone's local axes), optionally Mixamo's four joints per finger and
// its end bones (65 joints in all, with three spine bones), and a random clip on every joint
// plus a moving hips.
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/model.hpp"

namespace marrow::demo {

struct HumanoidRigSpec {
  int spine_bones = 3;          // 2 or 3 between hips and neck
  float height = 1.f;           // scales every position
  float arm_length = 1.f;       // scales the arms' bones
  glm::quat placement{1.f, 0.f, 0.f, 0.f};  // the armature's rotation (e.g. Z-up)
  float unit = 1.f;             // the armature's scale (100: centimetres)
  unsigned seed = 1;            // the local rest frames
  bool extra_leaf = true;       // an unmapped "HeadTop_End" under the head
  bool fingers = false;         // LeftHandThumb1..4, ... and LeftToe_End: Mixamo's 65 joints
};

struct RigJoint {
  std::string name;
  std::string parent;
  glm::vec3 position;  // model space before placement: Y up, facing +Z, left +X
};

std::vector<RigJoint> humanoid_joints(const HumanoidRigSpec& spec);

// Node 0 "<root>", node 1 "Armature" (placement and unit), then the joints; each joint's local
// rest rotation is random and its translation puts it where the spec says.
Model humanoid_rig(const HumanoidRigSpec& spec);

// A rigid clip of `seconds` keyed `rate` times a second on every joint (random rotations within
// `max_angle` of rest) and on the hips' translation (a walk forward with a bob).
void add_random_clip(Model& model, const std::string& name, unsigned seed, float max_angle = 0.6f, double seconds = 1.0,
                     double rate = 10.0);

}  // namespace marrow::demo
