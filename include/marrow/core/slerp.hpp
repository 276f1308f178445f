#pragma once
// Spherical interpolation of unit quaternions along the shorter arc (glTF 2.0, Appendix C).
#include <glm/gtc/quaternion.hpp>

namespace marrow {

// q(p) for p in [0, 1]: p = 0 gives a, p = 1 gives b or -b (the same rotation). When the two
// are nearly parallel (|dot| > 0.9995) a normalised lerp is used, where slerp loses precision.
glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float p);

}  // namespace marrow
