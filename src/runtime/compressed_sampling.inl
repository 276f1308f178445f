// The sampling kernel of compressed clips (compressed_storage.hpp), included by pose_kernels.inl
// inside its per-level namespace so that it shares interpolate_lanes with the uncompressed path:
// one interpolation for both.
//
// Per block of eight joints and per channel: the key pair around the time comes from one 8-byte
// word of the channel's directory (a popcount for the key's rank, the highest bit below and the
// lowest bit above the time for the two keys' times, or the word's neighbours), the blend factor
// from the 96 times around the sampled one (offsets from it, made once per run), and both keys'
// bits from one unaligned 16-byte load. Then the fields are widened and dequantised, the dropped
// rotation component rebuilt, and the bracket interpolated as any other. At the AVX2 and AVX-512
// levels the eight lanes go together (compressed_lanes.inl); SSE2 goes a lane at a time.

// What every channel of one run shares: the time, its word, and the times around it.
struct Frame {
  const KeyWord* words;
  const std::uint8_t* packed;
  std::uint32_t word;     // the time index's word
  std::uint32_t upto;     // bits of the word at or before the time index
  std::uint32_t before;   // all ones when the time precedes every key time: every channel holds
  // t - times[32 * (word - 1) + i]: the previous word, this one and the next (0 past the table).
  alignas(64) float window[3 * kTimesPerWord];
};

// The keys of one channel around the time: indices a and b (b == a for a hold), and the blend
// factor as since / span (0 / 1 for a hold).
struct ChannelPair {
  std::uint32_t a, b;
  float since, span;
};

// Without branches, selecting with masks: which case a channel is in (before, inside or after
// its keys; whether its pair is inside the time's word) depends on the data, and mispredicted
// branches cost more than computing both sides (lzcnt and tzcnt of 0 are defined).
MARROW_LANES_INLINE ChannelPair locate(const KeyWord& word, std::uint32_t count, const Frame& f) {
  const std::uint32_t below = word.bits & f.upto;  // keys at or before the time within the word
  const std::uint32_t above = word.bits & ~f.upto;
  const std::uint32_t rank = word.rank + static_cast<std::uint32_t>(std::popcount(below));
  const std::uint32_t in_below = 0u - static_cast<std::uint32_t>(below != 0);  // all ones or none
  const std::uint32_t in_above = 0u - static_cast<std::uint32_t>(above != 0);
  // Positions in the window: the last key at or before the time (in this word, else the last of
  // the previous one), the first after it (in this word, else in the next).
  const std::uint32_t wa = ((63u - static_cast<std::uint32_t>(std::countl_zero(below))) & in_below) | ((31u - word.back) & ~in_below);
  const std::uint32_t wb = ((32u + static_cast<std::uint32_t>(std::countr_zero(above))) & in_above) | ((64u + word.forward) & ~in_above);
  const std::uint32_t hold = f.before | (0u - static_cast<std::uint32_t>((rank == 0) | (rank >= count)));
  ChannelPair pair;
  pair.a = rank - static_cast<std::uint32_t>(rank != 0);
  pair.b = (pair.a & hold) | (rank & ~hold);
  const float since = f.window[wa], span = since - f.window[wb];
  pair.since = hold != 0 ? 0.f : since;
  pair.span = hold != 0 ? 1.f : span;
  return pair;
}

// A block's keys as floats: per channel three fields, and for rotations the dropped component.
struct RawKeys {
  alignas(32) float q[3][3][kPoseLanes];  // [channel][component][lane]
  alignas(32) float dropped[kPoseLanes];  // rotation: 0..3
};

MARROW_LANES_INLINE unsigned key_width(const JointBlock& jb, int c, std::size_t lane) {
  return unsigned{jb.shift[c][2][lane]} + jb.bits[c][2][lane] + (c == 1 ? 2u : 0u);
}

