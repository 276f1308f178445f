#pragma once
// Private: the 3x3 block of T * R * S, column by column, from a quaternion (x, y, z, w) and a
// scale. A template over float and Float4, shared by compose_trs and the track sampler's 4-lane
// kernel so there is one formula.
#include "float4.hpp"

namespace marrow::detail {

template <class V>
MARROW_INLINE void rotation_scale_columns(V x, V y, V z, V w, V sx, V sy, V sz, V m[9]) {
  const V xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
  const V wx = w * x, wy = w * y, wz = w * z;
  const V one = constant<V>(1.f), two = constant<V>(2.f);
  m[0] = (one - two * (yy + zz)) * sx;
  m[1] = two * (xy + wz) * sx;
  m[2] = two * (xz - wy) * sx;
  m[3] = two * (xy - wz) * sy;
  m[4] = (one - two * (xx + zz)) * sy;
  m[5] = two * (yz + wx) * sy;
  m[6] = two * (xz + wy) * sz;
  m[7] = two * (yz - wx) * sz;
  m[8] = (one - two * (xx + yy)) * sz;
}

}  // namespace marrow::detail
