#pragma once
// Spherical interpolation of unit quaternions along the shorter arc (glTF 2.0, Appendix C).
#include <glm/gtc/quaternion.hpp>

namespace marrow {

// q(p) for p in [0, 1]: p = 0 gives a, p = 1 gives b or -b (the same rotation), in between the
// rotation at constant angular speed along the shorter arc (true slerp, to about 3e-7 rad; a
// normalised lerp only below 1.4e-3 rad, where the two agree to float precision). The result
// is a unit quaternion.
glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float p);

}  // namespace marrow
