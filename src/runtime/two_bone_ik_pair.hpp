#pragma once
// Private: TwoBoneIkJob's solve for the usual geometry, two chains at once in the two double
// lanes of SSE2 (every x86-64 processor has them, so nothing is chosen at run time). A
// character's legs are solved together in about the time of one: the solve is a chain of
// square roots and divisions, and two chains share each instruction.
//
// The geometry is two_bone_ik_job.hpp's, step for step. A lane whose geometry needs one of the
// general solve's special cases is left to it (two_bone_ik_job.cpp): a zero chain, a target on
// the start joint, a bend direction that must come from the hinge or the start's axes, a
// shortest arc near a half turn, a matrix column that vanishes. A job gives the same results
// alone or paired: each lane computes only from its own job.
#include <algorithm>
#include <cmath>

#include "marrow/runtime/two_bone_ik_job.hpp"

namespace marrow::detail {

// A direction shorter than this fraction of the length it is measured against is treated as
// undefined (float positions carry noise of about 1e-7 of the chain).
constexpr double kTwoBoneOnLine = 1e-5;
// The end lands within this fraction of the chain length of the target: `reached`.
constexpr double kTwoBoneReachTolerance = 1e-5;
// A weight-1 chain whose exact end misses the target by a gap this fraction of the chain length
// inside or beyond the tolerance gets `reached` without measuring: the float rounding of the
// written corrections moves the end by well under it (two_bone_ik_pair.cpp).
constexpr double kTwoBoneReachMargin = 4e-6;

// The reach along S -> T: |T - S| softened beyond soften * (a + b) (two_bone_ik_job.hpp), then
// clamped to what the bones can span.
inline double two_bone_reach(double distance, double a, double b, double soften) {
  const double chain = a + b;
  double d = distance;
  const double soft_start = soften * chain, soft_span = chain - soft_start;
  if (soft_span > 0.0 && d > soft_start) d = chain - soft_span * std::exp(-(d - soft_start) / soft_span);
  return std::clamp(d, std::fabs(a - b), chain);
}

// Solves each of first and second (both validated) whose geometry is usual, writing its
// outputs. Returns the lanes left to the general solve: bit 0 first, bit 1 second. Never
// writes a lane it leaves.
unsigned solve_two_bone_ik_pair(const TwoBoneIkJob& first, const TwoBoneIkJob& second) noexcept;

}  // namespace marrow::detail
