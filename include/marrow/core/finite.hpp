#pragma once
// Finiteness checks used by every validator (NaN or Inf in keys and matrices is refused).
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace marrow {

bool is_finite(float v) noexcept;
bool is_finite(const glm::vec3& v) noexcept;
bool is_finite(const glm::vec4& v) noexcept;
bool is_finite(const glm::quat& q) noexcept;
bool is_finite(const glm::mat4& m) noexcept;

}  // namespace marrow
