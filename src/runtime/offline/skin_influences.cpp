#include "marrow/runtime/offline/skin_influences.hpp"

#include <algorithm>

namespace marrow {

bool keep_largest_influences(std::span<std::uint16_t> joints, std::span<float> weights, std::size_t keep) noexcept {
  const std::size_t n = std::min(joints.size(), weights.size());
  if (keep >= n) return false;
  // A stable selection: the largest of the rest is rotated to the front of the rest.
  for (std::size_t i = 0; i < keep; ++i) {
    std::size_t best = i;
    for (std::size_t k = i + 1; k < n; ++k) {
      if (weights[k] > weights[best]) best = k;
    }
    std::rotate(weights.begin() + static_cast<std::ptrdiff_t>(i), weights.begin() + static_cast<std::ptrdiff_t>(best),
                weights.begin() + static_cast<std::ptrdiff_t>(best) + 1);
    std::rotate(joints.begin() + static_cast<std::ptrdiff_t>(i), joints.begin() + static_cast<std::ptrdiff_t>(best),
                joints.begin() + static_cast<std::ptrdiff_t>(best) + 1);
  }
  bool dropped = false;
  for (std::size_t k = keep; k < n; ++k) {
    dropped = dropped || weights[k] != 0.f;
    weights[k] = 0.f;
    joints[k] = 0;
  }
  if (!dropped) return false;
  float sum = 0.f;
  for (std::size_t k = 0; k < keep; ++k) sum += weights[k];
  if (sum > 0.f) {
    for (std::size_t k = 0; k < keep; ++k) weights[k] /= sum;
  }
  return true;
}

}  // namespace marrow
