// Segmented channels of compressed clips (compressed_storage.hpp's SegmentedLanes), included by
// compressed_sampling.inl: decoded in place at every run, with no state. The time's interval
// gives the segment and the place in it; each lane's two samples around it are at a shift of
// that place by the lane's stride, both read with one 16-byte load from the lane's bytes; the
// blend factor is the one sampler's, from the two samples' times. Then the keyed channels'
// dequantisation and interpolation.

// The run's place among the segments, and what a lane's stride alone decides, once a run for
// each stride the clip uses (index: the stride): the sample a lane reads first (b is the next),
// how many samples a lane of that stride keeps in the segment, and the blend factor between the
// two samples' times (the one sampler's: exact as doubles below 2^52 ticks, then floats).
struct SegmentRun {
  std::uint32_t segment = 0;  // the time's interval's segment
  std::uint32_t local = 0;    // the interval's place in it
  std::uint32_t length = 0;   // intervals in the segment
  std::uint32_t start = 0;    // time index of its first sample
  alignas(32) std::uint32_t first[kPoseLanes] = {};
  alignas(32) std::uint32_t samples[kPoseLanes] = {};
  alignas(32) float p[kPoseLanes] = {};
  // The storage's segmented arrays, taken once a run (as sample_compressed takes its others).
  const float* ranges = nullptr;
  const std::uint8_t* data = nullptr;
  const std::uint32_t* starts = nullptr;
};

inline SegmentRun segment_run(const CompressedArgs& args, const Frame& f, std::size_t times) {
  SegmentRun r;
  r.ranges = args.clip->ranges(), r.data = args.clip->segment_data(), r.starts = args.clip->starts();
  if (times < 2) return r;  // no segmented channel
  std::size_t i = args.tau;
  int hold = 0;  // 1: before the first time (p = 0); 2: at or after the last (p = 1)
  if (args.before) {
    hold = 1, i = 0;
  } else if (i >= times - 1) {
    hold = 2, i = times - 2;
  }
  r.segment = static_cast<std::uint32_t>(i / kSegmentLength);
  r.start = r.segment * static_cast<std::uint32_t>(kSegmentLength);
  r.local = static_cast<std::uint32_t>(i) - r.start;
  r.length = static_cast<std::uint32_t>(std::min(times - 1 - r.start, kSegmentLength));
  // Only the strides the clip's lanes use: entries no lane reads stay 0.
  for (unsigned used = args.clip->strides; used != 0; used &= used - 1) {
    const auto stride = static_cast<std::uint32_t>(std::countr_zero(used));
    const std::uint32_t a = r.local >> stride, a_at = a << stride, b_at = std::min(a_at + (1u << stride), r.length);
    r.first[stride] = a;
    r.samples[stride] = ((r.length + (1u << stride) - 1) >> stride) + 1;
    if (hold != 0) {
      r.p[stride] = hold == 1 ? 0.f : 1.f;
      continue;
    }
    const double ta = static_cast<double>(f.times.at(r.start + a_at) - f.times.first);
    const double tb = static_cast<double>(f.times.at(r.start + b_at) - f.times.first);
    r.p[stride] = std::min(1.f, std::max(0.f, static_cast<float>(f.since_first - ta) * (1.f / static_cast<float>(tb - ta))));
  }
  return r;
}

// A segment's dequantisation from the channel's range (lo, extent) and the segment's 255ths
// (low, range) and levels (2^bits - 1): min = lo + extent * low / 255 and
// step = extent * range / 255 / levels (0 for no bits), as key_codec.hpp's segment_low and
// segment_step (the compressor's).
MARROW_LANES_INLINE void segment_ranges(F8 lo, F8 extent, F8 low, F8 range, F8 levels, F8& min, F8& step) {
  const F8 unit = F8::splat(1.f / 255.f), zero = F8::splat(0.f);
  min = fma(extent, low * unit, lo);
  step = select(zero < levels, extent * (range * unit) / max_of(levels, F8::splat(1.f)), zero);
}

#if MARROW_SIMD_LEVEL >= 1
#include "segmented_lanes.inl"
#else
// A lane at a time (SSE2): each segmented lane's fields, ranges and blend factor into arrays,
// over the constant lanes' values.
struct SegmentLanes {
  alignas(32) float qa[3][kPoseLanes], qb[3][kPoseLanes];  // both samples' fields
  alignas(32) float lo[3][kPoseLanes], extent[3][kPoseLanes], low[3][kPoseLanes], range[3][kPoseLanes], levels[3][kPoseLanes];
  alignas(32) float dropped[kPoseLanes], p[kPoseLanes];
};

