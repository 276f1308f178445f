#pragma once
// Private: putting two keys into one lane of a bracket block, shared by the sampling job and
// the one sampler (track_sampler.cpp) so both feed the interpolation kernel identically.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"

namespace marrow::detail {

// Keys a and b (b = a for a hold) into lane `lane`: b's rotation moved into a's hemisphere (the
// shorter arc), the cosine between them and both quaternion lengths.
inline void set_bracket(BracketBlock& block, std::size_t lane, const KeyValues& a, KeyValues b) noexcept {
  const float la2 = a.q[0] * a.q[0] + a.q[1] * a.q[1] + a.q[2] * a.q[2] + a.q[3] * a.q[3];
  const float lb2 = b.q[0] * b.q[0] + b.q[1] * b.q[1] + b.q[2] * b.q[2] + b.q[3] * b.q[3];
  float dot = a.q[0] * b.q[0] + a.q[1] * b.q[1] + a.q[2] * b.q[2] + a.q[3] * b.q[3];
  if (dot < 0.f) {  // q and -q are one rotation
    for (float& c : b.q) c = -c;
    dot = -dot;
  }
  const float la = std::sqrt(la2), lb = std::sqrt(lb2);
  const float denominator = la * lb;
  const float cosine = denominator > 1e-30f ? dot / denominator : 1.f;
  for (int c = 0; c < 3; ++c) {
    block.a[c][lane] = a.t[c], block.b[c][lane] = b.t[c];
    block.a[7 + c][lane] = a.s[c], block.b[7 + c][lane] = b.s[c];
  }
  for (int c = 0; c < 4; ++c) block.a[3 + c][lane] = a.q[c], block.b[3 + c][lane] = b.q[c];
  block.cos_ab[lane] = cosine < 1.f ? cosine : 1.f;
  block.len_a[lane] = la;
  block.len_b[lane] = lb;
}

inline constexpr Ticks kMinTicks{std::numeric_limits<std::int64_t>::min()};
inline constexpr Ticks kMaxTicks{std::numeric_limits<std::int64_t>::max()};

// A block with no bracket: zero keys, cosine 1 (padding lanes never ask for a slerp), and an
// empty interval, so that every joint is refreshed before it is used.
inline BracketBlock empty_bracket_block() noexcept {
  BracketBlock b{};
  for (float& c : b.cos_ab) c = 1.f;
  for (Ticks& t : b.begin) t = kMaxTicks;
  for (Ticks& t : b.end) t = kMinTicks;
  return b;
}

}  // namespace marrow::detail
