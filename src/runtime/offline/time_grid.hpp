#pragma once
// Private: whether a compressed clip's times lie exactly on a grid (compressed_storage.hpp's
// TimeView): time i = first + floor((i * step + phase) / 2^16), step and phase in 2^-16 ticks.
// A clip sampled at a rate has its times at the rate's multiples rounded to ticks (1/30 s is
// 333,333.3 ticks): such a grid, stored in 12 bytes instead of 4 a time.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "marrow/core/ticks.hpp"
#include "runtime/compressed_storage.hpp"

namespace marrow::detail {

// The grid of `times` (strictly increasing, spanning less than 2^31 ticks), or none.
std::optional<TimeGrid> find_time_grid(std::span<const Ticks> times);

// The compressor's time table on a grid, when the source's key times are one up to noise: float
// seconds rounded to ticks, or two tracks ending a tick apart. `times` are the keys' distinct
// times, sorted; `least_key_gap` the least interval between two keys of one track that differ. Returns the grid's
// times from the first to the last, a rate's multiples rounded to ticks, when
//   - the grid has no more times than `times`,
//   - every time lies within kGridNoise of an interval from a time of the grid,
//   - no track has two keys within half an interval (a step must keep its two times);
// else none. The compressor measures the clip at the source's times too.
inline constexpr double kGridNoise = 1e-3;
std::optional<std::vector<std::int64_t>> near_grid(std::span<const std::int64_t> times, std::int64_t least_key_gap);

}  // namespace marrow::detail
