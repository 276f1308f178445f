#pragma once
// Private to the Assimp importer: the skins of the skinned mesh instances.
//   - A mesh's joints are its bones' nodes plus every node on the parent chain between two of
//     them (FBX pivot helpers, Collada non-joint nodes), so no joint chain leaves the set and
//     re-enters it; ordered breadth-first from the root joints (depth-first node order among
//     siblings).
//   - Inverse binds: aiBone::mOffsetMatrix for bones, inverse(rest world) for added nodes.
//   - Root prefix P = inverse(W_meshNode) * W_parent (full rest world of the root joint's parent
//     node), so palette = inverse(W_meshNode) * W_joint * offset: the glTF joint matrix, and a
//     vertex drawn with its node's transform lands at W_joint * offset * v (Assimp's convention).
//   - Mesh instances on nodes with the same world transform whose shared bones have the same
//     offsets share one Skin (Assimp splits one Collada controller or FBX skin per material),
//     as long as the union stays within max_bones.
//   - More than max_bones joints: that mesh loads static ("palette-limit-loaded-static", T3);
//     a bone naming no node, a non-finite offset or a singular mesh node also load it static.
#include <assimp/scene.h>

#include <vector>

#include "assimp_scene.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/model/skin.hpp"

namespace marrow::assimp {

struct MeshInstance {
  int node = 0;       // NodeTable index
  unsigned mesh = 0;  // aiScene::mMeshes index
};

struct SkinAssignment {
  int skin = -1;                     // index into BuiltSkins::skins, -1: the instance is static
  std::vector<int> bone_to_palette;  // per aiBone of the mesh: its joint's palette index
};

struct BuiltSkins {
  std::vector<marrow::Skin> skins;        // meshes left empty for the caller
  std::vector<SkinAssignment> instances;  // per MeshInstance
};

BuiltSkins build_skins(const aiScene& scene, const NodeTable& nodes, const std::vector<MeshInstance>& instances,
                       int max_bones, std::vector<Diagnostic>& diagnostics);

}  // namespace marrow::assimp
