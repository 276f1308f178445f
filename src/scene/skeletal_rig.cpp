#include "marrow/scene/skeletal_rig.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace marrow::scene {

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
  for (int i : order) {
    const auto node = static_cast<std::size_t>(i);
    const int parent = nodes[node].parent;
    worlds[node] = parent < 0 ? locals[node] : worlds[static_cast<std::size_t>(parent)] * locals[node];
  }
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
}

}  // namespace marrow::scene
