#include "marrow/core/finite.hpp"

#include <cmath>

namespace marrow {

bool is_finite(float v) noexcept { return std::isfinite(v); }
bool is_finite(const glm::vec3& v) noexcept { return is_finite(v.x) && is_finite(v.y) && is_finite(v.z); }
bool is_finite(const glm::vec4& v) noexcept { return is_finite(glm::vec3(v)) && is_finite(v.w); }
bool is_finite(const glm::quat& q) noexcept { return is_finite(glm::vec4(q.x, q.y, q.z, q.w)); }
bool is_finite(const glm::mat4& m) noexcept {
  return is_finite(m[0]) && is_finite(m[1]) && is_finite(m[2]) && is_finite(m[3]);
}

}  // namespace marrow
