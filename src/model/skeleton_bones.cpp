#include "marrow/model/skeleton_bones.hpp"

#include <algorithm>

namespace marrow {

namespace {

bool has_vertices(const Model& model) {
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) {
      if (part.vertex_count() > 0) return true;
    }
  }
  return false;
}

// The main animated hierarchy of a model without skins or vertices (see the header).
std::vector<std::uint8_t> animated_hierarchy(const Model& model) {
  const std::size_t n = model.nodes.size();
  std::vector<std::uint8_t> animated(n, 0);
  bool any = false;
  for (const ModelAnimation& a : model.animations) {
    for (const BoneTrack& t : a.scene_clip.tracks) {
      if (t.bone_index > 0 && static_cast<std::size_t>(t.bone_index) < n && !t.keys.empty()) {
        animated[static_cast<std::size_t>(t.bone_index)] = 1;
        any = true;
      }
    }
  }
  if (!any) std::fill(animated.begin() + (n > 0 ? 1 : 0), animated.end(), std::uint8_t{1});  // a still file: every node
  // Animated nodes per subtree; parents precede children, so one backward pass sums them.
  std::vector<std::size_t> count(n, 0);
  for (std::size_t b = n; b-- > 0;) {
    count[b] += animated[b];
    const int parent = model.nodes[b].parent;
    if (parent >= 0) count[static_cast<std::size_t>(parent)] += count[b];
  }
  // Walk down from the root through containers (nodes no clip moves) that hold animated nodes
  // in one child only. At a container holding several animated trees (a skeleton beside
  // cameras, lights and their targets), the tree with the most animated nodes is the skeleton;
  // a node some clip moves is the skeleton's root (or its pivot chain).
  std::size_t top = 0;
  while (animated[top] == 0) {
    std::size_t best = 0;  // 0: no child holds an animated node
    for (std::size_t c = top + 1; c < n; ++c) {
      if (model.nodes[c].parent == static_cast<int>(top) && count[c] > 0 && (best == 0 || count[c] > count[best])) best = c;
    }
    if (best == 0) break;
    top = best;
  }
  std::vector<std::uint8_t> mask(n, 0);
  if (top > 0) mask[top] = 1;
  for (std::size_t b = top + 1; b < n; ++b) {
    const int parent = model.nodes[b].parent;
    if (parent >= 0 && (static_cast<std::size_t>(parent) == top || mask[static_cast<std::size_t>(parent)])) mask[b] = 1;
  }
  return mask;
}

}  // namespace

std::vector<std::uint8_t> skeleton_bones(const Model& model) {
  const std::size_t n = model.nodes.size();
  if (model.skins.empty()) {
    if (!has_vertices(model)) return animated_hierarchy(model);
    std::vector<std::uint8_t> mask(n, 1);
    if (n > 0) mask[0] = 0;
    return mask;
  }
  std::vector<std::uint8_t> mask(n, 0);
  for (const Skin& skin : model.skins) {
    for (int bone : skin.palette_to_scene) {
      if (bone > 0 && static_cast<std::size_t>(bone) < n) mask[static_cast<std::size_t>(bone)] = 1;
    }
  }
  return mask;
}

}  // namespace marrow
