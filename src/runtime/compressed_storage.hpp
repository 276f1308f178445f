#pragma once
// Private: the memory layout of a compressed RuntimeClip (clip_compression.hpp), as the sampling
// kernels read it. Built only by build_compressed_storage (from CompressedClipData, checked), so
// the kernels never re-check it.
//
// A clip's key times are one sorted table of ticks (`times`, N entries); every channel (joint j:
// 3j translation, 3j + 1 rotation, 3j + 2 scale) keeps a subset of them. Which ones is a bit set
// over the table, 64 entries a word, each word with the count of keys before it and the time
// indices of the nearest keys on either side of it, so that the key pair around any time is
// found in a few instructions from the word alone: no search, no per-instance state. Channels
// with the same keys share one directory. A key's values are three integers of up to 18 bits
// (rotations: the smallest three components, then two bits naming the dropped one), packed
// back to back per channel and dequantised against the channel's range; a key is read with one
// unaligned 64-bit load, so no key may be wider than 57 bits.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "marrow/runtime/local_pose.hpp"

namespace marrow::detail {

inline constexpr std::size_t kTimesPerWord = 64;
inline constexpr std::size_t kMaxCompressedTimes = 65535;  // time indices and ranks are 16-bit

// A word of a channel's directory: the bits in `bits`, the rest in `links` (apart, so that
// neither pads the other).
struct WordLinks {
  std::uint16_t rank;  // keys before this word
  std::uint16_t prev;  // time index of the last key before this word (0 when none)
  std::uint16_t next;  // time index of the first key after this word (the last key when none)
};
static_assert(sizeof(WordLinks) == 6);

// Channel c (0 translation, 1 rotation, 2 scale) of the eight joints of a block, lane = joint % 8.
struct alignas(32) JointBlock {
  std::uint32_t word[3][kPoseLanes];     // first word of the channel's directory
  std::uint32_t byte[3][kPoseLanes];     // first byte of the channel's keys in `packed`
  std::uint16_t count[3][kPoseLanes];    // keys (at least 1)
  // Component i of a key: `bits` bits at bit `shift` of the key. A uniform scale reads its x
  // field, and x's range, three times; a key's width is shift[2] + bits[2] (a rotation's two
  // bits of dropped index follow).
  std::uint8_t bits[3][3][kPoseLanes];   // [channel][component][lane]
  std::uint8_t shift[3][3][kPoseLanes];
  // Dequantisation: component = min + q * step (rotation: of the three stored components).
  float min[3][3][kPoseLanes];
  float step[3][3][kPoseLanes];
};
static_assert(sizeof(JointBlock) == 960);

struct CompressedStorage {
  std::vector<std::int64_t> times;     // strictly increasing; last - first fits int64
  std::vector<JointBlock> blocks;      // pose_block_count(joints); padding lanes repeat the last joint
  std::vector<std::uint64_t> word_bits;  // every directory, words_per_channel words each: bit b of
  std::vector<WordLinks> word_links;     // word w is a key at time index 64 w + b (then one more:
                                         // a word's links are read with 8-byte loads)
  std::vector<std::uint8_t> packed;    // every channel's keys, then kPackedPadding zero bytes
  std::size_t words_per_channel = 0;   // ceil(times / 64)
  std::size_t joints = 0;
  std::size_t keys = 0;                // over every channel
};

inline constexpr std::size_t kPackedPadding = 8;
inline constexpr unsigned kMaxKeyBits = 18;  // per component: 3 * 18 + 2 + 7 (the shift) <= 64

}  // namespace marrow::detail
