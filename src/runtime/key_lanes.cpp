#include "key_lanes.hpp"

#include <cmath>

#include "../core/float4.hpp"
#include "../core/rotation_scale_columns.hpp"
#include "../core/slerp_weights.hpp"

namespace marrow::detail {

using Lanes = Float8;

void KeyLanes::pad(std::size_t from) {
  for (std::size_t l = from; l < kLanes; ++l) {
    for (int c = 0; c < 3; ++c) {
      t0[c][l] = t0[c][0], t1[c][l] = t1[c][0], s0[c][l] = s0[c][0], s1[c][l] = s1[c][0];
    }
    for (int c = 0; c < 4; ++c) q0[c][l] = q0[c][0], q1[c][l] = q1[c][0];
    num[l] = num[0];
    den[l] = den[0];
  }
}

Trs TrsLanes::lane(std::size_t i) const {
  return Trs{glm::vec3(t[0][i], t[1][i], t[2][i]), glm::quat(q[3][i], q[0][i], q[1][i], q[2][i]),
             glm::vec3(s[0][i], s[1][i], s[2][i])};
}

namespace {

struct TrsRegisters {
  Lanes t[3], q[4], s[3];
};

MARROW_INLINE TrsRegisters interpolate_registers(const KeyLanes& in) {
  TrsRegisters out;
  const Lanes p = Lanes::load(in.num) / Lanes::load(in.den);
  for (int c = 0; c < 3; ++c) {
    const Lanes t0 = Lanes::load(in.t0[c]), s0 = Lanes::load(in.s0[c]);
    out.t[c] = t0 + (Lanes::load(in.t1[c]) - t0) * p;
    out.s[c] = s0 + (Lanes::load(in.s1[c]) - s0) * p;
  }
  Lanes q0[4], q1[4];
  for (int c = 0; c < 4; ++c) q0[c] = Lanes::load(in.q0[c]), q1[c] = Lanes::load(in.q1[c]);
  // Slerp of the directions, length interpolated: for unit quaternions (valid glTF) the
  // plain slerp; for two keys of equal length r, the spec's slerp formula on the stored values
  // (what three.js computes), so a slightly non-unit file scales consistently between keys.
  const Lanes na2 = q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3];
  const Lanes nb2 = q1[0] * q1[0] + q1[1] * q1[1] + q1[2] * q1[2] + q1[3] * q1[3];
  const Lanes tiny = Lanes::splat(1e-30f);
  const Lanes dot = (q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3]) * rsqrt_of(max_of(na2 * nb2, tiny));
  // q and -q are one rotation: flip b's sign where the dot is negative (the shorter arc).
  const Lanes sign = dot & Lanes::splat(-0.f);
  Lanes wa, wb;
  slerp_weights(dot ^ sign, p, wa, wb);
  wb = wb ^ sign;
  Lanes r[4];
  for (int c = 0; c < 4; ++c) r[c] = wa * q0[c] + wb * q1[c];
  // Squared lengths are interpolated (exact when both keys have one length) to save square roots.
  const Lanes length2 = max_of(na2 + (nb2 - na2) * p, tiny);
  const Lanes n2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3];
  const Lanes scale = rsqrt_of(max_of(n2, tiny)) * (length2 * rsqrt_of(length2));
  // Exactly on a key (p = 0) the key's own rotation is returned, untouched.
  const Lanes on_key = p == Lanes::splat(0.f);
  for (int c = 0; c < 4; ++c) out.q[c] = select(on_key, q0[c], r[c] * scale);
  return out;
}

}  // namespace

void interpolate(const KeyLanes& in, TrsLanes& out) {
  const TrsRegisters r = interpolate_registers(in);
  for (int c = 0; c < 3; ++c) r.t[c].store(out.t[c]), r.s[c].store(out.s[c]);
  for (int c = 0; c < 4; ++c) r.q[c].store(out.q[c]);
}

MARROW_HOT_LOOP void interpolate_compose(const KeyLanes& in, glm::mat4* const out[kLanes], std::size_t count) {
  const TrsRegisters r = interpolate_registers(in);
  Lanes m4[9];
  rotation_scale_columns(r.q[0], r.q[1], r.q[2], r.q[3], r.s[0], r.s[1], r.s[2], m4);
  alignas(32) float m[12][kLanes];
  for (int i = 0; i < 9; ++i) m4[i].store(m[i]);
  for (int c = 0; c < 3; ++c) r.t[c].store(m[9 + c]);
  for (std::size_t l = 0; l < count; ++l) {
    glm::mat4& o = *out[l];
    o[0] = glm::vec4(m[0][l], m[1][l], m[2][l], 0.f);
    o[1] = glm::vec4(m[3][l], m[4][l], m[5][l], 0.f);
    o[2] = glm::vec4(m[6][l], m[7][l], m[8][l], 0.f);
    o[3] = glm::vec4(m[9][l], m[10][l], m[11][l], 1.f);
  }
}

}  // namespace marrow::detail
