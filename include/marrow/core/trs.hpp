#pragma once
// Translation-rotation-scale transforms and their matrices (glm, column vectors: M = T * R * S).
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace marrow {

struct Trs {
  glm::vec3 translation{0.f};
  glm::quat rotation{1.f, 0.f, 0.f, 0.f};
  glm::vec3 scale{1.f};
};

// T * R * S. The rotation is used as given (a non-unit quaternion scales the result, as in glTF
// viewers); callers normalise where the data requires it.
glm::mat4 compose_trs(const glm::vec3& translation, const glm::quat& rotation, const glm::vec3& scale);
inline glm::mat4 compose_trs(const Trs& trs) { return compose_trs(trs.translation, trs.rotation, trs.scale); }

// Splits an affine matrix into T, R, S with M ~= T * R * S. Robust where naive code fails:
// a negative determinant becomes a negative x scale, a zero-length axis is rebuilt from the
// others (or the rotation falls back to identity), shear is dropped, and the rotation is
// always a unit quaternion with w >= 0.
Trs decompose_trs(const glm::mat4& m);

}  // namespace marrow
