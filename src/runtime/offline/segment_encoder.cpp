// A channel as segments of samples (segment_encoder.hpp).
#include "segment_encoder.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <glm/gtc/type_ptr.hpp>

#include "key_codec.hpp"

namespace marrow::detail {

namespace {

// The three stored components of a value: x, y, z; a rotation without `dropped`, its sign made
// so that the dropped component is not negative.
glm::dvec3 stored_parts(ChannelKind kind, const glm::dvec4& v, unsigned dropped) {
  if (kind != ChannelKind::Rotation) return {v.x, v.y, v.z};
  const double sign = v[static_cast<glm::length_t>(dropped)] < 0 ? -1.0 : 1.0;
  glm::dvec3 out;
  int k = 0;
  for (glm::length_t c = 0; c < 4; ++c) {
    if (c != static_cast<glm::length_t>(dropped)) out[k++] = v[c] * sign;
  }
  return out;
}

// The component a segment's rotations drop: the largest in magnitude where it is smallest.
unsigned dropped_of(std::span<const glm::dvec4> values) {
  unsigned best = 3;
  double best_low = -1;
  for (unsigned c = 0; c < 4; ++c) {
    double low = std::numeric_limits<double>::infinity();
    for (const glm::dvec4& v : values) low = std::min(low, std::fabs(v[static_cast<glm::length_t>(c)]));
    if (low > best_low) best_low = low, best = c;
  }
  return best;
}

// The channel's range per component: a float min at or below every value, and an extent that
// reaches the largest from it.
void channel_range(const std::vector<glm::dvec3>& parts, std::array<float, 3>& min, std::array<float, 3>& extent) {
  for (glm::length_t c = 0; c < 3; ++c) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const glm::dvec3& p : parts) lo = std::min(lo, p[c]), hi = std::max(hi, p[c]);
    float m = static_cast<float>(lo);
    if (static_cast<double>(m) > lo) m = std::nextafter(m, -std::numeric_limits<float>::infinity());
    float e = static_cast<float>(hi - static_cast<double>(m));
    while (static_cast<double>(m) + static_cast<double>(e) < hi) e = std::nextafter(e, std::numeric_limits<float>::infinity());
    if (!std::isfinite(m) || !std::isfinite(e) || !std::isfinite(m + e)) throw std::invalid_argument("a channel's range is too large to quantise");
    min[static_cast<std::size_t>(c)] = m;
    extent[static_cast<std::size_t>(c)] = e;
  }
}

struct Candidate {
  CompressedSegment segment;
  std::vector<PackedKey> samples;
  std::size_t bits = std::numeric_limits<std::size_t>::max();
};

// Segment s of the channel at one stride and precision level: its samples quantised, or none
// when they miss the tolerance. `parts` are the segment's values' stored parts (length + 1).
bool try_segment(ChannelKind kind, std::span<const std::int64_t> times, std::span<const glm::dvec4> source, std::size_t start,
                 std::size_t length, std::span<const glm::dvec3> parts, const std::array<float, 3>& min,
                 const std::array<float, 3>& extent, unsigned dropped, unsigned stride, unsigned level, double tolerance,
                 Candidate& out) {
  const bool rotation = kind == ChannelKind::Rotation;
  std::vector<std::size_t> at;  // stored sample positions in the segment
  for (std::size_t i = 0; i < length; i += std::size_t{1} << stride) at.push_back(i);
  at.push_back(length);
  CompressedSegment seg;
  seg.stride = static_cast<std::uint8_t>(stride);
  seg.dropped = static_cast<std::uint8_t>(rotation ? dropped : 0);
  // The segment's range in 255ths of the channel's, rounded outwards until its float ends
  // cover the stored values.
  std::array<double, 3> span{};
  for (std::size_t c = 0; c < 3; ++c) {
    const auto k = static_cast<glm::length_t>(c);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t i : at) lo = std::min(lo, parts[i][k]), hi = std::max(hi, parts[i][k]);
    const double e = extent[c];
    int low = e > 0 ? static_cast<int>(std::floor((lo - min[c]) / e * 255)) : 0;
    int high = e > 0 ? static_cast<int>(std::ceil((hi - min[c]) / e * 255)) : 0;
    low = std::clamp(low, 0, 255), high = std::clamp(high, low, 255);
    while (low > 0 && static_cast<double>(segment_low(min[c], extent[c], static_cast<std::uint8_t>(low))) > lo) --low;
    const auto top = [&](int h) {
      return static_cast<double>(segment_low(min[c], extent[c], static_cast<std::uint8_t>(low))) +
             static_cast<double>(extent[c]) * (h - low) / 255.0;
    };
    while (high < 255 && top(high) < hi) ++high;
    seg.low[c] = static_cast<std::uint8_t>(low);
    seg.extent[c] = static_cast<std::uint8_t>(high - low);
    span[c] = static_cast<double>(extent[c]) * (high - low) / 255.0;
  }
  // Precision `level`: every component's step at most the widest span over 2^level - 1.
  const double widest = std::max({span[0], span[1], span[2]});
  for (std::size_t c = 0; c < 3; ++c) seg.bits[c] = static_cast<std::uint8_t>(level_bits(span[c], widest, level));
  // The stored samples as the sampler decodes them.
  std::vector<PackedKey> samples(at.size());
  std::vector<glm::dvec4> decoded(at.size());
  for (std::size_t s = 0; s < at.size(); ++s) {
    float v[4] = {0, 0, 0, 0};
    for (std::size_t c = 0; c < 3; ++c) {
      const float low = segment_low(min[c], extent[c], seg.low[c]);
      const float step = segment_step(extent[c], seg.extent[c], seg.bits[c]);
      const double levels = static_cast<double>((std::uint32_t{1} << seg.bits[c]) - 1);
      const double x = parts[at[s]][static_cast<glm::length_t>(c)];
      const double q = step > 0 ? std::round((x - static_cast<double>(low)) / static_cast<double>(step)) : 0;
      samples[s].q[c] = static_cast<std::uint32_t>(std::clamp(q, 0.0, levels));
      v[c] = dequantise(samples[s].q[c], low, step);
    }
    if (rotation) rotation_of_smallest_three(static_cast<int>(dropped), v[0], v[1], v[2], v);
    decoded[s] = glm::dvec4(v[0], v[1], v[2], v[3]);
  }
  // Every time of the segment, between the samples around it, at the times' blend factor.
  std::size_t k = 0;
  for (std::size_t i = 0; i <= length; ++i) {
    while (k + 1 < at.size() - 1 && at[k + 1] <= i) ++k;
    if (i == length) k = at.size() - 2;
    const std::int64_t ta = times[start + at[k]], tb = times[start + at[k + 1]], t = times[start + i];
    const double p = static_cast<double>(t - ta) / static_cast<double>(tb - ta);
    const glm::dvec4 played = channel_blend(kind, decoded[k], decoded[k + 1], p);
    if (!(channel_distance(kind, played, source[start + i]) <= tolerance)) return false;
  }
  out.segment = seg;
  out.samples = std::move(samples);
  out.bits = at.size() * (std::size_t{seg.bits[0]} + seg.bits[1] + seg.bits[2]);
  return true;
}

}  // namespace

