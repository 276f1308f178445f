#include "marrow/runtime/joint_mask.hpp"

#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"

namespace marrow {

std::vector<float> subtree_mask(std::span<const int> parents, int root, float inside, float outside) {
  const std::size_t n = parents.size();
  if (root < 0 || static_cast<std::size_t>(root) >= n) {
    throw std::out_of_range("subtree_mask: root " + std::to_string(root) + " is outside a skeleton of " +
                            std::to_string(n) + " joints");
  }
  if (!(inside >= 0.f && is_finite(inside)) || !(outside >= 0.f && is_finite(outside))) {
    throw std::invalid_argument("subtree_mask: the inside and outside weights must be finite and >= 0");
  }
  for (std::size_t j = 0; j < n; ++j) {
    if (parents[j] >= static_cast<long long>(j)) {
      throw std::invalid_argument("subtree_mask: joint " + std::to_string(j) + " has parent " +
                                  std::to_string(parents[j]) + ", not before it");
    }
  }
  // Parents precede their children, so one forward pass from the root marks the subtree, and
  // no joint before the root can be in it.
  const auto r = static_cast<std::size_t>(root);
  std::vector<unsigned char> in(n, 0);
  std::vector<float> mask(n, outside);
  in[r] = 1;
  mask[r] = inside;
  for (std::size_t j = r + 1; j < n; ++j) {
    if (parents[j] >= 0 && in[static_cast<std::size_t>(parents[j])] != 0) {
      in[j] = 1;
      mask[j] = inside;
    }
  }
  return mask;
}

}  // namespace marrow
