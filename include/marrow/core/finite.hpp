#pragma once
// Finiteness checks used by every validator (NaN or Inf in keys and matrices is refused).
// Inline and branch-free: validators run them over every key of every clip.
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <span>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace marrow {

// x - x is 0 for every finite x and NaN for NaN and +-Inf.
inline bool is_finite(float v) noexcept { return v - v == 0.f; }
inline bool is_finite(const glm::vec3& v) noexcept { return (v.x - v.x) + (v.y - v.y) + (v.z - v.z) == 0.f; }
inline bool is_finite(const glm::vec4& v) noexcept {
  return (v.x - v.x) + (v.y - v.y) + (v.z - v.z) + (v.w - v.w) == 0.f;
}
inline bool is_finite(const glm::quat& q) noexcept { return is_finite(glm::vec4(q.x, q.y, q.z, q.w)); }
// Whole arrays (vertex attributes): an exponent of all ones is NaN or Inf. Integer ops so that
// the compiler vectorises the loop (a float sum would have to keep its order).
inline bool all_finite(std::span<const float> values) noexcept {
  std::uint32_t bad = 0;
  for (float v : values) bad |= static_cast<std::uint32_t>((std::bit_cast<std::uint32_t>(v) & 0x7f800000u) == 0x7f800000u);
  return bad == 0;
}

// A matrix as its 16 floats, the same test (four vector compares, not 32 dependent scalar
// operations: validators check matrices every frame).
inline bool is_finite(const glm::mat4& m) noexcept { return all_finite(std::span<const float>(&m[0][0], 16)); }

// One component of a cubic Hermite segment, h00 a + h10 (dt m0) + h01 b + h11 (dt m1): every
// basis function is within [-1, 1] on [0, 1], so when this sum fits in a float, so do the
// segment's samples and each of their terms. Importers refuse the segments that do not.
inline bool hermite_fits_float(double a, double b, double dt_m0, double dt_m1) noexcept {
  return std::fabs(a) + std::fabs(b) + std::fabs(dt_m0) + std::fabs(dt_m1) <= static_cast<double>(FLT_MAX);
}

}  // namespace marrow
