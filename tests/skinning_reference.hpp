#pragma once
// The skinning formulas in double precision, written from their definitions (skinning_job.hpp)
// and independent of the kernels: linear blending over any number of influences (S1), normals
// through the inverse transpose (S2), dual-quaternion blending with the scale/shear parts of
// Kavan et al. (S3, the polar decomposition found here by Higham's Newton iteration, not the
// library's). Joint indices past the palette use its last entry, as the job does.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace marrow::test {

struct SkinnedVertex {
  glm::dvec3 position{0.0}, normal{0.0};
  glm::dvec4 tangent{0.0};
};

// One vertex's rows of joints and weights.
struct InfluenceRow {
  std::span<const std::uint16_t> joints;
  std::span<const float> weights;
};

inline std::size_t clamp_joint(std::uint16_t j, std::size_t palette) { return std::min<std::size_t>(j, palette - 1); }

// S = sum_i w_i * palette[j_i].
inline glm::dmat4 linear_blend(std::span<const glm::mat4> palette, const InfluenceRow& row) {
  glm::dmat4 s(0.0);
  for (std::size_t i = 0; i < row.joints.size(); ++i) {
    s += glm::dmat4(palette[clamp_joint(row.joints[i], palette.size())]) * static_cast<double>(row.weights[i]);
  }
  return s;
}

// The 3x3 part's cofactor times sign(det): |det| * inverse(transpose(m)), finite when singular.
inline glm::dmat3 signed_cofactor(const glm::dmat3& m) {
  const glm::dmat3 cof(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]), glm::cross(m[0], m[1]));
  return glm::determinant(m) < 0.0 ? -cof : cof;
}

// position' = M (p, 1); normal' = N n with N = mat3(M) or its signed cofactor (S2); tangent'
// = (mat3(M) t.xyz, t.w); normals and tangents renormalised when asked (zero stays zero).
inline SkinnedVertex apply_matrix(const glm::dmat4& m, const glm::vec3& p, const glm::vec3& n, const glm::vec4& t,
                                  bool normalize, bool inverse_transpose) {
  const glm::dmat3 m3(m);
  const auto unit = [&](glm::dvec3 x) {
    const double len = glm::length(x);
    return normalize && len > 0 ? x / len : x;
  };
  SkinnedVertex out;
  out.position = glm::dvec3(m * glm::dvec4(glm::dvec3(p), 1.0));
  out.normal = unit((inverse_transpose ? signed_cofactor(m3) : m3) * glm::dvec3(n));
  out.tangent = glm::dvec4(unit(m3 * glm::dvec3(glm::vec3(t))), t.w);
  return out;
}

// The rotation of the polar decomposition a = R S (det a > 0) by Higham's Newton iteration with
// determinant scaling: R <- (g R + inverse(transpose(R)) / g) / 2, g = |det R|^(-1/3).
inline glm::dmat3 polar_rotation(const glm::dmat3& a) {
  glm::dmat3 r = a;
  for (int i = 0; i < 100; ++i) {
    const double g = std::cbrt(1.0 / std::abs(glm::determinant(r)));
    const glm::dmat3 next = 0.5 * (r * g + glm::transpose(glm::inverse(r)) / g);
    double change = 0.0;
    for (int c = 0; c < 3; ++c) change = std::max(change, glm::length(next[c] - r[c]));
    r = next;
    if (change < 1e-15) break;
  }
  return r;
}

struct DualQuaternionJoint {
  glm::dquat real{1, 0, 0, 0}, dual{0, 0, 0, 0};
  glm::dmat3 scale_shear{1.0};
};

// M = [A | t] -> R = polar rotation of sign(det A) A, S = R^T A, real = R, dual = (t, 0) real / 2.
inline DualQuaternionJoint dual_quaternion_joint(const glm::mat4& matrix) {
  const glm::dmat4 m(matrix);
  const glm::dmat3 a(m);
  const double sign = glm::determinant(a) < 0 ? -1.0 : 1.0;
  const glm::dmat3 r = polar_rotation(a * sign);
  DualQuaternionJoint j;
  j.real = glm::normalize(glm::quat_cast(r));
  j.dual = glm::dquat(0.0, m[3].x, m[3].y, m[3].z) * j.real * 0.5;
  j.scale_shear = glm::transpose(r) * a;
  return j;
}

// DQS: sum of hemisphere-aligned weighted dual quaternions, normalised by the real part's length;
// the scale/shear parts blended linearly (divided by the weights' sum) and applied first.
inline glm::dmat4 dual_quaternion_blend(std::span<const glm::mat4> palette, const InfluenceRow& row) {
  glm::dquat real(0, 0, 0, 0), dual(0, 0, 0, 0);
  glm::dmat3 scale(0.0);
  double weight_sum = 0.0;
  glm::dquat first{};
  for (std::size_t i = 0; i < row.joints.size(); ++i) {
    const DualQuaternionJoint j = dual_quaternion_joint(palette[clamp_joint(row.joints[i], palette.size())]);
    if (i == 0) first = j.real;
    const double w = static_cast<double>(row.weights[i]) * (glm::dot(j.real, first) < 0.0 ? -1.0 : 1.0);
    real = real + j.real * w;
    dual = dual + j.dual * w;
    scale += j.scale_shear * static_cast<double>(row.weights[i]);
    weight_sum += static_cast<double>(row.weights[i]);
  }
  const double len = glm::length(real);
  real = real / len;
  dual = dual / len;
  const glm::dmat3 rotation = glm::mat3_cast(real);
  const glm::dquat t = dual * glm::conjugate(real) * 2.0;
  glm::dmat4 m(rotation * (scale / weight_sum));
  m[3] = glm::dvec4(t.x, t.y, t.z, 1.0);
  return m;
}

// Component-wise |got - want| <= tol.
template <int L>
::testing::AssertionResult within(const glm::vec<L, float>& got, const glm::vec<L, double>& want, double tol) {
  for (int c = 0; c < L; ++c) {
    if (!(std::fabs(static_cast<double>(got[c]) - want[c]) <= tol)) {
      return ::testing::AssertionFailure() << "component " << c << ": " << got[c] << " vs " << want[c]
                                           << " (difference " << std::fabs(static_cast<double>(got[c]) - want[c]) << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace marrow::test
