#pragma once
// Private to the glTF importer: VRM's humanoid map (Document::vrm_humanoid) in the model's nodes,
// Model::humanoid (RT1). The file is hostile: an entry whose bone name VRM does not have, whose
// node is outside the selected scene, that repeats a bone or a node, or that is not below hips is
// ignored (vrm-humanoid-entry-ignored); a map left without a required bone is not used at all
// (vrm-humanoid-dropped). The file itself is never refused for its map.
#include <optional>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/model/humanoid_map.hpp"
#include "marrow/model/model.hpp"

namespace marrow::gltf {

// model.nodes and model.source.node_to_bone must be built.
std::optional<HumanoidMap> vrm_humanoid_map(const Document& doc, const Model& model, std::vector<Diagnostic>& diagnostics);

}  // namespace marrow::gltf
