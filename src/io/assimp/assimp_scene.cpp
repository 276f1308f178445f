#include "assimp_scene.hpp"

#include <string>
#include <unordered_set>
#include <utility>

#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::assimp {

glm::mat4 to_glm(const aiMatrix4x4& m) noexcept {
  glm::mat4 out;
  for (unsigned r = 0; r < 4; ++r) {
    for (unsigned c = 0; c < 4; ++c) out[static_cast<int>(c)][static_cast<int>(r)] = m[r][c];
  }
  return out;
}

int NodeTable::find(const aiString& name, std::vector<Diagnostic>& diagnostics) const {
  const std::string key(name.C_Str(), name.length);
  const auto it = by_name.find(key);
  if (it == by_name.end()) return -1;
  if (const auto count = name_count.find(key); count != name_count.end() && count->second > 1) {
    add_diagnostic(diagnostics, DiagnosticCode::AmbiguousNodeName,
                   "'" + key + "' names " + std::to_string(count->second) + " nodes; the first (depth-first) is used");
  }
  return it->second;
}

NodeTable build_node_table(const aiScene& scene, const ImportLimits& limits) {
  if (scene.mRootNode == nullptr) {
    throw ImportError(ImportErrorCode::ExternalImporter, "assimp: the scene has no root node");
  }
  NodeTable table;
  // An explicit stack: a hostile file may nest nodes deeper than the call stack allows.
  std::vector<std::pair<const aiNode*, int>> stack{{scene.mRootNode, -1}};
  std::unordered_set<const aiNode*> seen;
  while (!stack.empty()) {
    const auto [node, parent] = stack.back();
    stack.pop_back();
    if (table.nodes.size() >= limits.max_nodes) {
      throw ImportError(ImportErrorCode::LimitExceeded,
                        "more than " + std::to_string(limits.max_nodes) + " nodes (ImportLimits::max_nodes)");
    }
    if (!seen.insert(node).second) {
      throw ImportError(ImportErrorCode::InvalidDocument,
                        "node '" + std::string(node->mName.C_Str()) + "' is reached twice in the node tree");
    }
    const int index = static_cast<int>(table.nodes.size());
    table.nodes.push_back(node);
    table.parent.push_back(parent);
    std::string name(node->mName.C_Str(), node->mName.length);
    const glm::mat4 local = to_glm(node->mTransformation);
    if (!is_finite(local)) {
      throw ImportError(ImportErrorCode::InvalidDocument,
                        "node " + std::to_string(index) + " '" + name + "': transform is not finite");
    }
    table.local.push_back(local);
    table.local_trs.push_back(decompose_trs(local));
    table.world.push_back(parent < 0 ? local : table.world[static_cast<std::size_t>(parent)] * local);
    table.by_name.emplace(name, index);
    ++table.name_count[name];
    table.names.push_back(std::move(name));
    // Children pushed last-first so they pop in file order (depth-first preorder).
    for (unsigned c = node->mNumChildren; c-- > 0;) {
      if (node->mChildren == nullptr || node->mChildren[c] == nullptr) continue;
      stack.emplace_back(node->mChildren[c], index);
    }
  }
  return table;
}

}  // namespace marrow::assimp
