#pragma once
// Spherical interpolation of unit quaternions along the shorter arc (glTF 2.0, Appendix C).
#include <glm/gtc/quaternion.hpp>

namespace marrow {

// q(p) for p in [0, 1]: p = 0 gives a, p = 1 gives b or -b (the same rotation), in between the
// rotation at constant angular speed along the shorter arc (true slerp, to about 3e-7 rad; a
// normalised lerp only below 1.4e-3 rad, where the two agree to float precision). The result
// is a unit quaternion.
glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float p);

// slerp_shortest between two keys that stay, in two parts: the arc between a and b, made once
// (theta = acos of |dot| of the normalised keys; sign -1 when b is taken as -b, the shorter way;
// linear below ~1.4e-3 rad), and at p in [0, 1] the direction wa a + wb (sign b), a positive
// multiple of slerp_shortest(a, b, p) with the same weights, its length left unset (for what
// only needs the direction: an angle of it).
struct SlerpArc {
  float theta = 0.f;
  float sign = 1.f;
  bool linear = true;
};
SlerpArc slerp_arc(const glm::quat& a, const glm::quat& b);
glm::quat slerp_direction(const glm::quat& a, const glm::quat& b, const SlerpArc& arc, float p);

}  // namespace marrow
