#include "marrow/asset/skeletal_rig.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"

namespace marrow::asset {

void SkeletalRig::evaluate(const RigAnimation* animation, float seconds, std::span<glm::mat4> locals,
                           std::span<glm::mat4> worlds, std::span<TrackCursor> cursors) const {
  const std::size_t n = nodes.size();
  if (locals.size() != n || worlds.size() != n) {
    throw std::invalid_argument("SkeletalRig::evaluate: " + std::to_string(locals.size()) + " locals and " +
                                std::to_string(worlds.size()) + " worlds for " + std::to_string(n) + " nodes");
  }
  for (std::size_t i = 0; i < n; ++i) locals[i] = nodes[i].default_local;
  if (animation != nullptr) {
    // Outside its keys a track holds its first/last key (the sampler's rule); no clamp needed.
    sample_tracks(animation->tracks, ticks_from_seconds(seconds), cursors, locals);
  }
  // The one local-to-model job; nodes listed parents first (every loaded rig) compose in
  // place, others in `order` with locals as the scratch of the permutation.
  LocalToModelJob job;
  if (ordered_parents.empty()) {
    job.parents = parents;
    job.local_matrices = locals;
    job.models = worlds;
    job.run();
    return;
  }
  for (std::size_t k = 0; k < n; ++k) worlds[k] = locals[static_cast<std::size_t>(order[k])];
  job.parents = ordered_parents;
  job.local_matrices = worlds;  // in place: each local is read before its model is written
  job.models = worlds;
  job.run();
  for (std::size_t k = 0; k < n; ++k) locals[static_cast<std::size_t>(order[k])] = worlds[k];
  std::copy(locals.begin(), locals.end(), worlds.begin());
}

void SkeletalRig::palette(std::span<const glm::mat4> worlds, std::span<glm::mat4> out) const {
  SkinPaletteJob job;
  job.models = worlds;
  job.inverse_binds = inverse_binds;
  job.joints = bone_nodes;
  job.palette = out;
  throw_if_invalid(job.validate(), "SkeletalRig::palette");
  job.run();
}

void SkeletalRig::finish_hierarchy() {
  const std::size_t n = nodes.size();
  std::vector<std::vector<int>> children(n);
  int roots = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = nodes[i].parent;
    if (parent < 0) {
      ++roots;
      continue;
    }
    if (static_cast<std::size_t>(parent) >= n || static_cast<std::size_t>(parent) == i) {
      throw std::invalid_argument("skeleton node " + std::to_string(i) + ": parent " + std::to_string(parent) +
                                  " is not another node of " + std::to_string(n));
    }
    children[static_cast<std::size_t>(parent)].push_back(static_cast<int>(i));
  }
  if (n > 0 && roots != 1) {
    throw std::invalid_argument("skeleton: " + std::to_string(roots) + " root nodes, expected exactly one");
  }
  order.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (nodes[i].parent < 0) order.push_back(static_cast<int>(i));
  }
  for (std::size_t head = 0; head < order.size(); ++head) {
    for (int c : children[static_cast<std::size_t>(order[head])]) order.push_back(c);
  }
  if (order.size() != n) {
    throw std::invalid_argument("skeleton: " + std::to_string(n - order.size()) +
                                " nodes are not reachable from the root (a cycle of parents)");
  }
  parents.resize(n);
  bool parents_first = true;
  for (std::size_t i = 0; i < n; ++i) {
    parents[i] = nodes[i].parent;
    parents_first = parents_first && nodes[i].parent < static_cast<int>(i);
  }
  ordered_parents.clear();
  if (!parents_first) {
    std::vector<int> position(n);
    for (std::size_t k = 0; k < n; ++k) position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
    ordered_parents.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const int parent = nodes[static_cast<std::size_t>(order[k])].parent;
      ordered_parents[k] = parent < 0 ? -1 : position[static_cast<std::size_t>(parent)];
    }
  }
  std::vector<glm::mat4> locals(n);
  bind_worlds.resize(n);
  evaluate(nullptr, 0.f, locals, bind_worlds);
}

}  // namespace marrow::asset
