#pragma once
// Private to the glTF importer: animations -> clips (G9-G11, G16).
//   - channels on a joint of a skin become tracks of that skin's JointPalette clip;
//   - channels on other nodes of the scene become tracks of the SceneNode clip (kept on skinned
//     models too);
//   - weights channels become MorphWeightTracks of every ModelMesh the target node instances;
//   - everything else is counted in a diagnostic (target outside the scene, unsupported path,
//     no target, weights on a node without morph targets, duplicate channel).
// Each animated bone is keyed at the union of its channels' sample points and every channel is
// evaluated there with its own interpolation; a missing channel holds the node's bind TRS.
#include <vector>

#include "gltf_scene_graph.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::gltf {

// model.skins and model.meshes must be built (skins with source_skin/source_joints, meshes with
// node/source_mesh). Adds model.animations, each skin's animation_clips and the parts'
// default weight tracks. Throws ImportError (InvalidAnimation, LimitExceeded).
void extract_animations(const GltfAsset& asset, const SceneGraph& graph, const ImportOptions& options,
                        ImportBudget& budget, Model& model, std::vector<Diagnostic>& diagnostics);

}  // namespace marrow::gltf
