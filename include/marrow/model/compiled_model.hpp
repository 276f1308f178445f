#pragma once
// A Model compiled once for all its instances: immutable and shared, as ozz's Skeleton is beside
// its per-instance contexts. It holds the model validated, its animations compiled, and what every
// Animator of the model derives from it: the bind worlds, the rest poses as T/R/S, each skin's
// joint <-> node maps and how its palette space relates to the scene, and the S5 boxes when the
// model was loaded without them. An Animator made from one only sizes its own buffers:
//
//   const auto compiled = compile_model(model);       // once: validate(model) is O(vertices)
//   std::vector<Animator> crowd;
//   for (int i = 0; i < 1000; ++i) crowd.emplace_back(compiled);  // each O(joints), no derivation
//
// It refers into the model (and the compiled animations into its clips): the model must outlive
// it and stay put.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/model/compiled_animations.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/model/model.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow {

// A root joint whose parent is a scene node: its prefix carries that ancestry when it moves.
struct CompiledRootJoint {
  std::size_t palette;
  int ancestor;                     // the root joint's parent node
  glm::mat4 inverse_bind_ancestor;  // inverse of that node's absolute transform at bind
};

struct CompiledSkin {
  std::vector<TrsBlock> rest;          // the bind pose as T/R/S (the blend's fill)
  std::vector<glm::mat4> bind_worlds;  // the skeleton at bind in its palette space
  std::vector<int> joint_to_scene;     // per palette entry: its node, or -1
  std::vector<int> scene_to_joint;     // per scene node: its palette entry, or -1
  // Composed with the scene: palette space = scene_to_palette * scene space, for every joint.
  bool with_scene = false;
  bool palette_is_scene = false;       // scene_to_palette is the identity (within 1e-6)
  glm::mat4 scene_to_palette{1.f};
  // With palette space the scene's: the skin's S5 boxes (JointBounds::joints) as scene nodes,
  // for the boxes moved by the scene's worlds.
  std::vector<std::uint32_t> bound_nodes;
  // Composed on its own (with_scene false): root joints under scene nodes that may move.
  std::vector<CompiledRootJoint> roots;
};

struct CompiledModel {
  const Model* model = nullptr;
  std::shared_ptr<const CompiledAnimations> animations;
  std::vector<int> parents;              // per scene node
  std::vector<glm::mat4> locals;         // per scene node, its loaded transform
  std::vector<glm::mat4> bind_worlds;    // per scene node, at bind (the loaded transforms)
  std::vector<TrsBlock> scene_rest;      // the nodes' loaded transforms as T/R/S
  std::vector<CompiledSkin> skins;
  std::size_t max_palette = 0;           // the largest skin or part palette (S4)
  std::size_t largest_dqs_part = 0;      // vertices of the largest dual-quaternion part (S3)
  bool has_dqs = false;
  bool has_markers = false;
  bool moves_scene_nodes = false;        // an animation has rigid scene-node tracks, or plays live
  // S5's boxes: the model's own when frame_bounds_ready(model), else made here.
  std::shared_ptr<const FrameBounds> own_bounds;

  std::size_t size_in_bytes() const noexcept;  // the animations not counted
};

// Validates model (std::invalid_argument naming what is wrong) and compiles it; `animations`
// (compile_animations(model)) is shared when given, compiled here otherwise.
std::shared_ptr<const CompiledModel> compile_model(const Model& model,
                                                   std::shared_ptr<const CompiledAnimations> animations = nullptr);

}  // namespace marrow
