// find_time_grid and near_grid (time_grid.hpp).
#include "time_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace marrow::detail {

namespace {

constexpr std::int64_t kOne = std::int64_t{1} << 16;  // a tick, in the grid's units

// The phases that put every time on the grid of this step: time i needs
// d_i * 2^16 <= i * step + phase < (d_i + 1) * 2^16 (d_i its ticks since the first), and
// 0 <= phase < 2^16. Returns the least, or none.
std::optional<std::uint32_t> phase_for(std::span<const Ticks> times, std::int64_t step) {
  std::int64_t low = 0, high = kOne;
  for (std::size_t i = 1; i < times.size() && low < high; ++i) {
    const std::int64_t d = times[i].count() - times[0].count();
    const std::int64_t at = static_cast<std::int64_t>(i) * step;
    low = std::max(low, d * kOne - at);
    high = std::min(high, (d + 1) * kOne - at);
  }
  if (low >= high) return std::nullopt;
  return static_cast<std::uint32_t>(low);
}

}  // namespace

std::optional<TimeGrid> find_time_grid(std::span<const Ticks> times) {
  const std::size_t n = times.size();
  if (n < 2) return TimeGrid{};
  const std::int64_t span = times.back().count() - times.front().count();
  if (span <= 0 || span > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
  // The last time fixes the step within a tick over n - 1 steps: (n - 1) * step lies in
  // (span - 1, span + 1] ticks. Every candidate of that range is tried, from the middle out
  // (about 2^17 / (n - 1) of them, each a pass over the times that stops at the first misfit).
  const auto steps = static_cast<std::int64_t>(n - 1);
  const std::int64_t lo = ((span - 1) * kOne) / steps, hi = ((span + 1) * kOne + steps - 1) / steps;
  const std::int64_t mid = (span * kOne + steps / 2) / steps;
  const auto fits = [&](std::int64_t step) -> std::optional<TimeGrid> {
    if (step < lo || step > hi || step <= 0) return std::nullopt;
    if (const std::optional<std::uint32_t> phase = phase_for(times, step)) return TimeGrid{static_cast<std::uint64_t>(step), *phase};
    return std::nullopt;
  };
  for (std::int64_t k = 0; mid - k >= lo || mid + k <= hi; ++k) {
    if (const auto grid = fits(mid - k)) return grid;
    if (k > 0)
      if (const auto grid = fits(mid + k)) return grid;
  }
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> near_grid(std::span<const std::int64_t> times, std::int64_t least_key_gap) {
  const std::size_t n = times.size();
  if (n < 3) return std::nullopt;
  const std::int64_t span = times.back() - times.front();
  if (span <= 0 || span > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
  // The interval: the median of the times' differences (noise and a stray time do not move it).
  std::vector<std::int64_t> gaps(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) gaps[i] = times[i + 1] - times[i];
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  const double interval = static_cast<double>(gaps[gaps.size() / 2]);
  const auto steps = static_cast<std::int64_t>(std::llround(static_cast<double>(span) / interval));
  if (steps < 1 || static_cast<std::size_t>(steps) + 1 > n) return std::nullopt;
  if (static_cast<double>(least_key_gap) < interval / 2) return std::nullopt;  // (no such keys: the most an int64 holds)
  // Phase 2^15 (the rate's multiples rounded to the nearest tick), the least step that ends on
  // the last time.
  const std::int64_t step = (span * kOne - kOne / 2 + steps - 1) / steps;
  std::vector<std::int64_t> grid(static_cast<std::size_t>(steps) + 1);
  for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = grid_time(times.front(), static_cast<std::uint64_t>(step), static_cast<std::uint32_t>(kOne / 2), i);
  if (grid.back() != times.back()) return std::nullopt;
  const double noise = kGridNoise * static_cast<double>(span) / static_cast<double>(steps);
  std::size_t g = 0;
  for (const std::int64_t t : times) {
    while (g + 1 < grid.size() && grid[g + 1] <= t) ++g;
    const std::int64_t off = std::min(t - grid[g], g + 1 < grid.size() ? grid[g + 1] - t : t - grid[g]);
    if (static_cast<double>(off) > noise) return std::nullopt;
  }
  return grid;
}

}  // namespace marrow::detail
