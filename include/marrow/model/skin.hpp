#pragma once
// One skin of a model: its SkinningData, exactly the meshes its palette drives (M5) and the two
// maps between scene-node and palette indices (G3).
//
//   scene-node index  (Model::nodes, rigid clips)  --scene_to_palette-->  palette index
//   palette index     (SkinningData arrays, skeletal clip tracks, JOINTS_0 after import)
//                                                   --palette_to_scene-->  scene-node index
// The file's own joint order (the third index space) is kept in source_joints.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "marrow/runtime/joint_bounds.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/skinning_data.hpp"

namespace marrow {

struct Skin {
  std::string name;
  SkinningData data;
  std::vector<int> meshes;            // indices into Model::meshes drawn with this palette
  std::vector<int> scene_to_palette;  // per scene node: its palette index, -1 if not a joint
  std::vector<int> palette_to_scene;  // per palette index: its scene node, -1 if outside the scene
  std::vector<int> source_joints;     // per palette index: its ordinal in the file's joint list
  int source_skin = -1;               // index in the source file, -1 when built in code
  // Compressed clips (compress_model_clips), by the name of the data.animation_clips entry they
  // play; compile_animations plays these instead of compiling the authored clip.
  std::map<std::string, RuntimeClip> compressed_clips{};
  // S5: per palette joint, the box of the vertices it influences in its own space, over every
  // mesh of this skin (compute_frame_bounds; Animator::bounds moves them each frame).
  JointBounds joint_bounds{};
};

// A skin of `joints` palette entries in a scene of `scene_nodes` nodes, for importers to fill:
// every array sized, hierarchy/bind/inverse-bind zeroed, root prefixes identity, no scene node
// mapped to the palette yet.
Skin sized_skin(std::size_t joints, std::size_t scene_nodes);

}  // namespace marrow
