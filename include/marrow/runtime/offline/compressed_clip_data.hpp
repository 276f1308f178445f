#pragma once
// A compressed clip's content as plain arrays: what compress_clip produces, what the native
// format stores, and what make_compressed_clip checks and turns into a playable RuntimeClip.
//
// Key times are indices into one table of ticks shared by the clip. Each joint has three
// channels (translation, rotation, scale); a channel keeps some of the clip's times, at least
// one, and each key's values are three integers of bits[0], bits[1], bits[2] bits (0 to 18)
// packed back to back, little-endian (key k starts at bit k * width of the channel's bytes),
// decoded against the channel's range:
//
//   translation, scale   component c = min[c] + q[c] * step[c]; a `uniform` scale stores only
//                        x (bits[1] = bits[2] = 0) and y, z repeat it
//   rotation             the smallest three components, x, y, z, w order without the dropped
//                        one, min[i] + q[i] * step[i]; then two bits naming the dropped
//                        component (0..3), rebuilt as +sqrt(max(0, 1 - a^2 - b^2 - c^2))
//
// A component of 0 bits is `min` at every key; a channel of one key is a constant.
//
// A channel may instead be *segmented* (`segments` not empty, no key_times): the clip's times
// are cut into segments of kCompressedSegmentLength intervals (segment s runs from time index
// 32 s to 32 s + 32, or to the last time), and each segment keeps the samples at every
// 2^stride-th time index from its start, and at its end (so a segment plays on its own, with no
// search: the samples around a time index are found by a shift). Per segment, each component
// has a range within the channel's (`min`, `extent`), in 255ths of it, rounded outwards, and
// `bits` bits:
//
//   low    = min + extent * (low255 / 255)
//   step   = extent * (extent255 / 255) / (2^bits - 1)     (0 for 0 bits)
//   value  = low + q * step
//
// A segment's samples are packed as keys are (three fields, no dropped bits: a rotation's
// dropped component is the segment's), its first byte following the previous segment's last.
// Between two samples a channel plays the one sampler's rule at their times, as between keys.
//
// These decoded keys are the clip's keys (the reconstruction): the sampling job plays them by
// the one sampler's rule (track_sampler.hpp) per channel.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/runtime_clip.hpp"

namespace marrow {

struct CompressedRestPose;  // runtime/compressed_storage.hpp: opaque, shared

// One segment of a segmented channel.
struct CompressedSegment {
  std::array<std::uint8_t, 3> low{};     // the segment's range per component, in 255ths of the channel's
  std::array<std::uint8_t, 3> extent{};
  std::array<std::uint8_t, 3> bits{};    // 0 to kCompressedMaxBits
  std::uint8_t stride = 0;               // samples every 2^stride time indices (0 to 5)
  std::uint8_t dropped = 0;              // rotations: the component rebuilt (0 to 3)
};

struct CompressedChannel {
  // Indices into CompressedClipData::times, increasing, and never skipping a whole word of 32
  // times (key_times[k + 1] / 32 - key_times[k] / 32 <= 1): the sampler then finds the keys
  // around any time among the 96 times around it. Empty for a segmented channel.
  std::vector<std::uint16_t> key_times;
  std::array<std::uint8_t, 3> bits{};    // per component, 0 to kCompressedMaxBits
  bool uniform = false;                  // scale channels: y and z are x
  std::array<float, 3> min{};            // dequantisation ranges
  std::array<float, 3> step{};
  std::vector<std::uint8_t> packed;      // ceil(keys * width / 8) bytes; segmented: every segment's
  // Segmented channels: the channel's range (min, min + extent) and its segments, one per
  // segment of the clip's times (compressed_segments(times)).
  std::array<float, 3> extent{};
  std::vector<CompressedSegment> segments;
};

struct CompressedClipData {
  std::vector<Ticks> times;                // strictly increasing, at most 65535
  std::vector<CompressedChannel> channels; // 3 per joint: translation, rotation, scale
  std::vector<std::uint8_t> animated;      // per joint: 1 when a track of the source drove it
};

inline constexpr std::size_t kCompressedMaxTimes = 65535;
inline constexpr std::size_t kCompressedTimesPerWord = 32;
inline constexpr unsigned kCompressedMaxBits = 18;
inline constexpr std::size_t kCompressedSegmentLength = 32;  // time intervals a segment
inline constexpr unsigned kCompressedMaxStride = 5;          // samples at least every 32 times

// Segments of a clip of `times` times (none below two times).
constexpr std::size_t compressed_segments(std::size_t times) noexcept {
  return times < 2 ? 0 : (times - 2) / kCompressedSegmentLength + 1;
}
// Time intervals in segment s (32 but in the last), and the samples one of `stride` keeps:
// every 2^stride-th interval's start, and the segment's end.
constexpr std::size_t compressed_segment_intervals(std::size_t times, std::size_t s) noexcept {
  const std::size_t left = times - 1 - s * kCompressedSegmentLength;
  return left < kCompressedSegmentLength ? left : kCompressedSegmentLength;
}
constexpr std::size_t compressed_segment_samples(std::size_t intervals, unsigned stride) noexcept {
  return ((intervals + (std::size_t{1} << stride) - 1) >> stride) + 1;
}

// Bits of one key of channel c (0 translation, 1 rotation, 2 scale).
constexpr unsigned compressed_key_width(const std::array<std::uint8_t, 3>& bits, std::size_t channel) noexcept {
  return unsigned{bits[0]} + bits[1] + bits[2] + (channel % 3 == 1 ? 2u : 0u);
}

// The clip's content (a compressed clip), or std::invalid_argument for an uncompressed one.
CompressedClipData compressed_clip_data(const RuntimeClip& clip);

// A skeleton's rest pose (its joints' local matrices, decomposed) as compressed clips store
// constants. Clips made with it store each block of eight joints' channel that equals it bit for
// bit (their bone lengths, the joints they do not move) as nothing and read it here: make one per
// skeleton and give it to every clip of it (compress_model_clips and the native reader do). A
// clip's size_in_bytes does not count it: it is the skeleton's, 384 bytes per eight joints.
std::shared_ptr<const CompressedRestPose> compressed_rest_pose(std::span<const glm::mat4> rest_locals);

// Checks data and builds the clip; throws std::invalid_argument naming the channel, key or
// value that is wrong: no times or more than 65535, times not increasing or spanning 2^52 ticks
// (14 years) or more, a channel count that is not three per joint, a channel without keys or
// whose key times are not increasing indices into the table or skip a word of 32, a component
// of more than 18 bits,
// a uniform channel that is not a scale of x alone, packed bytes that are not
// ceil(keys * width / 8), a non-finite or negative range, a rotation range outside [-1, 1], a rest
// pose of another joint count. The clip plays the same with or without `rest`.
RuntimeClip make_compressed_clip(std::string name, Ticks duration, const CompressedClipData& data,
                                 std::shared_ptr<const CompressedRestPose> rest = nullptr);

}  // namespace marrow
