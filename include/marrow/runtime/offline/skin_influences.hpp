#pragma once
// S1: keeping a vertex's largest influences (ImportOptions::max_influences, and the asset API's
// four per vertex, T16), and when importers report weights as renormalised.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

namespace marrow {

// True when a vertex's weights, summing to `sum`, are further from 1 than exporters' rounding
// goes: the importers divide them by the sum and count the vertex in a skin-weights-renormalized
// diagnostic.
inline bool weights_need_renormalising(float sum) noexcept { return std::fabs(sum - 1.f) > 2e-3f; }

// Reorders one vertex's (joint, weight) pairs so that its `keep` largest weights come first,
// largest first (ties: the earlier pair first; the order is otherwise kept), and clears the
// pairs after them (joint 0, weight 0). When a nonzero weight was cleared the kept weights are
// divided by their sum (when it is positive), so they sum to 1, and true is returned. joints
// and weights have the same size; keep >= the size changes nothing. No allocation.
bool keep_largest_influences(std::span<std::uint16_t> joints, std::span<float> weights, std::size_t keep) noexcept;

}  // namespace marrow