CompressedChannel encode_segmented(ChannelKind kind, std::span<const std::int64_t> times, std::span<const glm::dvec4> source,
                                   double tolerance) {
  const std::size_t n = times.size(), segments = compressed_segments(n);
  // Each segment's dropped component and its values' stored parts, segment after segment (a
  // segment's end is the next one's start, stored by each with its own dropped component):
  // segment s's are all[s * (kCompressedSegmentLength + 1)...].
  std::vector<unsigned> dropped(segments, 0);
  std::vector<glm::dvec3> all;
  for (std::size_t s = 0; s < segments; ++s) {
    const std::size_t start = s * kCompressedSegmentLength, length = compressed_segment_intervals(n, s);
    if (kind == ChannelKind::Rotation) dropped[s] = dropped_of(source.subspan(start, length + 1));
    for (std::size_t i = start; i <= start + length; ++i) all.push_back(stored_parts(kind, source[i], dropped[s]));
  }
  CompressedChannel out;
  channel_range(all, out.min, out.extent);
  for (std::size_t s = 0; s < segments; ++s) {
    const std::size_t start = s * kCompressedSegmentLength, length = compressed_segment_intervals(n, s);
    const std::span<const glm::dvec3> parts(all.data() + s * (kCompressedSegmentLength + 1), length + 1);
    Candidate best;
    for (unsigned stride = 0; stride <= kCompressedMaxStride; ++stride) {
      if (stride > 0 && (std::size_t{1} << (stride - 1)) >= length) break;  // the same samples as the stride before
      // The least level that fits (the error falls as the level grows, nearly always).
      unsigned lo = 0, hi = kCompressedMaxBits;
      Candidate found;
      if (!try_segment(kind, times, source, start, length, parts, out.min, out.extent, dropped[s], stride, hi, tolerance, found)) continue;
      while (lo < hi) {
        const unsigned mid = (lo + hi) / 2;
        Candidate c;
        if (try_segment(kind, times, source, start, length, parts, out.min, out.extent, dropped[s], stride, mid, tolerance, c)) {
          hi = mid, found = std::move(c);
        } else {
          lo = mid + 1;
        }
      }
      if (found.bits < best.bits) best = std::move(found);
    }
    if (best.bits == std::numeric_limits<std::size_t>::max()) {
      // Not even every sample at the most bits: kept so (the clip's measure then shrinks the
      // tolerance, or refuses).
      try_segment(kind, times, source, start, length, parts, out.min, out.extent, dropped[s], 0, kCompressedMaxBits,
                  std::numeric_limits<double>::infinity(), best);
    }
    std::vector<std::uint8_t> bytes;
    KeyPacker packer(bytes);
    for (const PackedKey& key : best.samples) packer.put_key(key, best.segment.bits, false);
    out.packed.insert(out.packed.end(), bytes.begin(), bytes.end());
    out.segments.push_back(best.segment);
  }
  return out;
}

}  // namespace marrow::detail
