#pragma once
// Private: the memory layout of a compressed RuntimeClip (offline/clip_compression.hpp), as the
// sampling kernels read it. Built only by make_compressed_clip (from CompressedClipData, checked),
// so the kernels never re-check it.
//
// A clip's key times are one sorted table of ticks (`times`, N entries); every channel (joint j:
// 3j translation, 3j + 1 rotation, 3j + 2 scale) keeps a subset of them. Which ones is a bit set
// over the table, 32 entries a word, each word with the count of keys before it and where the
// nearest keys on either side of it are, so that the key pair around any time is found in a few
// instructions from one 8-byte word: no search, no per-instance state. Between two keys of a
// channel no whole word is skipped (the compressor adds a key where one would be), so those
// nearest keys lie in the neighbouring words: the kernels need only the 96 times around the
// sampled one. Channels with the same keys share one directory. A key's values are three integers
// of up to 18 bits (rotations: the smallest three components, then two bits naming the dropped
// one), packed back to back per channel and dequantised against the channel's range; two
// consecutive keys are read with one unaligned 16-byte load.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "bracket.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow::detail {

inline constexpr std::size_t kTimesPerWord = 32;
inline constexpr std::size_t kMaxCompressedTimes = 65535;  // time indices and ranks are 16-bit
// The clip's times span less: a time since a key is then exactly a double on the way to a float.
inline constexpr std::int64_t kMaxCompressedSpan = std::int64_t{1} << 52;

// A word of a channel's directory.
struct KeyWord {
  std::uint32_t bits;      // bit b: a key at time index 32 * word + b
  std::uint16_t rank;      // keys before this word
  std::uint8_t back;       // the last key before this word is at 32 * word - 1 - back (if any)
  std::uint8_t forward;    // the first key after it at 32 * word + 32 + forward (if any)
};
static_assert(sizeof(KeyWord) == 8);

// One channel (translation, rotation or scale) of the eight joints of a block, lane = joint % 8,
// when some lane has keys to find: its directories, keys and ranges.
struct alignas(32) ChannelLanes {
  std::uint32_t word[kPoseLanes];     // first word of the lane's directory
  std::uint32_t byte[kPoseLanes];     // first byte of the lane's keys in `packed`
  std::uint16_t count[kPoseLanes];    // keys (at least 1)
  // Component i of a key: `bits` bits at bit `shift` of the key. A uniform scale reads its x
  // field, and x's range, three times; a key's width is shift[2] + bits[2] (a rotation's two
  // bits of dropped index follow).
  std::uint8_t bits[3][kPoseLanes];   // [component][lane]
  std::uint8_t shift[3][kPoseLanes];
  // Dequantisation: component = min + q * step (rotation: of the three stored components).
  float min[3][kPoseLanes];
  float step[3][kPoseLanes];
};
static_assert(sizeof(ChannelLanes) == 320);

// A channel whose eight lanes each hold one key of no field bits, at every time: bone lengths
// that never change, unit scales. Kept as the values, without ranges or directories (a third of
// a ChannelLanes); the most common channel of a skeleton.
struct alignas(32) ConstantLanes {
  float value[3][kPoseLanes];            // each component's `min`
  std::uint16_t key_time[kPoseLanes];    // the one key's time index (compressed_clip_data gives it back)
  std::uint8_t dropped[kPoseLanes];      // rotation: the dropped component (0..3)
};
static_assert(sizeof(ConstantLanes) == 128);

// The identity's constant lanes, per channel: translation 0, rotation (0, 0, 0, 1) (the smallest
// three 0, w dropped), scale 1, each the one key at time index 0. A block channel that equals it
// bit for bit is stored as nothing (kIdentityChannel): unit scales, most of all.
inline constexpr ConstantLanes kIdentityLanes[3] = {
    ConstantLanes{},
    ConstantLanes{{}, {}, {3, 3, 3, 3, 3, 3, 3, 3}},
    ConstantLanes{{{1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}}, {}, {}},
};

// JointBlock::kind[c]: how channel c of the block is kept.
inline constexpr std::uint8_t kKeysChannel = 0;      // a ChannelLanes, CompressedStorage::animated()[index]
inline constexpr std::uint8_t kConstantChannel = 1;  // a ConstantLanes, CompressedStorage::constants()[index]
inline constexpr std::uint8_t kIdentityChannel = 2;  // kIdentityLanes[c]
inline constexpr std::uint8_t kRestChannel = 3;      // CompressedStorage::rest, the block's lanes of channel c
inline constexpr std::uint8_t kSegmentedChannel = 4; // a SegmentedLanes, CompressedStorage::segmented_lanes()[index]
inline constexpr std::uint8_t kPatchedChannel = 5;   // a PatchedLanes, CompressedStorage::patched()[index]