// Key `key`'s fields of lane `lane` of channel c (the packed bytes are padded for the load).
MARROW_LANES_INLINE void widen_lane(const Frame& f, const JointBlock& jb, int c, std::size_t lane, std::uint32_t key,
                                    float (*q)[kPoseLanes], float* dropped) {
  const std::uint32_t first = key * key_width(jb, c, lane);
  std::uint64_t raw;
  std::memcpy(&raw, f.packed + jb.byte[c][lane] + first / 8, sizeof(raw));
  raw >>= first % 8;
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t mask = (std::uint64_t{1} << jb.bits[c][i][lane]) - 1;
    q[i][lane] = static_cast<float>(static_cast<std::uint32_t>((raw >> jb.shift[c][i][lane]) & mask));
  }
  if (c == 1) dropped[lane] = static_cast<float>(static_cast<std::uint32_t>((raw >> (jb.shift[c][2][lane] + jb.bits[c][2][lane])) & 3u));
}

// Channel c of a block, a lane at a time (SSE2): the blend factor and both keys.
MARROW_LANES_INLINE void channel_lanes(const Frame& f, const JointBlock& jb, int c, float* p, RawKeys& ra, RawKeys& rb) {
  alignas(32) float since[kPoseLanes], span[kPoseLanes];
  for (std::size_t l = 0; l < kPoseLanes; ++l) {
    const ChannelPair pair = locate(f.words[jb.word[c][l] + f.word], jb.count[c][l], f);
    since[l] = pair.since;
    span[l] = pair.span;
    widen_lane(f, jb, c, l, pair.a, ra.q[c], ra.dropped);
    widen_lane(f, jb, c, l, pair.b, rb.q[c], rb.dropped);
  }
  (F8::load(since) / F8::load(span)).store(p);
}

// Dequantised keys of a block into the bracket's rows: T and S as they are, the rotation
// rebuilt from its smallest three.
MARROW_LANES_INLINE void dequantise(const RawKeys& raw, const JointBlock& jb, float (*rows)[kPoseLanes]) {
  for (int c = 0; c < 3; ++c) {
    fma(F8::load(raw.q[0][c]), F8::load(jb.step[0][c]), F8::load(jb.min[0][c])).store(rows[c]);
    fma(F8::load(raw.q[2][c]), F8::load(jb.step[2][c]), F8::load(jb.min[2][c])).store(rows[7 + c]);
  }
  const F8 s0 = fma(F8::load(raw.q[1][0]), F8::load(jb.step[1][0]), F8::load(jb.min[1][0]));
  const F8 s1 = fma(F8::load(raw.q[1][1]), F8::load(jb.step[1][1]), F8::load(jb.min[1][1]));
  const F8 s2 = fma(F8::load(raw.q[1][2]), F8::load(jb.step[1][2]), F8::load(jb.min[1][2]));
  const F8 rest = F8::splat(1.f) - (fma(s0, s0, s1 * s1) + s2 * s2);
  const F8 d = sqrt_of(simd::MARROW_SIMD_NS::max_of(rest, F8::splat(0.f)));
  const F8 i = F8::load(raw.dropped);
  const F8 is0 = i == F8::splat(0.f), is1 = i == F8::splat(1.f), is2 = i == F8::splat(2.f), is3 = i == F8::splat(3.f);
  select(is0, d, s0).store(rows[3]);
  select(is0, s0, select(is1, d, s1)).store(rows[4]);
  select(is2, d, select(is3, s2, s1)).store(rows[5]);
  select(is3, d, s2).store(rows[6]);
}

