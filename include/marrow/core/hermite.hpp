#pragma once
// glTF's cubic spline segment (its Appendix C), the one home of the Hermite basis: between keys
// a and b, dt apart, with out-tangent m0 of a and in-tangent m1 of b, at s in [0, 1]:
//   v(s) = h00(s) a + h10(s) dt m0 + h01(s) b + h11(s) dt m1
//   h00 = 2s^3 - 3s^2 + 1, h10 = s^3 - 2s^2 + s, h01 = -2s^3 + 3s^2, h11 = s^3 - s^2
// In double: glTF channels and morph weight tracks both evaluate it per component.
namespace marrow {

struct HermiteBasis {
  double h00, h10, h01, h11;
};

inline HermiteBasis hermite_basis(double s) noexcept {
  const double s2 = s * s, s3 = s2 * s;
  return {2 * s3 - 3 * s2 + 1, s3 - 2 * s2 + s, -2 * s3 + 3 * s2, s3 - s2};
}

inline double hermite(const HermiteBasis& h, double a, double m0, double b, double m1, double dt) noexcept {
  return h.h00 * a + h.h10 * dt * m0 + h.h01 * b + h.h11 * dt * m1;
}

}  // namespace marrow
