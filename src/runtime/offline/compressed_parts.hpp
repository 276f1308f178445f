#pragma once
// Private: a compressed clip's storage while make_compressed_clip builds it, an array at a time,
// then packed into the one buffer the sampling kernels read (runtime/compressed_storage.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/compressed_storage.hpp"

namespace marrow::detail {

struct CompressedParts {
  std::int64_t first = 0;            // the first time
  std::size_t time_count = 0;
  TimeGrid grid;                     // the times when they lie on one (TimeView), else
  std::vector<std::int32_t> since;   // the times since the first, when they span less than 2^31 ticks
  std::vector<std::int64_t> wide;    // else the times
  std::vector<JointBlock> blocks;
  std::vector<ChannelLanes> animated;
  std::vector<ConstantLanes> constants;
  std::vector<PatchedLanes> patched;
  std::vector<KeyWord> words;
  std::vector<std::uint8_t> packed;  // with its padding
  std::vector<SegmentedLanes> segmented;
  std::vector<float> ranges;         // and the patched lanes' values; with its padding
  std::vector<std::uint32_t> starts;
  std::vector<std::uint8_t> segment_data;  // with its padding
  std::vector<std::uint8_t> animated_joints;
  std::shared_ptr<const CompressedRestPose> rest;
  std::size_t words_per_channel = 0, joints = 0, keys = 0, segments = 0;
};

// The parts in one buffer, each array aligned for its type. Throws std::invalid_argument when
// they exceed what 32-bit offsets and counts address.
std::shared_ptr<const CompressedStorage> pack(const CompressedParts& parts);

}  // namespace marrow::detail
