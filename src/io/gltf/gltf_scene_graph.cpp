#include "gltf_scene_graph.hpp"

#include <string>

#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::gltf {

namespace {

[[noreturn]] void fail(ImportErrorCode code, const std::string& message) { throw ImportError(code, message); }

glm::mat4 node_matrix(const Node& node) {
  glm::mat4 m;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) m[c][r] = node.matrix[static_cast<std::size_t>(c * 4 + r)];
  }
  return m;
}

void link_parents(const Document& doc, SceneGraph& g) {
  const std::size_t n = doc.nodes.size();
  g.parent.assign(n, kNone);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t child : doc.nodes[i].children) {
      if (child == i) fail(ImportErrorCode::InvalidNodeGraph, "node " + std::to_string(i) + " lists itself as a child");
      if (g.parent[child] != kNone) {
        fail(ImportErrorCode::InvalidNodeGraph, "node " + std::to_string(child) + " has two parents (nodes " +
                                                    std::to_string(g.parent[child]) + " and " + std::to_string(i) + ")");
      }
      g.parent[child] = i;
    }
  }
  // With one parent per node, a cycle is a chain that never reaches a root. Mark each node's
  // walk; meeting a node of the current walk again is a cycle.
  std::vector<std::uint8_t> state(n, 0);  // 0 unseen, 1 on the current walk, 2 reaches a root
  std::vector<std::uint32_t> walk;
  for (std::uint32_t start = 0; start < n; ++start) {
    walk.clear();
    std::uint32_t at = start;
    while (at != kNone && state[at] == 0) {
      state[at] = 1;
      walk.push_back(at);
      at = g.parent[at];
    }
    if (at != kNone && state[at] == 1) {
      fail(ImportErrorCode::InvalidNodeGraph, "node " + std::to_string(at) + " is its own ancestor (a cycle in children)");
    }
    for (std::uint32_t w : walk) state[w] = 2;
  }
}

void compute_transforms(const Document& doc, SceneGraph& g) {
  const std::size_t n = doc.nodes.size();
  g.local.resize(n);
  g.local_trs.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Node& node = doc.nodes[i];
    if (node.has_matrix) {
      g.local[i] = node_matrix(node);
      g.local_trs[i] = decompose_trs(g.local[i]);
    } else {
      const Trs trs{glm::vec3(node.translation[0], node.translation[1], node.translation[2]),
                    glm::quat(node.rotation[3], node.rotation[0], node.rotation[1], node.rotation[2]),
                    glm::vec3(node.scale[0], node.scale[1], node.scale[2])};
      g.local_trs[i] = trs;
      g.local[i] = compose_trs(trs);
    }
    if (!is_finite(g.local[i])) {
      fail(ImportErrorCode::InvalidDocument, "node " + std::to_string(i) + ": transform is not finite");
    }
  }
  // Worlds in an order where parents come first: walk each chain up to a computed node.
  g.world.resize(n);
  std::vector<std::uint8_t> done(n, 0);
  std::vector<std::uint32_t> chain;
  for (std::uint32_t i = 0; i < n; ++i) {
    chain.clear();
    for (std::uint32_t at = i; at != kNone && !done[at]; at = g.parent[at]) chain.push_back(at);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const std::uint32_t node = *it;
      const std::uint32_t p = g.parent[node];
      g.world[node] = p == kNone ? g.local[node] : g.world[p] * g.local[node];
      done[node] = 1;
    }
  }
}

void flatten_scene(const Document& doc, int scene_option, SceneGraph& g) {
  const std::size_t n = doc.nodes.size();
  std::vector<std::uint32_t> roots;
  if (scene_option >= 0 && static_cast<std::size_t>(scene_option) >= doc.scenes.size()) {
    fail(ImportErrorCode::IndexOutOfRange, "scene " + std::to_string(scene_option) + " requested, the file has " +
                                               std::to_string(doc.scenes.size()) + " scenes");
  }
  if (scene_option >= 0) {
    g.scene = scene_option;
  } else if (doc.scene != kNone) {
    g.scene = static_cast<int>(doc.scene);
  } else if (!doc.scenes.empty()) {
    g.scene = 0;
  }
  if (g.scene >= 0) {
    roots = doc.scenes[static_cast<std::size_t>(g.scene)].nodes;
  } else {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (g.parent[i] == kNone) roots.push_back(i);  // no scenes at all: every root node
    }
  }
  g.node_to_bone.assign(n, -1);
  g.bone_to_node = {kNone};
  g.bone_parent = {-1};
  // Depth-first, children in listed order, with an explicit stack (a hostile chain can be
  // arbitrarily deep). Parents get lower bone indices than their children.
  std::vector<std::pair<std::uint32_t, int>> stack;  // node, parent bone
  for (std::uint32_t root : roots) {
    if (g.parent[root] != kNone) {
      fail(ImportErrorCode::InvalidNodeGraph, "scene " + std::to_string(g.scene) + " lists node " + std::to_string(root) +
                                                  ", which is a child of node " + std::to_string(g.parent[root]));
    }
    if (g.node_to_bone[root] >= 0) {
      fail(ImportErrorCode::InvalidNodeGraph,
           "scene " + std::to_string(g.scene) + " lists node " + std::to_string(root) + " twice");
    }
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      const auto [node, parent_bone] = stack.back();
      stack.pop_back();
      const int bone = static_cast<int>(g.bone_to_node.size());
      g.node_to_bone[node] = bone;
      g.bone_to_node.push_back(node);
      g.bone_parent.push_back(parent_bone);
      const std::vector<std::uint32_t>& children = doc.nodes[node].children;
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.emplace_back(*it, bone);
    }
  }
}

}  // namespace

SceneGraph build_scene_graph(const Document& document, int scene_option) {
  SceneGraph g;
  link_parents(document, g);
  compute_transforms(document, g);
  flatten_scene(document, scene_option, g);
  return g;
}

}  // namespace marrow::gltf
