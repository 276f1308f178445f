#include "object_space_error.hpp"

#include <algorithm>
#include <cmath>

namespace marrow::detail {

double largest_singular_value(const glm::dmat3& m) noexcept {
  const glm::dmat3 a = glm::transpose(m) * m;  // symmetric, positive semi-definite
  const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
  const double q = (a[0][0] + a[1][1] + a[2][2]) / 3;
  const double d0 = a[0][0] - q, d1 = a[1][1] - q, d2 = a[2][2] - q;
  const double p2 = d0 * d0 + d1 * d1 + d2 * d2 + 2 * off;
  double largest = q;
  if (p2 > 0) {
    // The eigenvalues are q + 2 p cos(phi + 2 pi k / 3) with B = (A - q I) / p, det(B) = 2 cos(3 phi).
    const double p = std::sqrt(p2 / 6);
    const glm::dmat3 b = (a - glm::dmat3(q)) / p;
    const double r = std::clamp(glm::determinant(b) / 2, -1.0, 1.0);
    largest = q + 2 * p * std::cos(std::acos(r) / 3);
  }
  // The closed form loses a few ulps; the Frobenius norm bounds it from above.
  const double frobenius = a[0][0] + a[1][1] + a[2][2];
  return std::sqrt(std::clamp(largest, 0.0, frobenius));
}

double displacement_bound(const glm::dmat4& a, const glm::dmat4& b, double distance) noexcept {
  const glm::dvec3 dt = glm::dvec3(b[3]) - glm::dvec3(a[3]);
  const glm::dmat3 d = glm::dmat3(b) - glm::dmat3(a);
  return std::sqrt(dt.x * dt.x + dt.y * dt.y + dt.z * dt.z) + distance * largest_singular_value(d);
}

}  // namespace marrow::detail
