#pragma once
// Private: a bracket (the two keys around a time) as the one interpolation kernel reads it,
// and how two keys become one. Shared by the one sampler (track_sampler.cpp), the clip
// compiler (runtime_clip.cpp) and the sampling job, so all feed the kernel identically.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow::detail {

// One key's values: translation, rotation (x, y, z, w as stored), scale.
struct KeyValues {
  float t[3];
  float q[4];
  float s[3];
};

// The brackets of eight joints, structure of arrays: the kernel's input.
struct alignas(64) BracketBlock {
  float a[10][kPoseLanes];    // key k: translation xyz, rotation xyzw, scale xyz
  float b[10][kPoseLanes];    // key k + 1, rotation moved into a's hemisphere
  float cos_ab[kPoseLanes];   // cosine between the two rotations (1 for a hold)
  float len_a[kPoseLanes];    // quaternion lengths (1 for unit keys)
  float len_b[kPoseLanes];
};

// Two rotations as a bracket holds them: whether b is negated to lie in a's hemisphere (the
// shorter arc; q and -q are one rotation), the cosine between them and both lengths.
struct RotationPair {
  bool flip;
  float cosine, len_a, len_b;
};

inline RotationPair rotation_pair(const float* a, const float* b) noexcept {
  const float la2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
  const float lb2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
  float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const bool flip = dot < 0.f;
  if (flip) dot = -dot;
  const float la = std::sqrt(la2), lb = std::sqrt(lb2);
  const float denominator = la * lb;
  const float cosine = denominator > 1e-30f ? dot / denominator : 1.f;
  return {flip, cosine < 1.f ? cosine : 1.f, la, lb};
}

// Keys a and b (b = a for a hold) into lane `lane`.
inline void set_bracket(BracketBlock& block, std::size_t lane, const KeyValues& a, const KeyValues& b) noexcept {
  const RotationPair r = rotation_pair(a.q, b.q);
  for (int c = 0; c < 3; ++c) {
    block.a[c][lane] = a.t[c], block.b[c][lane] = b.t[c];
    block.a[7 + c][lane] = a.s[c], block.b[7 + c][lane] = b.s[c];
  }
  for (int c = 0; c < 4; ++c) block.a[3 + c][lane] = a.q[c], block.b[3 + c][lane] = r.flip ? -b.q[c] : b.q[c];
  block.cos_ab[lane] = r.cosine;
  block.len_a[lane] = r.len_a;
  block.len_b[lane] = r.len_b;
}

inline constexpr Ticks kMinTicks{std::numeric_limits<std::int64_t>::min()};
inline constexpr Ticks kMaxTicks{std::numeric_limits<std::int64_t>::max()};

// A block with no keys: zeros, cosine 1 (padding lanes never ask for a slerp).
inline BracketBlock empty_bracket_block() noexcept {
  BracketBlock b{};
  for (float& c : b.cos_ab) c = 1.f;
  return b;
}

}  // namespace marrow::detail