struct JointBlock {
  std::uint32_t index[3];
  std::uint8_t kind[3];
};

// A constant block channel whose lanes are the identity's or the rest's but for a few (the joints
// a pose turns): those lanes' values, 12 bytes each, over the base's lanes, instead of a 128-byte
// ConstantLanes. Every lane's one key is at time index 0, as the bases' are. Only clips whose
// every channel is a constant (CompressedStorage::pose) have them.
struct PatchedLanes {
  std::uint32_t values = 0;     // the lanes' values in CompressedStorage::ranges(): value[i] of the m-th lane at 3 m + i
  std::uint32_t base = 0;       // kRestChannel: the index of the rest's lanes (3 * block + channel)
  std::uint16_t dropped = 0;    // rotation: lane l's dropped component in bits 2 l and 2 l + 1
  std::uint8_t lanes = 0;       // the lanes of values of their own (bit l: lane l)
  std::uint8_t base_kind = 0;   // kIdentityChannel or kRestChannel
};
static_assert(sizeof(PatchedLanes) == 12);

// One channel of a block whose animated lanes are segmented (compressed_clip_data.hpp): no
// directory and no per-instance state; the samples around a time are found by shifts. Lanes
// outside `lanes` are constants, read as a constant block channel of kind `constant_kind`.
//
// Segment s of the channel is CompressedStorage::segment_data() from starts()[segments + s]:
// per lane of `lanes`, in lane order (`count` of them), the bytes low[3][count], extent[3][count],
// bits[3][count] and shape[count] (stride | dropped << 4), then each lane's samples, packed as
// keys without dropped bits, each lane from a byte of its own.
struct SegmentedLanes {
  std::uint8_t lanes = 0;
  std::uint8_t count = 0;
  std::uint8_t constant_kind = 0;
  std::uint32_t constant = 0;
  std::uint32_t range = 0;     // min[3][count], then extent[3][count], in CompressedStorage::ranges()
  std::uint32_t segments = 0;  // the first of its CompressedStorage::starts()
};
inline constexpr std::size_t kSegmentHeaderBytes = 10;  // per lane
inline constexpr std::size_t kSegmentLength = 32;      // time intervals a segment (kCompressedSegmentLength)
inline constexpr std::uint32_t kSegmentMaxStride = 5;  // kCompressedMaxStride
static_assert(kSegmentMaxStride < 8, "segment_run's tables have eight entries");

}  // namespace marrow::detail

namespace marrow {

// A skeleton's rest pose as the constant lanes its compressed clips would store (each joint's
// local T/R/S as one key at time index 0, encoded as compress_clip encodes a constant), block by
// block, channel by channel (lanes[3 * block + c]; padding lanes repeat the last joint). A block
// channel of a clip equal to it bit for bit is stored as nothing (kRestChannel) and read here:
// the bone lengths and unmoved joints every clip of a skeleton repeats. Immutable; shared by the
// clips of one skeleton (compressed_clip_data.hpp).
struct CompressedRestPose {
  std::vector<detail::ConstantLanes> lanes;
  std::size_t joints = 0;
};

}  // namespace marrow

