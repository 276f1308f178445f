#pragma once
// One sampled local transform of one bone at one time (public contract, DESIGN.md).
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/ticks.hpp"

namespace marrow {

struct Keyframe {
  Ticks time{};
  glm::vec3 translation{0.f};
  glm::quat rotation{1, 0, 0, 0};
  glm::vec3 scale{1.f};
};

}  // namespace marrow
