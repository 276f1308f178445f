#pragma once
// S5, at load: what per-frame bounds need from the vertices, made once so that a frame's box
// costs O(joints + meshes) (Animator::bounds):
//   - each skin's joint_bounds: per palette joint, the box in the joint's space
//     (inverse_bind * vertex) of every vertex of the skin's meshes it influences with a nonzero
//     weight, over every influence set (S1); joints that influence nothing are left out;
//   - each mesh's local_bounds: its vertices in its own space.
// A vertex with morph targets counts as the box of where its targets can move it, each weight
// ranging over [0, 1] widened by the mesh's initial weights and every weight its clips can
// reach (key values, and cubic spline control points, which hold the curve between keys).
// Weights set beyond that (an additive morph layer, a hand-set weight) are not covered.
//
// Every importer (glTF, Assimp, the native reader) calls compute_frame_bounds; a model built
// or edited in code should call it after its vertices and skins are final (an Animator on a
// model whose bounds are missing or stale for its skins makes its own copy, see
// frame_bounds_ready).
#include <vector>

#include "marrow/model/model.hpp"

namespace marrow {

// What compute_frame_bounds stores, made without touching the model: per skin, per mesh.
struct FrameBounds {
  std::vector<JointBounds> skins;
  std::vector<BoundingBox> meshes;
};
FrameBounds make_frame_bounds(const Model& model);

// The same joint boxes (in its skin's palette) of one skinned mesh's vertices alone: what a
// view of that mesh (the asset layer's T14 box) moves each frame. Empty for a mesh without skin.
JointBounds mesh_joint_bounds(const Model& model, std::size_t mesh);

// Sets every Skin::joint_bounds and ModelMesh::local_bounds to make_frame_bounds(model).
void compute_frame_bounds(Model& model);

// True when every skin's joint_bounds was made for its palette size and every mesh with
// vertices has a local box (what compute_frame_bounds leaves).
bool frame_bounds_ready(const Model& model) noexcept;

}  // namespace marrow
