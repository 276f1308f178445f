#pragma once
// Private: whether a compressed clip's times lie exactly on a grid (compressed_storage.hpp's
// TimeView): time i = first + floor((i * step + phase) / 2^16), step and phase in 2^-16 ticks.
// A clip sampled at a rate has its times at the rate's multiples rounded to ticks (1/30 s is
// 333,333.3 ticks): such a grid, stored in 12 bytes instead of 4 a time.
#include <optional>
#include <span>

#include "marrow/core/ticks.hpp"
#include "runtime/compressed_storage.hpp"

namespace marrow::detail {

// The grid of `times` (strictly increasing, spanning less than 2^31 ticks), or none.
std::optional<TimeGrid> find_time_grid(std::span<const Ticks> times);

}  // namespace marrow::detail
