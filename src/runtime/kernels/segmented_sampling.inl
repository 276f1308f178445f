// Segmented channels of compressed clips (compressed_storage.hpp's SegmentedLanes), included by
// compressed_sampling.inl: decoded in place at every run, with no state. The time's interval
// gives the segment and the place in it; each lane's two samples around it are at a shift of
// that place by the lane's stride, both read with one 16-byte load from the lane's bytes; the
// blend factor is the one sampler's, from the two samples' times. Then the keyed channels'
// dequantisation and interpolation.

// The run's place among the segments.
struct SegmentRun {
  std::uint32_t segment = 0;  // the time's interval's segment
  std::uint32_t local = 0;    // the interval's place in it
  std::uint32_t length = 0;   // intervals in the segment
  std::uint32_t start = 0;    // time index of its first sample
  int hold = 0;               // 1: before the first time (p = 0); 2: at or after the last (p = 1)
};

inline SegmentRun segment_run(const CompressedArgs& args, std::size_t times) {
  SegmentRun r;
  if (times < 2) return r;  // no segmented channel
  std::size_t i = args.tau;
  if (args.before) {
    r.hold = 1, i = 0;
  } else if (i >= times - 1) {
    r.hold = 2, i = times - 2;
  }
  r.segment = static_cast<std::uint32_t>(i / kSegmentLength);
  r.start = r.segment * static_cast<std::uint32_t>(kSegmentLength);
  r.local = static_cast<std::uint32_t>(i) - r.start;
  r.length = static_cast<std::uint32_t>(std::min(times - 1 - r.start, kSegmentLength));
  return r;
}

// What a block channel's decode gathers per lane before the vector arithmetic: both samples'
// fields, and the ranges (constant lanes: their value, no step).
struct SegmentLanes {
  RawKeys a, b;
  alignas(32) float lo[3][kPoseLanes], extent[3][kPoseLanes], low[3][kPoseLanes], range[3][kPoseLanes], levels[3][kPoseLanes];
  alignas(32) float p[kPoseLanes];
};

// The constant lanes' part (and zeros for the segmented lanes' to be written).
MARROW_LANES_INLINE void constant_part(const ConstantLanes& constant, SegmentLanes& out) {
  const F8 zero = F8::splat(0.f);
  for (std::size_t i = 0; i < 3; ++i) {
    zero.store(out.a.q[i]), zero.store(out.b.q[i]);
    F8::load(constant.value[i]).store(out.lo[i]);
    zero.store(out.extent[i]), zero.store(out.low[i]), zero.store(out.range[i]), zero.store(out.levels[i]);
  }
  for (std::size_t l = 0; l < kPoseLanes; ++l) out.a.dropped[l] = out.b.dropped[l] = static_cast<float>(constant.dropped[l]);
  zero.store(out.p);
}

// One segmented lane's part, read as its header says (both paths: this is the SSE2 one, and the
// reference of the vector one).
MARROW_LANES_INLINE void segmented_lanes_scalar(const Frame& f, const SegmentRun& run, const float* ranges, const std::uint8_t* header,
                                                 std::size_t n, unsigned mask, SegmentLanes& out) {
  const std::uint8_t* bytes = header + kSegmentHeaderBytes * n;
  std::size_t m = 0;
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1, ++m) {
    const auto l = static_cast<std::size_t>(std::countr_zero(lanes));
    const unsigned shape = header[9 * n + m], stride = shape & 15u;
    const unsigned bits[3] = {header[6 * n + m], header[7 * n + m], header[8 * n + m]};
    const unsigned width = bits[0] + bits[1] + bits[2];
    const std::uint32_t a = run.local >> stride, a_at = a << stride, b_at = std::min(a_at + (1u << stride), run.length);
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
      out.a.q[i][l] = field(at, bits[i]);
      out.b.q[i][l] = field(at + width, bits[i]);
      at += bits[i];
      out.lo[i][l] = ranges[i * n + m];
      out.extent[i][l] = ranges[(3 + i) * n + m];
      out.low[i][l] = static_cast<float>(header[i * n + m]);
      out.range[i][l] = static_cast<float>(header[(3 + i) * n + m]);
      out.levels[i][l] = static_cast<float>((std::uint32_t{1} << bits[i]) - 1);
    }
    out.a.dropped[l] = out.b.dropped[l] = static_cast<float>(shape >> 4);
    // The one sampler's factor between the two samples' times (exact as doubles below 2^52).
    if (run.hold != 0) {
      out.p[l] = run.hold == 1 ? 0.f : 1.f;
    } else {
      const double ta = static_cast<double>(f.times.at(run.start + a_at) - f.times.first);
      const double tb = static_cast<double>(f.times.at(run.start + b_at) - f.times.first);
      out.p[l] = std::min(1.f, std::max(0.f, static_cast<float>(f.since_first - ta) * (1.f / static_cast<float>(tb - ta))));
    }
    // The next lane's bytes.
    const std::size_t samples = ((run.length + (1u << stride) - 1) >> stride) + 1;
    bytes += (samples * width + 7) / 8;
  }
}

#if MARROW_SIMD_LEVEL >= 1
#include "segmented_lanes.inl"
#endif

// Block channel c's lanes: both samples around the time (constant lanes: their value twice) into
// the bracket, and each lane's blend factor.
MARROW_LANES_INLINE F8 decode_segmented(const Frame& f, const SegmentRun& run, const CompressedStorage& clip, const SegmentedLanes& sl,
                                         int c, BracketBlock& bracket) {
  SegmentLanes in;
  constant_part(constant_lanes(clip, sl.constant_kind, sl.constant, c), in);
  const float* ranges = clip.ranges.data() + sl.range;
  const std::uint8_t* header = clip.segment_data.data() + clip.segment_starts[sl.segments + run.segment];
#if MARROW_SIMD_LEVEL >= 1
  segmented_lanes_vector(f, run, ranges, header, sl.count, sl.lanes, in);
#else
  segmented_lanes_scalar(f, run, ranges, header, sl.count, sl.lanes, in);
#endif
  // Ranges: low = min + extent * low / 255, step = extent * range / 255 / (2^bits - 1).
  alignas(32) float mins[3][kPoseLanes], steps[3][kPoseLanes];
  const F8 unit = F8::splat(1.f / 255.f), zero = F8::splat(0.f);
  for (std::size_t i = 0; i < 3; ++i) {
    const F8 e = F8::load(in.extent[i]), n_levels = F8::load(in.levels[i]);
    fma(e, F8::load(in.low[i]) * unit, F8::load(in.lo[i])).store(mins[i]);
    select(zero < n_levels, e * (F8::load(in.range[i]) * unit) / max_of(n_levels, F8::splat(1.f)), zero).store(steps[i]);
  }
  dequantise(in.a, mins, steps, c, bracket.a);
  dequantise(in.b, mins, steps, c, bracket.b);
  if (c == 1) pair_rotations(bracket);
  return F8::load(in.p);
}
