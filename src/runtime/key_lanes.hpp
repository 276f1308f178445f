#pragma once
// Private: the interpolation kernel behind the one track sampler. Eight key pairs are blended at
// once in structure-of-arrays form (lerp T and S, shortest-arc slerp R, then T * R * S), as
// plain lane loops the compiler turns into SIMD. sample_track uses one lane, the player and
// rigid clips use all four; the arithmetic is the same either way.
#include <cstddef>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/keyframe.hpp"
#include "marrow/core/trs.hpp"

namespace marrow::detail {

// Eight lanes: two independent SIMD chains in flight (see Float8).
inline constexpr std::size_t kLanes = 8;

struct KeyLanes {
  alignas(32) float t0[3][kLanes], t1[3][kLanes];
  alignas(32) float q0[4][kLanes], q1[4][kLanes];  // x, y, z, w
  alignas(32) float s0[3][kLanes], s1[3][kLanes];
  // The blend factor is num / den, divided for all lanes at once; 0 / 1 = exactly key a (hold).
  alignas(32) float num[kLanes], den[kLanes];

  void load(std::size_t lane, const Keyframe& a, const Keyframe& b, float numerator, float denominator) {
    for (int c = 0; c < 3; ++c) {
      t0[c][lane] = a.translation[c];
      t1[c][lane] = b.translation[c];
      s0[c][lane] = a.scale[c];
      s1[c][lane] = b.scale[c];
    }
    q0[0][lane] = a.rotation.x, q0[1][lane] = a.rotation.y, q0[2][lane] = a.rotation.z, q0[3][lane] = a.rotation.w;
    q1[0][lane] = b.rotation.x, q1[1][lane] = b.rotation.y, q1[2][lane] = b.rotation.z, q1[3][lane] = b.rotation.w;
    num[lane] = numerator;
    den[lane] = denominator;
  }
  // Fills lanes [from, kLanes) with copies of lane 0 so a partial batch computes safely.
  void pad(std::size_t from);
};

struct TrsLanes {
  alignas(32) float t[3][kLanes];
  alignas(32) float q[4][kLanes];
  alignas(32) float s[3][kLanes];

  Trs lane(std::size_t i) const;
};

void interpolate(const KeyLanes& in, TrsLanes& out);

// Interpolates and writes *out[i] = T * R * S of lane i, for i < count.
void interpolate_compose(const KeyLanes& in, glm::mat4* const out[kLanes], std::size_t count);

}  // namespace marrow::detail
