#pragma once
// G17: every importer sets each mesh's bounding sphere around its loaded pose.
#include "marrow/model/model.hpp"

namespace marrow {

// Sets mesh.bounding_sphere of every mesh from its parts' vertices in the loaded pose, in the
// mesh's bone space: skinned parts are posed with the bind palette installed on their skinned
// material (M2), which maps to that space; rigid parts as stored (morphed by the loaded weights).
void compute_loaded_pose_bounds(Model& model);

}  // namespace marrow
