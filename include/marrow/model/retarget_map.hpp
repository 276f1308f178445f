#pragma once
// The map between two rigs for retargeting (RT1-RT4, RT6), built once from two Models: which
// target node follows which source node, the rest poses, the alignment of the two model spaces,
// the hips' scale, and the RetargetRig the job reads (runtime/retarget_job.hpp has the formulas).
//
// Bone pairs: by default every humanoid bone both rigs have (humanoid_map.hpp: the file's VRM
// map, else names). The torso is one chain from hips to the neck (the head when either rig has no
// neck): when the two rigs have different spine bones there (three onto two, no upperChest),
// its bones are not paired one to one but share the chain's rotation (RT6). An explicit map
// (`bone_map`: target node name -> source node name, or a profile bone name that the source's
// humanoid map resolves) replaces the pairs; the rest frames still come from both rigs'
// humanoid maps (a bone missing on one side is taken through the explicit pairs).
//
// Rest frames (RT3): per rig, up = hips -> head, side = left upper leg -> right upper leg made
// orthogonal to up, facing = side x up, from the rest pose's model-space positions; A takes the
// source's frame onto the target's (or is given). Hips scale (RT4): hips height above the lower
// foot along up, target / source, both at rest.
//
// The rest poses are the nodes' own transforms (the bind pose), a clip's pose at a time, or a
// T-pose made from the bind pose (rest_pose.hpp). When a rig is given no rest and its bind pose
// is not standing (motion capture whose bind pose is bones along x with zero rotations), every
// rig given no rest retargets from its T-pose instead, and notes() says so.
//
// Model space is the scene space of Animator::absolute_bone_transforms (and of `marrow pose
// --json` worlds).
#include <array>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>

#include "marrow/model/humanoid_map.hpp"
#include "marrow/model/rest_pose.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/retarget_job.hpp"

namespace marrow {

struct Model;

struct RetargetOptions {
  std::vector<std::pair<std::string, std::string>> bone_map{};  // empty: automatic
  std::optional<RestPose> source_rest{}, target_rest{};           // empty: the bind poses (see below)
  std::optional<glm::quat> alignment{};                          // A (unit); empty: from the rest frames
};

struct RetargetPair {
  int target_node = -1;
  int source_node = -1;
};

// A leg for contacts (RT7), in the job's joints.
struct RetargetLeg {
  int upper = -1, lower = -1, foot = -1;  // target joints
  int source_foot = -1;                   // source joint
  glm::vec3 source_rest{0.f};             // P'_s_rest(source foot), aligned model space
  glm::vec3 target_rest{0.f};             // P_t_rest(foot)
};

class RetargetMap {
 public:
  // Throws std::invalid_argument naming what is wrong: a required humanoid bone neither rig's map
  // nor the explicit map gives (listing the candidates seen), a name of the explicit map that
  // names no node (or a profile bone the source lacks), a target node mapped twice, a rest clip
  // the model lacks, degenerate rest frames (hips on the head, legs on one point), a source hips
  // height that is not positive.
  RetargetMap(const Model& source, const Model& target, const RetargetOptions& options = {});

  const RetargetRig& rig() const noexcept { return rig_; }
  // The job's joints: source joint j is scene node source_nodes()[j] (the mapped nodes and their
  // ancestors, in node order), target joint i is target_nodes()[i] (likewise, with the chains).
  std::span<const int> source_nodes() const noexcept { return source_nodes_; }
  std::span<const int> target_nodes() const noexcept { return target_nodes_; }
  // Mapped target nodes and their source nodes, in target node order (chains' bones not listed).
  std::span<const RetargetPair> pairs() const noexcept { return pairs_; }
  float root_scale() const noexcept { return rig_.hips_scale; }
  const glm::quat& alignment() const noexcept { return rig_.alignment; }
  const std::vector<std::string>& notes() const noexcept { return notes_; }
  const HumanoidMap& source_humanoid() const noexcept { return source_humanoid_; }
  const HumanoidMap& target_humanoid() const noexcept { return target_humanoid_; }
  // Left then right.
  const std::array<RetargetLeg, 2>& legs() const noexcept { return legs_; }
  // The rest poses used (one local matrix per scene node).
  std::span<const glm::mat4> source_rest() const noexcept { return source_rest_; }
  std::span<const glm::mat4> target_rest() const noexcept { return target_rest_; }

  // The job's source pose from the source's scene-node locals (Animator::bone_transforms()):
  // decomposed T/R/S of the source joints. `pose` holds pose_block_count(source joints) blocks.
  void gather_source(std::span<const glm::mat4> node_locals, std::span<TrsBlock> pose) const;

 private:
  RetargetRig rig_;
  std::vector<int> source_nodes_, target_nodes_;
  std::vector<RetargetPair> pairs_;
  HumanoidMap source_humanoid_, target_humanoid_;
  std::vector<glm::mat4> source_rest_, target_rest_;
  std::array<RetargetLeg, 2> legs_{};
  std::vector<std::string> notes_;
};

}  // namespace marrow
