#pragma once
// Private: one channel as a segmented channel (compressed_clip_data.hpp), for compress_clip.
#include <cstdint>
#include <span>

#include <glm/vec4.hpp>

#include "marrow/runtime/offline/compressed_clip_data.hpp"

#include "key_reduction.hpp"

namespace marrow::detail {

// `source` holds the channel's value at every time of `times` (two or more; rotations x, y, z,
// w). Per segment: the dropped component (rotations: the largest at its smallest there), then,
// of every stride, the least precision whose samples, interpolated as the sampler does, stay
// within `tolerance` (channel units, channel_distance) of every source value of the segment;
// the stride of the fewest bits is kept. std::invalid_argument for a range too large to quantise.
CompressedChannel encode_segmented(ChannelKind kind, std::span<const std::int64_t> times, std::span<const glm::dvec4> source,
                                   double tolerance);

}  // namespace marrow::detail
