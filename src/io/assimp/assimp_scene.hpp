#pragma once
// Private to the Assimp importer: the aiNode tree flattened depth-first (parents before
// children), with every node's local and world transform in glm's column-major convention and a
// name lookup (Assimp links bones and animation channels to nodes by name only).
#include <assimp/matrix4x4.h>
#include <assimp/scene.h>

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::assimp {

// aiMatrix4x4 is row-major (a1..a4 is the first ROW); glm is column-major: out[c][r] = m[r][c].
glm::mat4 to_glm(const aiMatrix4x4& m) noexcept;

struct NodeTable {
  std::vector<const aiNode*> nodes;  // depth-first preorder; node i is bone i + 1
  std::vector<int> parent;           // per node: its parent's index, -1 for the root
  std::vector<std::string> names;
  std::vector<glm::mat4> local;  // mTransformation
  std::vector<Trs> local_trs;    // local decomposed (the bind value of unanimated channels)
  std::vector<glm::mat4> world;  // through every ancestor, at rest

  // The first node (depth-first) with that name, or -1. Counts a lookup of a name several
  // nodes share in the diagnostic "ambiguous-node-name".
  int find(const aiString& name, std::vector<Diagnostic>& diagnostics) const;

  std::unordered_map<std::string, int> by_name;
  std::unordered_map<std::string, int> name_count;
};

// Throws ImportError: ExternalImporter (no root node), LimitExceeded (more nodes than
// limits.max_nodes, checked while walking, before the tables grow), InvalidDocument (a node
// transform that is not finite, a node reached twice).
NodeTable build_node_table(const aiScene& scene, const ImportLimits& limits);

}  // namespace marrow::assimp
