// The blending kernels (B2, B3), compiled once per instruction set (see simd/lanes.hpp for the
// rules of such a file). Included by blend_kernels_sse2.cpp, _avx2.cpp and _avx512.cpp.
//
// Per block of eight joints, in registers: the lane weights a_i = weight_i * mask_i of every
// normal layer and their total (first pass, which also finds each lane's first contributing
// rotation); then each source's values times w_i = a_i / max(total, threshold), its rotation
// signed into the first contributor's hemisphere (second pass); the rest pose with
// threshold - total where the total is short; then the rotation normalised and the additive
// layers applied in order. A lone source (one layer, or the rest pose alone) is kept bit for
// bit: its w is exactly 1 and its rotation is taken as it is. Without masks every lane has the
// same weights: the job computes them once and a shorter loop only accumulates.
#include <cstddef>

#include "blend_kernels.hpp"
#include "lanes.hpp"

namespace marrow::detail::MARROW_SIMD_NS {

namespace {

using simd::MARROW_SIMD_NS::F8;

// Below this squared length a quaternion sum has no direction left to normalise.
constexpr float kTinyNorm2 = 1e-30f;

// One block's normal blend in registers (the lanes of a BlendState).
struct Acc {
  F8 total, count, ref[4], t[3], s[3], r[4];
};

// One block of a pose in registers.
struct Pose8 {
  F8 t[3], q[4], s[3];
};

MARROW_LANES_INLINE F8 zeros() { return F8::splat(0.f); }
MARROW_LANES_INLINE F8 ones() { return F8::splat(1.f); }

// a = weight * mask for the eight lanes of block b. A mask holds joint_count weights, so the
// lanes of the last block past them read 0 (the job overwrites those lanes anyway).
MARROW_LANES_INLINE F8 lane_weights(const BlendLayerView& layer, std::size_t b, std::size_t joints) {
  F8 a = F8::splat(layer.weight);
  if (layer.mask != nullptr) {
    const std::size_t first = b * kPoseLanes;
    if (joints - first >= kPoseLanes) {
      a = a * F8::load(layer.mask + first);
    } else {
      alignas(32) float tail[kPoseLanes] = {};
      for (std::size_t l = 0; l < joints - first; ++l) tail[l] = layer.mask[first + l];
      a = a * F8::load(tail);
    }
  }
  return min_of(a, F8::splat(kMaxLaneWeight));
}

MARROW_LANES_INLINE Acc start(const TrsBlock& rest) {
  Acc acc;
  acc.total = acc.count = zeros();
  for (int c = 0; c < 3; ++c) acc.t[c] = acc.s[c] = zeros();
  for (int c = 0; c < 4; ++c) acc.r[c] = zeros(), acc.ref[c] = F8::load(rest.q[c]);
  return acc;
}

MARROW_LANES_INLINE Acc load_state(const BlendState& s) {
  Acc acc;
  acc.total = F8::load(s.total);
  acc.count = F8::load(s.count);
  for (int c = 0; c < 3; ++c) acc.t[c] = F8::load(s.t[c]), acc.s[c] = F8::load(s.s[c]);
  for (int c = 0; c < 4; ++c) acc.r[c] = F8::load(s.r[c]), acc.ref[c] = F8::load(s.ref[c]);
  return acc;
}

MARROW_LANES_INLINE void store_state(const Acc& acc, BlendState& s) {
  acc.total.store(s.total);
  acc.count.store(s.count);
  for (int c = 0; c < 3; ++c) acc.t[c].store(s.t[c]), acc.s[c].store(s.s[c]);
  for (int c = 0; c < 4; ++c) acc.r[c].store(s.r[c]), acc.ref[c].store(s.ref[c]);
}

MARROW_LANES_INLINE Pose8 load_pose(const TrsBlock& p) {
  Pose8 o;
  for (int c = 0; c < 3; ++c) o.t[c] = F8::load(p.t[c]), o.s[c] = F8::load(p.s[c]);
  for (int c = 0; c < 4; ++c) o.q[c] = F8::load(p.q[c]);
  return o;
}

MARROW_LANES_INLINE void store_pose(const Pose8& o, TrsBlock& p) {
  for (int c = 0; c < 3; ++c) o.t[c].store(p.t[c]), o.s[c].store(p.s[c]);
  for (int c = 0; c < 4; ++c) o.q[c].store(p.q[c]);
}

// First pass: the total of the a_i, the number of contributing layers, and each lane's first
// contributing rotation (the first layer with a_i > 0 where the total is still 0).
MARROW_LANES_INLINE void add_totals(Acc& acc, const BlendArgs& args, std::size_t b) {
  const F8 zero = zeros();
  for (std::size_t i = 0; i < args.layer_count; ++i) {
    const BlendLayerView& layer = args.layers[i];
    const F8 a = lane_weights(layer, b, args.joint_count);
    const F8 contributes = zero < a;
    const F8 first = contributes & (acc.total == zero);
    if (any(first)) {
      for (int c = 0; c < 4; ++c) acc.ref[c] = select(first, F8::load(layer.pose[b].q[c]), acc.ref[c]);
    }
    acc.total = acc.total + a;
    acc.count = acc.count + (contributes & ones());
  }
}

// w times p's T and S, and +-w times its rotation, the sign putting it in the hemisphere of
// acc.ref (the first contributor's rotation).
MARROW_LANES_INLINE void accumulate(Acc& acc, F8 w, const TrsBlock& p) {
  for (int c = 0; c < 3; ++c) {
    acc.t[c] = fma(w, F8::load(p.t[c]), acc.t[c]);
    acc.s[c] = fma(w, F8::load(p.s[c]), acc.s[c]);
  }
  F8 q[4];
  for (int c = 0; c < 4; ++c) q[c] = F8::load(p.q[c]);
  const F8 dot = fma(acc.ref[0], q[0], acc.ref[1] * q[1]) + fma(acc.ref[2], q[2], acc.ref[3] * q[3]);
  const F8 signed_w = w ^ ((dot < zeros()) & F8::splat(-0.f));
  for (int c = 0; c < 4; ++c) acc.r[c] = fma(signed_w, q[c], acc.r[c]);
}

// w = a / sum for a source of weight a (inv_sum = 1 / sum). A source that is the whole sum
// gets exactly 1 (a * (1 / a) need not be 1), so a lone source passes through bit for bit.
// The job computes the same in scalars for unmasked layers (blending_job.cpp).
MARROW_LANES_INLINE F8 normalised(F8 a, F8 sum, F8 inv_sum) { return select(a == sum, ones(), a * inv_sum); }

// Second pass (the totals complete).
MARROW_LANES_INLINE void add_sums(Acc& acc, const BlendArgs& args, std::size_t b) {
  const F8 sum = max_of(acc.total, F8::splat(args.threshold));
  const F8 inv_sum = ones() / sum;
  for (std::size_t i = 0; i < args.layer_count; ++i) {
    const BlendLayerView& layer = args.layers[i];
    accumulate(acc, normalised(lane_weights(layer, b, args.joint_count), sum, inv_sum), layer.pose[b]);
  }
}

// The rotation normalised; a lone source's as it is (bit for bit), and where the sum is too
// short to have a direction, the first contributor's (never NaN).
MARROW_LANES_INLINE void normalise_rotation(const Acc& acc, F8 lone, Pose8& o) {
  const F8 tiny = F8::splat(kTinyNorm2);
  for (int c = 0; c < 3; ++c) o.t[c] = acc.t[c], o.s[c] = acc.s[c];
  const F8 n2 = fma(acc.r[0], acc.r[0], acc.r[1] * acc.r[1]) + fma(acc.r[2], acc.r[2], acc.r[3] * acc.r[3]);
  const F8 inv = rsqrt_of(max_of(n2, tiny));
  const F8 keep = lone | (n2 < tiny);
  for (int c = 0; c < 4; ++c) o.q[c] = select(keep, acc.ref[c], acc.r[c] * inv);
}

// The rest pose where the total is below the threshold, then the rotation normalised.
MARROW_LANES_INLINE Pose8 finish_block(Acc& acc, const BlendArgs& args, std::size_t b) {
  const F8 zero = zeros(), one = ones();
  const F8 threshold = F8::splat(args.threshold);
  const F8 fill = max_of(threshold - acc.total, zero);
  const F8 fills = zero < fill;
  if (any(fills)) {
    const F8 sum = max_of(acc.total, threshold);
    accumulate(acc, normalised(fill, sum, one / sum), args.rest[b]);
    acc.count = acc.count + (fills & one);
  }
  Pose8 o;
  normalise_rotation(acc, acc.count == one, o);
  return o;
}

// Unmasked layers: every lane has the same weights, normalised by the job. The first source
// (layer 0, or the rest pose when there is none) has a positive weight everywhere: it starts
// the sums, and its rotation is the hemisphere's reference.
MARROW_LANES_INLINE Pose8 blend_uniform_block(const BlendArgs& args, std::size_t b) {
  const bool any_layer = args.layer_count > 0;
  const TrsBlock& first = any_layer ? args.layers[0].pose[b] : args.rest[b];
  if (args.lone) return load_pose(first);  // w = 1: the sums would be exactly its values
  const F8 w0 = F8::splat(any_layer ? args.layers[0].weight : args.rest_weight);
  Acc acc;
  for (int c = 0; c < 3; ++c) acc.t[c] = w0 * F8::load(first.t[c]), acc.s[c] = w0 * F8::load(first.s[c]);
  for (int c = 0; c < 4; ++c) acc.ref[c] = F8::load(first.q[c]), acc.r[c] = w0 * acc.ref[c];
  for (std::size_t i = 1; i < args.layer_count; ++i) accumulate(acc, F8::splat(args.layers[i].weight), args.layers[i].pose[b]);
  if (any_layer && args.rest_weight > 0.f) accumulate(acc, F8::splat(args.rest_weight), args.rest[b]);
  Pose8 o;
  normalise_rotation(acc, zeros(), o);
  return o;
}

// T += a dT, R = R * nlerp(identity, dR, a) with dR taken with w >= 0, S *= 1 + a (dS - 1),
// written a dS + (1 - a) so that a = 1 gives S * dS and a = 0 gives S exactly.
MARROW_LANES_INLINE void apply_additive(Pose8& o, const BlendLayerView& layer, std::size_t b, std::size_t joints) {
  const F8 zero = zeros(), one = ones(), tiny = F8::splat(kTinyNorm2);
  const F8 a = lane_weights(layer, b, joints);
  const F8 keep = one - a;
  const TrsBlock& d = layer.pose[b];
  for (int c = 0; c < 3; ++c) {
    o.t[c] = fma(a, F8::load(d.t[c]), o.t[c]);
    o.s[c] = o.s[c] * fma(a, F8::load(d.s[c]), keep);
  }
  const F8 flip = (F8::load(d.q[3]) < zero) & F8::splat(-0.f);
  F8 n[4];
  for (int c = 0; c < 3; ++c) n[c] = a * (F8::load(d.q[c]) ^ flip);
  n[3] = fma(a, F8::load(d.q[3]) ^ flip, keep);
  // |n|^2 >= 1/2 for a unit dR at any a in [0, 1] (and >= 1/2 beyond): only a delta of length
  // zero comes near 0.
  const F8 n2 = fma(n[0], n[0], n[1] * n[1]) + fma(n[2], n[2], n[3] * n[3]);
  // 1 where n is exactly the identity (a = 0), so that such lanes keep R bit for bit; 0 where
  // n has no direction, which then becomes the identity.
  const F8 degenerate = n2 < tiny;
  const F8 inv = select(degenerate, zero, select(n2 == one, one, rsqrt_of(max_of(n2, tiny))));
  for (int c = 0; c < 3; ++c) n[c] = n[c] * inv;
  n[3] = select(degenerate, one, n[3] * inv);
  const F8 x = o.q[0], y = o.q[1], z = o.q[2], w = o.q[3];
  o.q[0] = fma(w, n[0], fma(x, n[3], y * n[2])) - z * n[1];
  o.q[1] = fma(w, n[1], fma(y, n[3], z * n[0])) - x * n[2];
  o.q[2] = fma(w, n[2], fma(z, n[3], x * n[1])) - y * n[0];
  o.q[3] = fma(w, n[3], zero - (fma(x, n[0], y * n[1]) + z * n[2]));
}

MARROW_LANES_INLINE void apply_additives(Pose8& o, const BlendArgs& args, std::size_t b) {
  for (std::size_t i = 0; i < args.additive_count; ++i) apply_additive(o, args.additive[i], b, args.joint_count);
}

void blend(const BlendArgs& args) {
  if (args.uniform) {
    for (std::size_t b = args.first_block; b < args.end_block; ++b) {
      Pose8 o = blend_uniform_block(args, b);
      apply_additives(o, args, b);
      store_pose(o, args.out[b]);
    }
    return;
  }
  for (std::size_t b = args.first_block; b < args.end_block; ++b) {
    Acc acc = start(args.rest[b]);
    add_totals(acc, args, b);
    add_sums(acc, args, b);
    Pose8 o = finish_block(acc, args, b);
    apply_additives(o, args, b);
    store_pose(o, args.out[b]);
  }
}

void totals(const BlendArgs& args) {
  for (std::size_t b = args.first_block; b < args.end_block; ++b) {
    BlendState& state = args.state[b - args.first_block];
    Acc acc = args.reset ? start(args.rest[b]) : load_state(state);
    add_totals(acc, args, b);
    store_state(acc, state);
  }
}

void sums(const BlendArgs& args) {
  for (std::size_t b = args.first_block; b < args.end_block; ++b) {
    BlendState& state = args.state[b - args.first_block];
    Acc acc = load_state(state);
    add_sums(acc, args, b);
    store_state(acc, state);
  }
}

void finish(const BlendArgs& args) {
  for (std::size_t b = args.first_block; b < args.end_block; ++b) {
    Acc acc = load_state(args.state[b - args.first_block]);
    Pose8 o = finish_block(acc, args, b);
    apply_additives(o, args, b);
    store_pose(o, args.out[b]);
  }
}

void additive(const BlendArgs& args) {
  for (std::size_t b = args.first_block; b < args.end_block; ++b) {
    Pose8 o = load_pose(args.out[b]);
    apply_additives(o, args, b);
    store_pose(o, args.out[b]);
  }
}

// B3's delta of a pose from a reference: dT = T - T_ref, dR = inverse(R_ref) * R (the conjugate
// over the squared length), dS = S / S_ref, eight joints at a time.
void delta(const TrsBlock* pose, const TrsBlock* reference, std::size_t blocks, TrsBlock* out) {
  for (std::size_t b = 0; b < blocks; ++b) {
    const Pose8 p = load_pose(pose[b]), r = load_pose(reference[b]);
    Pose8 o;
    for (int c = 0; c < 3; ++c) o.t[c] = p.t[c] - r.t[c], o.s[c] = p.s[c] / r.s[c];
    const F8 inv = ones() / (r.q[0] * r.q[0] + r.q[1] * r.q[1] + r.q[2] * r.q[2] + r.q[3] * r.q[3]);
    const F8 ix = zeros() - r.q[0] * inv, iy = zeros() - r.q[1] * inv, iz = zeros() - r.q[2] * inv, iw = r.q[3] * inv;
    const F8 qx = p.q[0], qy = p.q[1], qz = p.q[2], qw = p.q[3];
    o.q[0] = iw * qx + ix * qw + iy * qz - iz * qy;
    o.q[1] = iw * qy + iy * qw + iz * qx - ix * qz;
    o.q[2] = iw * qz + iz * qw + ix * qy - iy * qx;
    o.q[3] = iw * qw - ix * qx - iy * qy - iz * qz;
    store_pose(o, out[b]);
  }
}

// AG4: each component's quintic as x0 * p + v0 * q (p and q shared by the frame: the header's
// expanded form); the rotation offset's parameters x become q(x) = ((1 - |x|^2), 2 x) / (1 + |x|^2),
// which multiplies B's rotation on the left. q(x) is a unit quaternion for every x, so the
// product with B's (unit) rotation is unit up to rounding, and is not renormalized (a fifth of
// the block's arithmetic). A lane that does not move keeps B exactly (moves is 0 or 1).
MARROW_LANES_INLINE void inertialize_block(const TrsBlock& pose, const InertializationState::Block& k, F8 pp, F8 qq,
                                           TrsBlock& out) {
  const Pose8 b = load_pose(pose);
  const auto offset = [&](int c) { return F8::load(k.c[c][0]) * pp + F8::load(k.c[c][1]) * qq; };
  Pose8 o;
  for (int c = 0; c < 3; ++c) o.t[c] = b.t[c], o.s[c] = b.s[c];
  // A block whose translation offsets are all 0 adds nothing to its translations: they pass
  // untouched, and only the rotations' offsets are evaluated. (Named values, not an array with
  // a varying start: the array went through the stack.)
  if (k.translates) {
    for (int c = 0; c < 3; ++c) o.t[c] = b.t[c] + offset(c);
  }
  const F8 x3 = offset(3), x4 = offset(4), x5 = offset(5);
  const F8 m = F8::load(k.moves), keep = ones() - m;
  const F8 n2 = x3 * x3 + x4 * x4 + x5 * x5, d = ones() / (ones() + n2);
  const F8 two_d = d + d;
  const F8 ow = (ones() - n2) * d, ox = x3 * two_d, oy = x4 * two_d, oz = x5 * two_d;
  const F8 bx = b.q[0], by = b.q[1], bz = b.q[2], bw = b.q[3];
  const F8 rx = ow * bx + ox * bw + oy * bz - oz * by;
  const F8 ry = ow * by - ox * bz + oy * bw + oz * bx;
  const F8 rz = ow * bz + ox * by - oy * bx + oz * bw;
  const F8 rw = ow * bw - ox * bx - oy * by - oz * bz;
  if (k.all) {  // every lane moves (the usual block): no lane keeps B
    o.q[0] = rx, o.q[1] = ry, o.q[2] = rz, o.q[3] = rw;
  } else {
    o.q[0] = m * rx + keep * bx;
    o.q[1] = m * ry + keep * by;
    o.q[2] = m * rz + keep * bz;
    o.q[3] = m * rw + keep * bw;
  }
  store_pose(o, out);
}

void inertialize(const TrsBlock* pose, const InertializationState::Block* blocks, std::size_t count, bool running, float p,
                 float q, TrsBlock* out) {
  const F8 pp = F8::splat(p), qq = F8::splat(q);
  for (std::size_t i = 0; i < count; ++i) {
    if (running && blocks[i].any) {
      inertialize_block(pose[i], blocks[i], pp, qq, out[i]);
    } else if (&pose[i] != &out[i]) {
      out[i] = pose[i];
    }
  }
}

}  // namespace

extern const BlendKernels kBlendKernels;
const BlendKernels kBlendKernels{&blend, &totals, &sums, &finish, &additive, &delta, &inertialize};

}  // namespace marrow::detail::MARROW_SIMD_NS
