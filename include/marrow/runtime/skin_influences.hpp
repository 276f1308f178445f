#pragma once
// S1: keeping a vertex's largest influences (ImportOptions::max_influences, and the asset API's
// four per vertex, T16).
#include <cstddef>
#include <cstdint>
#include <span>

namespace marrow {

// Reorders one vertex's (joint, weight) pairs so that its `keep` largest weights come first,
// largest first (ties: the earlier pair first; the order is otherwise kept), and clears the
// pairs after them (joint 0, weight 0). When a nonzero weight was cleared the kept weights are
// divided by their sum (when it is positive), so they sum to 1, and true is returned. joints
// and weights have the same size; keep >= the size changes nothing. No allocation.
bool keep_largest_influences(std::span<std::uint16_t> joints, std::span<float> weights, std::size_t keep) noexcept;

}  // namespace marrow