// The bracket's rotation pair as rotation_pair (bracket.hpp) makes it: b moved into a's
// hemisphere and the cosine between them. Decoded keys are unit quaternions within a float
// rounding, so their lengths are taken as 1 (the one sampler's, computed, differ by 1e-7).
MARROW_LANES_INLINE void pair_rotations(BracketBlock& br) {
  F8 qa[4], qb[4];
  for (int c = 0; c < 4; ++c) qa[c] = F8::load(br.a[3 + c]), qb[c] = F8::load(br.b[3 + c]);
  const F8 dot = fma(qa[0], qb[0], qa[1] * qb[1]) + fma(qa[2], qb[2], qa[3] * qb[3]);
  const F8 sign = (dot < F8::splat(0.f)) & F8::splat(-0.f);
  for (int c = 0; c < 4; ++c) (qb[c] ^ sign).store(br.b[3 + c]);
  simd::MARROW_SIMD_NS::min_of(dot ^ sign, F8::splat(1.f)).store(br.cos_ab);
  F8::splat(1.f).store(br.len_a);
  F8::splat(1.f).store(br.len_b);
}

// GCC 12's AVX-512 intrinsics start from undefined registers they then fully overwrite.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#if defined(__AVX2__)
#include "compressed_lanes.inl"
#endif

void sample_compressed(const CompressedArgs& args) {
  const CompressedStorage& clip = *args.clip;
  Frame f;
  f.words = clip.words.data();
  f.packed = clip.packed.data();
  f.word = args.tau / kTimesPerWord;
  f.upto = ~std::uint32_t{0} >> (31u - args.tau % kTimesPerWord);
  f.before = args.before ? ~0u : 0u;
  // Offsets from the time (uint64 wrap-around: entries no pair uses may be garbage, never UB).
  const std::int64_t first = (static_cast<std::int64_t>(f.word) - 1) * static_cast<std::int64_t>(kTimesPerWord);
  const auto n = static_cast<std::int64_t>(clip.times.size());
  const auto t = static_cast<std::uint64_t>(args.t);
  // At the table's ends the entries past it are never a pair's: they repeat its first or last
  // time. Three straight runs, so that the compiler vectorises each.
  const std::int64_t lo = std::clamp<std::int64_t>(-first, 0, 3 * kTimesPerWord);
  const std::int64_t hi = std::clamp<std::int64_t>(n - first, lo, 3 * kTimesPerWord);
  const std::int64_t* times = clip.times.data();
  const auto offset = [t](std::int64_t time) { return static_cast<float>(static_cast<std::int64_t>(t - static_cast<std::uint64_t>(time))); };
  for (std::int64_t i = 0; i < lo; ++i) f.window[i] = offset(times[0]);
  for (std::int64_t i = lo; i < hi; ++i) f.window[i] = offset(times[first + i]);
  for (std::int64_t i = hi; i < static_cast<std::int64_t>(3 * kTimesPerWord); ++i) f.window[i] = offset(times[n - 1]);
  const std::size_t blocks = clip.blocks.size();
  for (std::size_t b = 0; b < blocks; ++b) {
    const JointBlock& jb = clip.blocks[b];
    alignas(32) float p[3][kPoseLanes];
    RawKeys ra, rb;
    for (int c = 0; c < 3; ++c) {
      if (jb.constant[c] != 0) {  // every lane its one key, no blend (often: fixed bone lengths, unit scales)
        for (int i = 0; i < 3; ++i) F8::splat(0.f).store(ra.q[c][i]), F8::splat(0.f).store(rb.q[c][i]);
        for (std::size_t l = 0; c == 1 && l < kPoseLanes; ++l) {  // a key of no field bits: the two index bits
          ra.dropped[l] = rb.dropped[l] = static_cast<float>(f.packed[jb.byte[1][l]] & 3u);
        }
        F8::splat(0.f).store(p[c]);
        continue;
      }
#if defined(__AVX2__)
      channel_vector(f, jb, c, p[c], ra, rb);
#else
      channel_lanes(f, jb, c, p[c], ra, rb);
#endif
    }
    BracketBlock br;
    dequantise(ra, jb, br.a);
    dequantise(rb, jb, br.b);
    pair_rotations(br);
    // Always the slerp: kept keys lie far apart (few blocks would take the normalised lerp), and
    // a branch on it mispredicts block to block.
    interpolate_lanes(br, F8::load(p[0]), F8::load(p[1]), F8::load(p[2]), args.out[b], true);
  }
}
#pragma GCC diagnostic pop
