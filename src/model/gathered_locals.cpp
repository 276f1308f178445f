#include "gathered_locals.hpp"

#include <cstddef>

#include "marrow/runtime/local_to_model_job.hpp"

namespace marrow::detail {

void gather_locals(std::span<const std::uint32_t> sources, std::span<const TrsBlock* const> blocks,
                   std::span<const glm::mat4> matrices, std::span<const int> nodes, std::span<glm::mat4> out) {
  glm::mat4 lanes[kPoseLanes];  // the matrices of the block read last
  std::size_t loaded = ~std::size_t{0};
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::size_t node = nodes.empty() ? k : static_cast<std::size_t>(nodes[k]);
    const std::uint32_t v = sources[node];
    if (v == kLocalMatrix) {
      out[k] = matrices[node];
      continue;
    }
    const std::size_t block = v / kPoseLanes;
    if (block != loaded) {
      pose_to_matrices(std::span<const TrsBlock>(blocks[block], 1), lanes);
      loaded = block;
    }
    out[k] = lanes[v % kPoseLanes];
  }
}

}  // namespace marrow::detail
