#pragma once
// Which bones make up a model's skeleton: what a skeleton overlay draws and what a picture of a
// model without vertices is framed on. One byte per Model::nodes entry, 1 for a skeleton bone:
// - every skin's joints, when the model has skins;
// - else, when it has meshes, every scene node;
// - else (a skeleton-only animation file: FBX/Collada clips exported from a DCC tool) the main
//   animated hierarchy: from the root down through nodes no clip moves, always into the child
//   holding the most animated nodes, to the first animated node; it and everything below it.
//   Cameras, lights and their targets hang beside the skeleton as small trees of their own
//   (Assimp imports them as plain nodes), so they are left out.
// Bone 0, the synthetic root, is never a skeleton bone.
#include <cstdint>
#include <vector>

#include "marrow/model/model.hpp"

namespace marrow {

std::vector<std::uint8_t> skeleton_bones(const Model& model);

}  // namespace marrow
