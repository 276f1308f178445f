#pragma once
// Private: THE key search of every sampler (track_sampler.cpp, the sampling job). Index k of
// the last key with time(k) <= t, clamped to [0, n - 1], for n > 0 keys sorted by time.
// `hint` is where the previous search ended: forward play moves at most a key or two per
// frame, so a few steps from it are tried before a binary search. The result never depends on
// the hint.
#include <cstddef>

#include "marrow/core/ticks.hpp"

namespace marrow::detail {

template <class TimeOf>
inline std::size_t find_key_index(std::size_t n, const TimeOf& time_of, Ticks t, std::size_t hint) noexcept {
  std::size_t k = hint < n ? hint : 0;
  if (time_of(k) <= t) {
    for (int steps = 0; steps < 4; ++steps) {
      if (k + 1 >= n || time_of(k + 1) > t) return k;
      ++k;
    }
  }
  // Jump: the first key after t, then one back (0 when t precedes every key).
  std::size_t lo = 0, count = n;
  while (count > 0) {
    const std::size_t half = count / 2;
    if (time_of(lo + half) <= t) {
      lo += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return lo == 0 ? 0 : lo - 1;
}

}  // namespace marrow::detail
