#pragma once
// Private to the Animator: its hierarchies composed from local matrices with THE local-to-model
// job. The model was validated, so parents precede their children and sizes match.
#include <cstddef>
#include <limits>
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/local_to_model_job.hpp"

namespace marrow::detail {

inline void compose(std::span<const int> parents, std::span<const glm::mat4> locals, std::span<const glm::mat4> prefixes,
                    std::span<glm::mat4> out, std::size_t from = 0,
                    std::size_t to = std::numeric_limits<std::size_t>::max()) {
  LocalToModelJob job;
  job.parents = parents;
  job.local_matrices = locals;
  job.root_prefix = prefixes;
  job.models = out;
  job.from = from;
  job.to = to;
  job.indices_checked = true;  // a validated model's
  job.run();
}

}  // namespace marrow::detail
