#pragma once
// G17: every importer sets each mesh's bounding sphere around its loaded pose.
#include "marrow/model/model.hpp"

namespace marrow {

// Sets mesh.bounding_sphere of every mesh from its parts' vertices in the loaded pose, in the
// mesh's bone space: skinned parts are posed with the bind palette installed on their skinned
// material (M2), which maps to that space; rigid parts as stored (morphed by the loaded weights).
void compute_loaded_pose_bounds(Model& model);

// What every importer finishes with: compute_frame_bounds (S5), then the spheres (G17). A mesh
// drawn as stored (no morph targets, no bind palette that moves its vertices) takes its sphere's
// box from the local_bounds just made, the same box, instead of another pass over its vertices.
void compute_import_bounds(Model& model);

}  // namespace marrow
