#include "marrow/runtime/palette_scale.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace marrow {

PaletteScale classify_palette_scale(std::span<const glm::mat4> palette) noexcept {
  bool rigid = true;
  for (const glm::mat4& m : palette) {
    const glm::vec3 c0(m[0]), c1(m[1]), c2(m[2]);
    const float l0 = glm::dot(c0, c0), l1 = glm::dot(c1, c1), l2 = glm::dot(c2, c2);
    const float d01 = glm::dot(c0, c1), d02 = glm::dot(c0, c2), d12 = glm::dot(c1, c2);
    const float largest = std::max(l0, std::max(l1, l2));
    const float tolerance = kPaletteScaleTolerance * largest;
    // Written so that a NaN fails every test (non-uniform); an all-zero matrix is uniform.
    const bool conformal = std::abs(l0 - l1) <= tolerance && std::abs(l0 - l2) <= tolerance &&
                           std::abs(l1 - l2) <= tolerance && std::abs(d01) <= tolerance &&
                           std::abs(d02) <= tolerance && std::abs(d12) <= tolerance && largest <= 3.0e38f;
    if (!conformal) return PaletteScale::NonUniform;
    // Rigid: unit columns and a right-handed frame (a mirror needs a scale part in DQS).
    rigid = rigid && std::abs(largest - 1.f) <= kPaletteScaleTolerance &&
            std::abs(std::min(l0, std::min(l1, l2)) - 1.f) <= kPaletteScaleTolerance &&
            glm::dot(glm::cross(c0, c1), c2) > 0.f;
  }
  return rigid ? PaletteScale::Rigid : PaletteScale::Uniform;
}

}  // namespace marrow
