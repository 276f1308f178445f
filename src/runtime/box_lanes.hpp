#pragma once
// Private: the point and box transforms of per-joint boxes (S5), on Float4 lanes x, y, z and an
// unused fourth. Matrices are glm's column-major mat4 as 16 floats.
#include "core/float4.hpp"

namespace marrow::detail {

// A point's coordinates, each in every lane: made once, moved by several matrices.
struct Splat {
  Float4 x, y, z;
};
inline Splat splat(float x, float y, float z) { return {Float4::splat(x), Float4::splat(y), Float4::splat(z)}; }
inline Splat splat(Float4 p) { return {p.lane<0>(), p.lane<1>(), p.lane<2>()}; }

// m * (x, y, z, 1).
inline Float4 transform_point(const float* m, const Splat& p) {
  return ((Float4::load(m) * p.x + Float4::load(m + 4) * p.y) + Float4::load(m + 8) * p.z) + Float4::load(m + 12);
}

// |m's 3x3| * (x, y, z): how far a box of half extent (x, y, z) reaches once moved by m.
inline Float4 transform_extent(const float* m, float x, float y, float z) {
  return (abs_of(Float4::load(m)) * Float4::splat(x) + abs_of(Float4::load(m + 4)) * Float4::splat(y)) +
         abs_of(Float4::load(m + 8)) * Float4::splat(z);
}

// [lo, hi] (four floats each) grown to hold [a, b].
inline void widen(float* lo, float* hi, Float4 a, Float4 b) {
  min_of(Float4::load(lo), a).store(lo);
  max_of(Float4::load(hi), b).store(hi);
}

}  // namespace marrow::detail
