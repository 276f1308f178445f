#pragma once
// Private to the glTF importer: the node graph checked (no cycles, one parent per node), every
// node's local and world transform over the WHOLE graph (skins may reach outside the selected
// scene, G4), and the selected scene flattened depth-first into bones under a synthetic root
// bone 0 (G1).
#include <cstdint>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"

namespace marrow::gltf {

struct SceneGraph {
  std::vector<std::uint32_t> parent;   // per node; kNone for a root of the node graph
  std::vector<glm::mat4> local;        // per node: matrix, or T * R * S
  std::vector<Trs> local_trs;          // per node: TRS as authored, or decomposed from the matrix
  std::vector<glm::mat4> world;        // per node, through every ancestor
  int scene = -1;                      // the scene flattened; -1: no scenes, all roots
  std::vector<int> node_to_bone;       // per node: bone index, -1 outside the scene
  std::vector<std::uint32_t> bone_to_node;  // per bone; bone 0 (synthetic root) is kNone
  std::vector<int> bone_parent;        // per bone; -1 for bone 0
};

// scene_option: -1 for the document's default scene (else scene 0). Throws ImportError:
// InvalidNodeGraph (a node with two parents, a cycle, a scene listing a node that has a parent
// or listing one twice), IndexOutOfRange (scene_option beyond the scenes), InvalidDocument
// (non-finite node transform).
SceneGraph build_scene_graph(const Document& document, int scene_option);

}  // namespace marrow::gltf
