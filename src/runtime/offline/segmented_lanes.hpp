#pragma once
// Private: segmented channels (compressed_clip_data.hpp) in a compressed clip's storage: their
// checks, a block channel's lanes laid out as the sampling kernel reads them (SegmentedLanes),
// and back.
#include <cstddef>
#include <string>

#include "marrow/runtime/offline/compressed_clip_data.hpp"
#include "runtime/compressed_storage.hpp"

#include "compressed_parts.hpp"

namespace marrow::detail {

// Bytes of a segmented channel's samples in each segment, and in all.
std::size_t segment_bytes(const CompressedSegment& segment, std::size_t times, std::size_t s);
std::size_t segmented_bytes(const CompressedChannel& channel, std::size_t times);

// Throws std::invalid_argument (naming `where`) unless `channel` (index c: 3 * joint + kind) is a
// well-formed segmented channel of a clip of `times` times.
void check_segmented(const CompressedChannel& channel, std::size_t c, std::size_t times, const std::string& where);

// A block channel whose lanes in `lanes` read the segmented channels[lane]: their
// ranges and segments appended to s (s.segments set). The caller sets the other lanes' constant.
SegmentedLanes segmented_lanes(const CompressedChannel* const* channels, unsigned lanes, std::size_t times, CompressedParts& s);

// Lane `lane` (in sl.lanes) of a segmented block channel as a CompressedChannel.
CompressedChannel segmented_channel(const CompressedStorage& s, std::size_t times, const SegmentedLanes& sl, std::size_t lane);

}  // namespace marrow::detail