MARROW_LANES_INLINE void segmented_lanes(const SegmentRun& run, const float* ranges, const std::uint8_t* header,
                                          std::size_t n, unsigned mask, SegmentLanes& out) {
  const std::uint8_t* bytes = header + kSegmentHeaderBytes * n;
  std::size_t m = 0;
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1, ++m) {
    const auto l = static_cast<std::size_t>(std::countr_zero(lanes));
    const unsigned shape = header[9 * n + m], stride = shape & 15u;
    const unsigned bits[3] = {header[6 * n + m], header[7 * n + m], header[8 * n + m]};
    const unsigned width = bits[0] + bits[1] + bits[2];
    const std::uint32_t a = run.first[stride];
    // Both samples: bits from a * width; 2 * 54 + 7 bits fit in the 16 bytes.
    const std::size_t first = std::size_t{a} * width;
    std::uint64_t word[2];
    std::memcpy(word, bytes + first / 8, sizeof(word));
    const unsigned shift = static_cast<unsigned>(first % 8);
    const std::uint64_t low_word = shift == 0 ? word[0] : (word[0] >> shift) | (word[1] << (64 - shift)), high_word = word[1] >> shift;
    // The `count` bits from bit `from` of the two words (from + count <= 121).
    const auto field = [&](unsigned from, unsigned count) {
      const std::uint64_t raw = from >= 64 ? high_word >> (from - 64) : from == 0 ? low_word : (low_word >> from) | (high_word << (64 - from));
      return static_cast<float>(static_cast<std::uint32_t>(raw & ((std::uint64_t{1} << count) - 1)));
    };
    unsigned at = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      out.qa[i][l] = field(at, bits[i]);
      out.qb[i][l] = field(at + width, bits[i]);
      at += bits[i];
      out.lo[i][l] = ranges[i * n + m];
      out.extent[i][l] = ranges[(3 + i) * n + m];
      out.low[i][l] = static_cast<float>(header[i * n + m]);
      out.range[i][l] = static_cast<float>(header[(3 + i) * n + m]);
      out.levels[i][l] = static_cast<float>((std::uint32_t{1} << bits[i]) - 1);
    }
    out.dropped[l] = static_cast<float>(shape >> 4);
    out.p[l] = run.p[stride];
    bytes += (std::size_t{run.samples[stride]} * width + 7) / 8;  // the next lane's
  }
}
#endif

// Block channel c's lanes: both samples around the time (constant lanes: their value twice) into
// the bracket, and each lane's blend factor.
MARROW_LANES_INLINE F8 decode_segmented(const SegmentRun& run, const CompressedStorage& clip, const SegmentedLanes& sl,
                                         int c, BracketBlock& bracket) {
  const ConstantLanes& constant = constant_lanes(clip, sl.constant_kind, sl.constant, c);
  const float* ranges = run.ranges + sl.range;
  const std::uint8_t* header = run.data + run.starts[sl.segments + run.segment];
#if MARROW_SIMD_LEVEL >= 1
  const SegmentVectors v = sl.lanes == 0xffu ? segmented_vectors<true>(run, ranges, header, sl.count, sl.lanes, constant)
                                             : segmented_vectors<false>(run, ranges, header, sl.count, sl.lanes, constant);
  dequantise_lanes(v.qa, v.min, v.step, v.dropped, c, bracket.a);
  dequantise_lanes(v.qb, v.min, v.step, v.dropped, c, bracket.b);
  if (c == 1) pair_rotations(bracket);
  return v.p;
#else
  SegmentLanes in;
  const F8 zero = F8::splat(0.f);
  for (std::size_t i = 0; i < 3; ++i) {
    zero.store(in.qa[i]), zero.store(in.qb[i]);
    F8::load(constant.value[i]).store(in.lo[i]);
    zero.store(in.extent[i]), zero.store(in.low[i]), zero.store(in.range[i]), zero.store(in.levels[i]);
  }
  for (std::size_t l = 0; l < kPoseLanes; ++l) in.dropped[l] = static_cast<float>(constant.dropped[l]);
  zero.store(in.p);
  segmented_lanes(run, ranges, header, sl.count, sl.lanes, in);
  F8 qa[3], qb[3], min[3], step[3];
  for (std::size_t i = 0; i < 3; ++i) {
    qa[i] = F8::load(in.qa[i]), qb[i] = F8::load(in.qb[i]);
    segment_ranges(F8::load(in.lo[i]), F8::load(in.extent[i]), F8::load(in.low[i]), F8::load(in.range[i]), F8::load(in.levels[i]), min[i],
                   step[i]);
  }
  dequantise_lanes(qa, min, step, F8::load(in.dropped), c, bracket.a);
  dequantise_lanes(qb, min, step, F8::load(in.dropped), c, bracket.b);
  if (c == 1) pair_rotations(bracket);
  return F8::load(in.p);
#endif
}
