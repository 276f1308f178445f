#pragma once
// The inputs of the S2 "uniform palettes keep their bits" check (skinning_test.cpp): a palette
// of rotations with uniform scales (one of them mirrored) and a small mesh, made from integers
// alone (no std distributions, whose results the standard leaves open), so that the same inputs
// come out on any platform. tests/data/skinning/uniform_golden.bin holds what the kernels of
// commit cba4c65 (before S1-S3: the same kernels as 681bf30) wrote for them: per SIMD level (sse2, avx2, avx512), per
// normalize (false, true), kGoldenVertices x (position xyz, normal xyz, tangent xyzw) floats.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace marrow::test {

inline constexpr std::size_t kGoldenVertices = 37;
inline constexpr std::size_t kGoldenJoints = 9;

struct GoldenInput {
  std::vector<glm::mat4> palette;
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> tangents;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
};

class IntegerRandom {
 public:
  explicit IntegerRandom(std::uint32_t seed) : state_(seed) {}
  std::uint32_t next() {  // xorshift32
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  // A float in [lo, hi) from 24 random bits (exact in float; the affine map rounds the same way
  // everywhere: IEEE arithmetic on floats).
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() >> 8) * 0x1p-24f; }

 private:
  std::uint32_t state_;
};

// (x, y, z) with z drawn first, then y, then x: the order GCC happened to evaluate the three
// arguments of vec3(r.uniform(..), r.uniform(..), r.uniform(..)) when the golden file was
// written. That order is unspecified (clang goes left to right), so it is spelled out here.
inline glm::vec3 xyz_drawn_z_first(IntegerRandom& r, float x_lo, float x_hi, float y_lo, float y_hi, float z_lo,
                                   float z_hi) {
  const float z = r.uniform(z_lo, z_hi);
  const float y = r.uniform(y_lo, y_hi);
  const float x = r.uniform(x_lo, x_hi);
  return {x, y, z};
}

inline GoldenInput golden_input() {
  IntegerRandom r(0x5eed2024u);
  GoldenInput in;
  for (std::size_t j = 0; j < kGoldenJoints; ++j) {
    const float qx = r.uniform(-1.f, 1.f), qy = r.uniform(-1.f, 1.f), qz = r.uniform(-1.f, 1.f);
    const float qw = r.uniform(-1.f, 1.f) + 0.01f;
    const float len = std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    const glm::quat q(qw / len, qx / len, qy / len, qz / len);
    const float s = r.uniform(0.5f, 2.f);
    glm::mat4 m = glm::mat4_cast(q);
    for (int c = 0; c < 3; ++c) m[c] *= (j == 3 && c == 0) ? -s : s;  // joint 3 mirrors its x axis
    m[3] = glm::vec4(xyz_drawn_z_first(r, -1.f, 1.f, -1.f, 1.f, -1.f, 1.f), 1.f);
    in.palette.push_back(m);
  }
  for (std::size_t v = 0; v < kGoldenVertices; ++v) {
    in.positions.push_back(xyz_drawn_z_first(r, -1.f, 1.f, -1.f, 1.f, -1.f, 1.f));
    const glm::vec3 n = xyz_drawn_z_first(r, -1.f, 1.f, -1.f, 1.f, 1.f, 2.f);
    in.normals.push_back(n / std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z));
    const glm::vec3 t = xyz_drawn_z_first(r, 1.f, 2.f, -1.f, 1.f, -1.f, 1.f);
    in.tangents.emplace_back(t / std::sqrt(t.x * t.x + t.y * t.y + t.z * t.z), v % 2 ? 1.f : -1.f);
    glm::u16vec4 j;
    glm::vec4 w;
    for (int k = 0; k < 4; ++k) {
      j[k] = static_cast<std::uint16_t>(r.next() % kGoldenJoints);
      w[k] = r.uniform(0.f, 1.f);
    }
    in.joints.push_back(j);
    in.weights.push_back(w / (w.x + w.y + w.z + w.w));
  }
  return in;
}

}  // namespace marrow::test
