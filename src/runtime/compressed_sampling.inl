// The sampling kernel of compressed clips (compressed_storage.hpp), included by pose_kernels.inl
// inside its per-level namespace so that it shares interpolate_lanes with the uncompressed path:
// one interpolation for both.
//
// Per block of eight joints: each channel's key pair around the time comes from one word of its
// directory (a popcount for the key's rank, a bit scan each way for the two keys' times), its
// blend factor from the clip's time table; then the packed keys are widened, dequantised,
// the dropped rotation component rebuilt, and the bracket interpolated as any other.

// The key pair of one channel at time index tau (t at or after times[0]; `before`: t precedes
// every time, so every channel holds its first key).
struct ChannelPair {
  std::uint32_t a, b;  // key indices (b == a for a hold)
  float since, span;   // the blend factor is since / span (0 / 1 for a hold)
};

MARROW_LANES_INLINE ChannelPair locate(std::uint64_t bits, const WordLinks& links, std::uint64_t upto, std::uint32_t base,
                                       std::uint32_t count, const std::int64_t* times, std::int64_t t, bool before) {
  const std::uint64_t below = bits & upto;  // keys at or before tau within the word
  const std::uint64_t above = bits & ~upto;
  const std::uint32_t rank = links.rank + static_cast<std::uint32_t>(std::popcount(below));
  const std::uint32_t ia = below != 0 ? base + 63u - static_cast<std::uint32_t>(std::countl_zero(below)) : links.prev;
  const std::uint32_t ib = above != 0 ? base + static_cast<std::uint32_t>(std::countr_zero(above)) : links.next;
  const bool hold = before || rank == 0 || rank >= count;
  ChannelPair pair;
  pair.a = rank != 0 ? rank - 1 : 0;
  pair.b = hold ? pair.a : rank;
  // Inside the pair t - t_a < t_b - t_a, which fits int64 (make_compressed_clip checks the span
  // of the whole table); holds discard the differences.
  const auto since = static_cast<std::int64_t>(static_cast<std::uint64_t>(t) - static_cast<std::uint64_t>(times[ia]));
  const auto span = static_cast<std::int64_t>(static_cast<std::uint64_t>(times[ib]) - static_cast<std::uint64_t>(times[ia]));
  pair.since = hold ? 0.f : static_cast<float>(since);
  pair.span = hold ? 1.f : static_cast<float>(span);
  return pair;
}

// A key's integers as floats: three fields from one unaligned 64-bit load (the packed bytes are
// padded), for rotations then the dropped component's index.
struct RawKeys {
  alignas(32) float q[3][3][kPoseLanes];  // [channel][component][lane]
  alignas(32) float dropped[kPoseLanes];  // rotation: 0..3
};

MARROW_LANES_INLINE void widen(const std::uint8_t* channel_bytes, std::uint32_t key, const JointBlock& jb, int channel,
                               std::size_t lane, RawKeys& out) {
  const unsigned end = jb.shift[channel][2][lane] + jb.bits[channel][2][lane];  // where the dropped index starts
  const std::uint32_t first = key * (end + (channel == 1 ? 2u : 0u));
  std::uint64_t raw;
  std::memcpy(&raw, channel_bytes + first / 8, sizeof(raw));
  raw >>= first % 8;
  for (int c = 0; c < 3; ++c) {
    const std::uint64_t mask = (std::uint64_t{1} << jb.bits[channel][c][lane]) - 1;
    out.q[channel][c][lane] = static_cast<float>(static_cast<std::uint32_t>((raw >> jb.shift[channel][c][lane]) & mask));
  }
  if (channel == 1) out.dropped[lane] = static_cast<float>(static_cast<std::uint32_t>((raw >> end) & 3u));
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
// hemisphere, the cosine between them, both lengths.
MARROW_LANES_INLINE void pair_rotations(BracketBlock& br) {
  F8 qa[4], qb[4];
  for (int c = 0; c < 4; ++c) qa[c] = F8::load(br.a[3 + c]), qb[c] = F8::load(br.b[3 + c]);
  const F8 la2 = fma(qa[0], qa[0], qa[1] * qa[1]) + fma(qa[2], qa[2], qa[3] * qa[3]);
  const F8 lb2 = fma(qb[0], qb[0], qb[1] * qb[1]) + fma(qb[2], qb[2], qb[3] * qb[3]);
  F8 dot = fma(qa[0], qb[0], qa[1] * qb[1]) + fma(qa[2], qb[2], qa[3] * qb[3]);
  const F8 sign = (dot < F8::splat(0.f)) & F8::splat(-0.f);
  for (int c = 0; c < 4; ++c) (qb[c] ^ sign).store(br.b[3 + c]);
  dot = dot ^ sign;
  const F8 la = sqrt_of(la2), lb = sqrt_of(lb2);
  const F8 denominator = la * lb;
  const F8 cosine = select(denominator < F8::splat(1e-30f), F8::splat(1.f), dot / denominator);
  simd::MARROW_SIMD_NS::min_of(cosine, F8::splat(1.f)).store(br.cos_ab);
  la.store(br.len_a);
  lb.store(br.len_b);
}

// What every channel of one run shares: the time, its index and word.
struct Frame {
  const std::int64_t* times;
  const std::uint64_t* word_bits;
  const WordLinks* word_links;
  const std::uint8_t* packed;
  std::int64_t t;
  std::uint32_t word, base;  // the time index's word, and its first time index
  std::uint64_t upto;        // bits of the word at or before the time index
  bool before;
};

// Channel c of a block, one lane at a time: the blend factor's two terms and both keys.
MARROW_LANES_INLINE void channel_lanes(const Frame& f, const JointBlock& jb, int c, float* since, float* span, RawKeys& ra,
                                       RawKeys& rb) {
  for (std::size_t l = 0; l < kPoseLanes; ++l) {
    const std::uint32_t w = jb.word[c][l] + f.word;
    const ChannelPair pair = locate(f.word_bits[w], f.word_links[w], f.upto, f.base, jb.count[c][l], f.times, f.t, f.before);
    since[l] = pair.since;
    span[l] = pair.span;
    widen(f.packed + jb.byte[c][l], pair.a, jb, c, l, ra);
    widen(f.packed + jb.byte[c][l], pair.b, jb, c, l, rb);
  }
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
  f.times = clip.times.data();
  f.word_bits = clip.word_bits.data();
  f.word_links = clip.word_links.data();
  f.packed = clip.packed.data();
  f.t = args.t;
  f.word = args.tau / kTimesPerWord;
  f.base = f.word * kTimesPerWord;
  f.upto = ~std::uint64_t{0} >> (63u - args.tau % kTimesPerWord);
  f.before = args.before;
  const std::size_t blocks = clip.blocks.size();
  for (std::size_t b = 0; b < blocks; ++b) {
    const JointBlock& jb = clip.blocks[b];
    alignas(32) float p[3][kPoseLanes];
    RawKeys ra, rb;
    for (int c = 0; c < 3; ++c) {
#if defined(__AVX2__)
      channel_vector(f, jb, c, p[c], ra, rb);
#else
      alignas(32) float since[kPoseLanes], span[kPoseLanes];
      channel_lanes(f, jb, c, since, span, ra, rb);
      (F8::load(since) / F8::load(span)).store(p[c]);
#endif
    }
    BracketBlock br;
    dequantise(ra, jb, br.a);
    dequantise(rb, jb, br.b);
    pair_rotations(br);
    interpolate_lanes(br, F8::load(p[0]), F8::load(p[1]), F8::load(p[2]), args.out[b], args.exact_slerp);
  }
}
#pragma GCC diagnostic pop