namespace marrow::detail {

// Time i of a grid: first + floor((i * step + phase) / 2^16), step and phase in 2^-16 ticks.
inline std::int64_t grid_time(std::int64_t first, std::uint64_t step, std::uint32_t phase, std::size_t i) noexcept {
  return first + static_cast<std::int64_t>((i * step + phase) >> 16);
}

// A clip's key times, strictly increasing, in one of three forms:
//   - a grid (grid_time; no bytes a time): sampled clips, whose times are a rate's multiples
//     rounded to ticks;
//   - else, spanning less than 2^31 ticks (3.5 minutes): each time's ticks since the first
//     (`since`, 4 bytes a time);
//   - else each time as it is (`wide`, 8 bytes).
struct TimeView {
  const std::int32_t* since = nullptr;  // both null: the grid
  const std::int64_t* wide = nullptr;
  std::int64_t first = 0;
  std::size_t count = 0;
  std::uint64_t step = 0;  // the grid's
  std::uint32_t phase = 0;
  std::size_t size() const noexcept { return count; }
  std::int64_t at(std::size_t i) const noexcept {
    if (since != nullptr) return first + since[i];
    if (wide != nullptr) return wide[i];
    return grid_time(first, step, phase, i);
  }
};

// TimeView's grid (offline/time_grid.hpp finds one).
struct TimeGrid {
  std::uint64_t step = 0;
  std::uint32_t phase = 0;
};

// Where one array of a clip's storage lies in its buffer; an array whose length follows from
// other fields keeps only its offset (Placed).
template <class T>
struct Stored {
  std::uint32_t offset = 0;  // bytes from the buffer's start (aligned for T)
  std::uint32_t count = 0;
};
template <class T>
struct Placed {
  std::uint32_t offset = 0;
};

// Frees a buffer of CompressedStorage (aligned to kStorageAlignment).
inline constexpr std::size_t kStorageAlignment = 64;
struct AlignedFree {
  void operator()(std::byte* p) const noexcept { ::operator delete[](p, std::align_val_t{kStorageAlignment}); }
};

// CompressedStorage::time_form: TimeView's three forms.
inline constexpr std::uint8_t kGridTimes = 0, kShortTimes = 1, kWideTimes = 2;

// A compressed clip as the kernels read it: every array in one buffer (no allocation, vector or
// pointer of its own a piece; a short clip's fixed cost is this struct). Made by
// make_compressed_clip from its parts (offline/compressed_parts.hpp), immutable.
struct CompressedStorage {
  std::unique_ptr<std::byte[], AlignedFree> buffer;
  std::shared_ptr<const CompressedRestPose> rest;  // what kRestChannel blocks read (the skeleton's, not counted)
  std::int64_t first = 0;                // the first time
  std::uint64_t grid_step = 0;           // the times' grid (kGridTimes)
  Stored<ChannelLanes> animated_;        // the blocks' keyed channels
  Placed<ConstantLanes> constants_;
  Placed<PatchedLanes> patched_;
  Stored<SegmentedLanes> segmented_;     // the segmented block channels (kSegmentedChannel)
  Stored<std::uint8_t> segment_data_;    // then kPackedPadding zero bytes; the buffer's last array
  Placed<std::byte> times_;              // time_count int32 since the first (kShortTimes) or int64 (kWideTimes)
  Placed<JointBlock> blocks_;            // pose_block_count(joints); padding lanes repeat the last joint
  Placed<KeyWord> words_;                // every directory, words_per_channel words each
  Placed<std::uint8_t> packed_;          // every keyed channel's keys, then kPackedPadding zero bytes
  Placed<float> ranges_;                 // the segmented lanes' ranges and the patched lanes' values, then kPoseLanes
                                         // floats (the kernels read 8) when some channel is segmented
  Placed<std::uint32_t> starts_;         // per segmented block channel, per segment: its first byte in segment_data
  Placed<std::uint8_t> animated_joints_;  // per joint: 1 when a track of the source drove it
  std::uint32_t grid_phase = 0;
  std::uint32_t joints = 0;
  std::uint32_t keys = 0;                // over every channel (a segmented one: its samples)
  std::uint16_t time_count = 0;          // at most kMaxCompressedTimes
  std::uint16_t words_per_channel = 0;   // ceil(times / 32)
  std::uint8_t time_form = kGridTimes;
  bool pose = false;                     // patched channels, so every channel a constant: sampled apart
  std::uint8_t strides = 0;              // bit s: some segmented lane has stride s (derived by pack)

