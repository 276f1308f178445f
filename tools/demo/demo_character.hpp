#pragma once
// marrow's built-in character, built entirely in code: the default asset of `marrow demo`, and
// a realistic fixture for tests and benchmarks.
//
// Scene nodes (bone index):
//   0 root (synthetic)
//   1 Armature        scaled 1.5 and raised: a non-joint ancestor of the skeleton (root prefix)
//   2 Seg0 .. 10 Seg8 the tentacle's nine joints, a chain 0.5 apart along +Y
//   11 TentacleMesh   the skinned mesh's node, moved by (0, 0, 2): glTF ignores it for skinning
//   12 Buoy           a rigid, unskinned cube animated by scene-node clips
// Mesh 0: a tapering tube of 37 rings x 16 vertices (position, normal, tangent, UV, joints,
// weights), two morph targets ("Bulge": a swelling with no normal deltas; "Flatten": squashes
// X with normal deltas). Mesh 1: the buoy, 24 vertices.
// Animations: "Wave" (2 s; joints sway about Z, cubic morph weights, buoy bobs) and "Curl"
// (3 s; joints curl about X, linear morph weights, buoy spins).
#include "marrow/model/model.hpp"

namespace marrow {

Model make_demo_character();

}  // namespace marrow
