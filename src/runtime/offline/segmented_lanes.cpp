// Segmented channels in a compressed clip's storage (segmented_lanes.hpp).
#include "segmented_lanes.hpp"

#include <bit>
#include <cmath>
#include <stdexcept>

namespace marrow::detail {

static_assert(kSegmentLength == kCompressedSegmentLength && kSegmentMaxStride == kCompressedMaxStride);

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("compressed clip: " + what); }

unsigned sample_width(const CompressedSegment& segment) noexcept {
  return unsigned{segment.bits[0]} + segment.bits[1] + segment.bits[2];
}

}  // namespace

std::size_t segment_bytes(const CompressedSegment& segment, std::size_t times, std::size_t s) {
  const std::size_t samples = compressed_segment_samples(compressed_segment_intervals(times, s), segment.stride);
  return (samples * sample_width(segment) + 7) / 8;
}

std::size_t segmented_bytes(const CompressedChannel& channel, std::size_t times) {
  std::size_t bytes = 0;
  for (std::size_t s = 0; s < channel.segments.size(); ++s) bytes += segment_bytes(channel.segments[s], times, s);
  return bytes;
}

void check_segmented(const CompressedChannel& ch, std::size_t c, std::size_t times, const std::string& where) {
  if (!ch.key_times.empty()) refuse(where + " has both keys and segments");
  if (ch.uniform) refuse(where + " is segmented and uniform (a segmented scale keeps x, y and z)");
  if (ch.segments.size() != compressed_segments(times)) {
    refuse(where + " has " + std::to_string(ch.segments.size()) + " segments, not the " + std::to_string(compressed_segments(times)) +
           " of " + std::to_string(times) + " times");
  }
  const bool rotation = c % 3 == 1;
  for (std::size_t s = 0; s < ch.segments.size(); ++s) {
    const CompressedSegment& seg = ch.segments[s];
    const std::string at = where + " segment " + std::to_string(s);
    if (seg.stride > kCompressedMaxStride) refuse(at + " has stride " + std::to_string(seg.stride) + ", more than " + std::to_string(kCompressedMaxStride));
    if (seg.dropped > (rotation ? 3 : 0)) refuse(at + " drops component " + std::to_string(seg.dropped));
    for (std::size_t i = 0; i < 3; ++i) {
      if (seg.bits[i] > kCompressedMaxBits) refuse(at + " component " + std::to_string(i) + " has " + std::to_string(seg.bits[i]) + " bits");
      if (unsigned{seg.low[i]} + seg.extent[i] > 255) refuse(at + " component " + std::to_string(i) + " range leaves the channel's");
    }
  }
  if (ch.packed.size() != segmented_bytes(ch, times)) {
    refuse(where + " has " + std::to_string(ch.packed.size()) + " bytes of samples, not " + std::to_string(segmented_bytes(ch, times)));
  }
  for (std::size_t i = 0; i < 3; ++i) {
    const float lo = ch.min[i], extent = ch.extent[i];
    const std::string range = where + " range " + std::to_string(i) + " (min " + std::to_string(lo) + ", extent " + std::to_string(extent) + ")";
    if (!std::isfinite(lo) || !std::isfinite(extent) || !std::isfinite(lo + extent)) refuse(range + " is not finite");
    if (extent < 0) refuse(range + " has a negative extent");
    if (rotation && (lo < -1 || lo + extent > 1)) refuse(range + " leaves [-1, 1], where a rotation's components lie");
  }
}

SegmentedLanes segmented_lanes(const CompressedChannel* const* channels, unsigned lanes, std::size_t times, CompressedParts& s) {
  SegmentedLanes out;
  out.lanes = static_cast<std::uint8_t>(lanes);
  out.count = static_cast<std::uint8_t>(std::popcount(lanes));
  out.range = static_cast<std::uint32_t>(s.ranges.size());
  out.segments = static_cast<std::uint32_t>(s.starts.size());
  const std::size_t n = out.count;
  std::vector<const CompressedChannel*> in;
  for (unsigned m = lanes; m != 0; m &= m - 1) in.push_back(channels[std::countr_zero(m)]);
  for (std::size_t i = 0; i < 3; ++i)
    for (const CompressedChannel* ch : in) s.ranges.push_back(ch->min[i]);
  for (std::size_t i = 0; i < 3; ++i)
    for (const CompressedChannel* ch : in) s.ranges.push_back(ch->extent[i]);
  std::vector<std::size_t> read(n, 0);  // each lane's next byte of samples
  for (std::size_t seg = 0; seg < s.segments; ++seg) {
    if (s.segment_data.size() > 0xffffffffu) refuse("has too many samples");
    s.starts.push_back(static_cast<std::uint32_t>(s.segment_data.size()));
    for (std::size_t i = 0; i < 3; ++i)
      for (const CompressedChannel* ch : in) s.segment_data.push_back(ch->segments[seg].low[i]);
    for (std::size_t i = 0; i < 3; ++i)
      for (const CompressedChannel* ch : in) s.segment_data.push_back(ch->segments[seg].extent[i]);
    for (std::size_t i = 0; i < 3; ++i)
      for (const CompressedChannel* ch : in) s.segment_data.push_back(ch->segments[seg].bits[i]);
    for (const CompressedChannel* ch : in)
      s.segment_data.push_back(static_cast<std::uint8_t>(ch->segments[seg].stride | ch->segments[seg].dropped << 4));
    for (std::size_t l = 0; l < n; ++l) {
      const std::size_t bytes = segment_bytes(in[l]->segments[seg], times, seg);
      s.segment_data.insert(s.segment_data.end(), in[l]->packed.begin() + static_cast<std::ptrdiff_t>(read[l]),
                            in[l]->packed.begin() + static_cast<std::ptrdiff_t>(read[l] + bytes));
      read[l] += bytes;
    }
  }
  return out;
}

CompressedChannel segmented_channel(const CompressedStorage& s, std::size_t times, const SegmentedLanes& sl, std::size_t lane) {
  CompressedChannel out;
  const std::size_t n = sl.count;
  const auto m = static_cast<std::size_t>(std::popcount(static_cast<unsigned>(sl.lanes) & ((1u << lane) - 1)));  // its place
  for (std::size_t i = 0; i < 3; ++i) {
    out.min[i] = s.ranges()[sl.range + i * n + m];
    out.extent[i] = s.ranges()[sl.range + (3 + i) * n + m];
  }
  const auto segment_of = [&](const std::uint8_t* header, std::size_t k) {
    CompressedSegment seg;
    for (std::size_t i = 0; i < 3; ++i) {
      seg.low[i] = header[i * n + k];
      seg.extent[i] = header[(3 + i) * n + k];
      seg.bits[i] = header[(6 + i) * n + k];
    }
    seg.stride = header[9 * n + k] & 15u;
    seg.dropped = static_cast<std::uint8_t>(header[9 * n + k] >> 4);
    return seg;
  };
  for (std::size_t seg = 0; seg < compressed_segments(times); ++seg) {
    const std::uint8_t* header = s.segment_data() + s.starts()[sl.segments + seg];
    out.segments.push_back(segment_of(header, m));
    // The lane's samples follow the headers and the lanes before it.
    const std::uint8_t* at = header + kSegmentHeaderBytes * n;
    for (std::size_t k = 0; k < m; ++k) at += segment_bytes(segment_of(header, k), times, seg);
    out.packed.insert(out.packed.end(), at, at + segment_bytes(out.segments.back(), times, seg));
  }
  return out;
}

}  // namespace marrow::detail
