#pragma once
// The node hierarchy behind a skeletal mesh or an animation table (seed 003): nodes with default
// local transforms, some of which are bones (each with its bind-pose inversion), and the
// animations that mutate them. Immutable once built (the builder finishes it before any
// instance uses it), so meshes, tables and instances share it freely across threads.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/bone_track.hpp"
#include "marrow/runtime/track_sampler.hpp"
#include "marrow/core/ticks.hpp"

namespace marrow::asset {

inline constexpr int kMaxSkeletalBones = 255;

class Mesh;

struct RigNode {
  std::string name;
  int parent = -1;                     // node index, -1 for the root
  glm::mat4 default_local{1.f};        // relative to the parent
  int bone = -1;                       // the bone this node corresponds to, -1 if none
};

// A skeletal animation: per animated node, keys with complete local TRS (a mutation replaces
// the node's default local transform; missing components were filled when it was built).
struct RigAnimation {
  std::string name;
  float default_duration_seconds = 0.f;
  std::vector<BoneTrack> tracks;       // bone_index = node index
  std::vector<Ticks> key_times;        // every distinct key time, sorted (for bounds)
};

struct SkeletalRig {
  std::vector<RigNode> nodes;
  std::vector<int> bone_nodes;             // per bone: its node
  std::vector<glm::mat4> inverse_binds;    // per bone: model space -> bone space at bind
  std::vector<int> order;                  // node indices, every parent before its children
  std::vector<int> parents;                // per node (finish_hierarchy)
  std::vector<int> ordered_parents;        // per position in order, its parent's position; empty
                                           // when the nodes are listed parents first
  std::vector<glm::mat4> bind_worlds;      // per node: model space at the default locals
  std::vector<RigAnimation> animations;
  std::vector<const Mesh*> meshes;         // the meshes this rig poses (its own mesh, or a table's)

  std::size_t bone_count() const noexcept { return bone_nodes.size(); }

  // Model-space transforms of every node at the animation's time (nullptr: the bind pose,
  // i.e. default locals), clamped to the keys. locals (scratch: its contents afterwards are
  // unspecified) and worlds have nodes.size() entries; cursors one per track of the
  // animation, or empty.
  void evaluate(const RigAnimation* animation, float seconds, std::span<glm::mat4> locals,
                std::span<glm::mat4> worlds, std::span<TrackCursor> cursors = {}) const;

  // The bone palette from node worlds: out[b] = worlds[bone_nodes[b]] * inverse_binds[b].
  void palette(std::span<const glm::mat4> worlds, std::span<glm::mat4> out) const;

  // Recomputes `order`, `parents`, `ordered_parents` and `bind_worlds` from the nodes; throws std::invalid_argument naming the node for a
  // parent out of range, a cycle, or more than one root.
  void finish_hierarchy();
};

}  // namespace marrow::asset