  template <class T>
  const T* at(std::uint32_t offset) const noexcept {
    return std::launder(reinterpret_cast<const T*>(buffer.get() + offset));
  }
  template <class T>
  const T* at(Placed<T> a) const noexcept {
    return at<T>(a.offset);
  }
  template <class T>
  std::span<const T> span(Stored<T> a) const noexcept {
    return {at<T>(a.offset), a.count};
  }
  TimeView times() const noexcept {
    if (time_form == kShortTimes) return TimeView{at<std::int32_t>(times_.offset), nullptr, first, time_count};
    if (time_form == kWideTimes) return TimeView{nullptr, at<std::int64_t>(times_.offset), first, time_count};
    return TimeView{nullptr, nullptr, first, time_count, grid_step, grid_phase};
  }
  std::span<const JointBlock> blocks() const noexcept { return {at(blocks_), pose_block_count(joints)}; }
  std::span<const ChannelLanes> animated() const noexcept { return span(animated_); }
  const ConstantLanes* constants() const noexcept { return at(constants_); }
  const PatchedLanes* patched() const noexcept { return at(patched_); }
  const KeyWord* words() const noexcept { return at(words_); }
  const std::uint8_t* packed() const noexcept { return at(packed_); }
  bool segmented() const noexcept { return segmented_.count != 0; }
  std::span<const SegmentedLanes> segmented_lanes() const noexcept { return span(segmented_); }
  const float* ranges() const noexcept { return at(ranges_); }
  const std::uint32_t* starts() const noexcept { return at(starts_); }
  const std::uint8_t* segment_data() const noexcept { return at<std::uint8_t>(segment_data_.offset); }
  const std::uint8_t* animated_joints() const noexcept { return at(animated_joints_); }
  std::size_t buffer_bytes() const noexcept { return std::size_t{segment_data_.offset} + segment_data_.count; }
};

// A block channel's constant lanes kept as such (every kind but kPatchedChannel: the clips with
// patched channels are sampled apart, CompressedStorage::pose).
inline const ConstantLanes& constant_lanes(const CompressedStorage& s, std::uint8_t kind, std::uint32_t index, int c) noexcept {
  if (kind == kIdentityChannel) return kIdentityLanes[c];
  if (kind == kRestChannel) return s.rest->lanes[index];
  return s.constants()[index];
}
inline const ConstantLanes& constant_lanes(const CompressedStorage& s, const JointBlock& block, int c) noexcept {
  return constant_lanes(s, block.kind[c], block.index[c], c);
}

// A patched channel's lanes, made in `out`: its base's, then its own lanes' values over them.
inline const ConstantLanes& patched_lanes(const CompressedStorage& s, const PatchedLanes& p, int c, ConstantLanes& out) noexcept {
  out = constant_lanes(s, p.base_kind, p.base, c);
  const float* values = s.ranges() + p.values;
  for (unsigned lanes = p.lanes; lanes != 0; lanes &= lanes - 1, values += 3) {
    const auto l = static_cast<unsigned>(std::countr_zero(lanes));
    for (std::size_t i = 0; i < 3; ++i) out.value[i][l] = values[i];
    out.key_time[l] = 0;
    out.dropped[l] = static_cast<std::uint8_t>(p.dropped >> (2 * l) & 3u);
  }
  return out;
}

// A block channel's constant lanes, whichever way they are kept (a patched channel's in `scratch`).
inline const ConstantLanes& constant_lanes(const CompressedStorage& s, std::uint8_t kind, std::uint32_t index, int c,
                                           ConstantLanes& scratch) noexcept {
  if (kind == kPatchedChannel) return patched_lanes(s, s.patched()[index], c, scratch);
  return constant_lanes(s, kind, index, c);
}
inline const ConstantLanes& constant_lanes(const CompressedStorage& s, const JointBlock& block, int c, ConstantLanes& scratch) noexcept {
  return constant_lanes(s, block.kind[c], block.index[c], c, scratch);
}

// A sampling context's memory of one block of a compressed clip (sampling_job.hpp): per channel
// and lane, the positions [lo, hi) over which its keys stay the same, what the blend factor
// needs between them, and those keys decoded into the bracket the interpolation reads. A
// position is the clip's time index at or before the time, or -1 when the time precedes every
// time of the clip. A run decodes a lane again only when the position left its range (forward
// play: when the time passes a kept key), so its result is the same as decoding every run.
struct alignas(64) CachedKeys {
  std::int32_t lo[3][kPoseLanes];        // lo < 0: a hold of the first key; hi == kNoEnd: of the last
  std::int32_t hi[3][kPoseLanes];
  double start[3][kPoseLanes];           // times[lo] - times[0], exact below 2^52 (0 for a hold)
  float inv_span[3][kPoseLanes];         // 1 / (times[hi] - times[lo]); 0 for a hold
  BracketBlock bracket;
};
static_assert(sizeof(CachedKeys) == 1280);  // 160 bytes a joint (sampling_job.hpp, docs/runtime.md)
inline constexpr std::int32_t kNoEnd = 0x7fffffff;

// Ranges no position is in: every channel decoded at the next run.
inline void forget(CachedKeys& keys) noexcept {
  for (int c = 0; c < 3; ++c) {
    for (std::size_t l = 0; l < kPoseLanes; ++l) keys.lo[c][l] = kNoEnd, keys.hi[c][l] = -1;
  }
}

inline constexpr std::size_t kPackedPadding = 16;
// Per component: two keys, 2 * (3 * 18 + 2), and the shift into the first byte (7) fit in the
// 16 bytes loaded.
inline constexpr unsigned kMaxKeyBits = 18;

}  // namespace marrow::detail
