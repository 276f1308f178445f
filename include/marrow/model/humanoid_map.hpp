#pragma once
// Which scene node of a rig is which humanoid bone (RT1): read from the file (VRM's
// `VRMC_vrm` / `VRM` extension, Model::humanoid) or found from the node names real files use.
//
// Automatic mapping (auto_humanoid_map) reads names in these conventions; ASCII case and the
// separators ' ', '_', '.', '-', ':' do not matter:
//   - Mixamo: `mixamorig:Hips`, numbered namespaces (`mixamorig1:`, `mixamorig12:`) and the same
//     names without a namespace (`LeftUpLeg`, `LeftLeg`, `LeftFoot`, `LeftToeBase`, `Spine1`,
//     `LeftArm`, `LeftForeArm`, `LeftHand`, `LeftHandIndex1`);
//   - BVH / CMU motion capture (`Hips`, `LHipJoint`, `LowerBack`, `Spine1`, `Neck1`, ...), the
//     Daz / three.js BVH names (`hip`, `abdomen`, `chest`, `lThigh`, `lShin`, `lShldr`, `lCollar`),
//     Bandai-Namco's (`UpperLeg_L`, `LowerArm_R`, `Toes_L`);
//   - the Unreal mannequin (`pelvis`, `spine_01`.., `thigh_l`, `calf_l`, `ball_l`, `clavicle_l`,
//     `upperarm_l`, `lowerarm_l`, `hand_l`, `neck_01`, `head`);
//   - Blender, Rigify and Quaternius styles (`UpperArm.L`, `Thigh_R`, `DEF-upper_arm.L`,
//     `upperleg.l`), VRoid's VRM 0.x names (`J_Bip_L_UpperArm`), 3ds Max biped (`Bip01 L Thigh`),
//     and anatomical ones (`l_humerus`, `l_ulna`, `l_knee`, `l_ankle`).
// A name that reads as a bone is a candidate unless it is a helper (`$AssimpFbx$` pivots, twist,
// roll, IK, control, socket and corrective bones, Rigify's ORG/MCH) or longer than 256 bytes; an
// end marker (`Head_end`, `Bip01 L Toe0Nub`, `null_head`) only when no other node fits. Of several
// candidates for one bone, the mapper takes the one below hips, then the one with the most
// descendants, then the lowest index (and says so in `notes`); each limb bone lies below the one
// before it (lowerArm below upperArm, ...), the shoulder above the upper arm, the neck above the
// head. Hips is the node named so (`Hips`, `hip`, `pelvis`) when it lies above the head, arms
// and legs, else their deepest common ancestor (Rigify's `DEF-spine`; seymour.dae: root ->
// {l_hip, pelvis, r_hip}). CMU's `LHipJoint` (between Hips and LeftUpLeg) is no bone. VRM's hand is the wrist joint: of
// lowerArm -> wrist -> hand, the wrist when the hand bone holds no fingers (KayKit's leaf
// `hand.l`), else the hand. Each finger's first three joints from the hand are VRM's three
// (the thumb's metacarpal, proximal, distal), whatever their names say.
// The spine, chest and upperChest are the bones on the path from hips to the neck (or head),
// helpers and the nodes the legs hang from left out (a `Pelvis` under `Hips`, 3ds Max biped's
// `Bip01 Spine`): one bone is spine; two are spine and chest; three or more: spine, chest (the middle
// one; of an even count the upper of the two) and upperChest (the last). Every mapped bone lies
// below hips and no node is mapped twice. A side is confirmed by where the bone lies in the rest
// pose: a left bone lies on the rig's left of the plane through hips spanned by up (hips -> head)
// and facing (from the feet towards the toes, or a foot's first child); when the upper arms and
// legs named left lie on the right (by more than 5% of the hips-to-head distance), every sided
// bone swaps sides (and `notes` says so). Without toes or with a degenerate rest pose the names
// stand.
#include <array>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/model/humanoid_bone.hpp"

namespace marrow {

struct Model;

struct HumanoidMap {
  std::array<int, kHumanoidBoneCount> nodes;  // scene node (Model::nodes index) per bone, -1: absent
  std::vector<std::string> notes;             // what the mapper decided that a user may want to know

  HumanoidMap() { nodes.fill(-1); }
  int node(HumanoidBone bone) const noexcept { return nodes[static_cast<std::size_t>(bone)]; }
  bool has(HumanoidBone bone) const noexcept { return node(bone) >= 0; }
  void set(HumanoidBone bone, int node_index) noexcept { nodes[static_cast<std::size_t>(bone)] = node_index; }
};

// The model's humanoid map: Model::humanoid when the file carried one (checked by validate), else
// found from its node names and its rest pose (`rest_locals`: one local matrix per node, composed
// from the root; empty: the nodes' own transforms). Throws std::invalid_argument naming the first
// required bone (in HumanoidBone order) it cannot find and listing up to 8 nodes that look closest
// by their names or where they hang (`no leftLowerArm: candidates seen: "mixamorig:RightForeArm"
// (node 31), "mixamorig:LeftElbo" (node 7), ...`, or `none`), and for rest_locals of another size
// than the nodes. Any names, hierarchy and matrices are safe to pass; the work is linear in the
// nodes.
HumanoidMap humanoid_map(const Model& model, std::span<const glm::mat4> rest_locals = {});

// The same from names alone, never the file's map (tests compare the two on VRM files). What it
// returns passes validate.
HumanoidMap auto_humanoid_map(const Model& model, std::span<const glm::mat4> rest_locals = {});

// Checks a map against a model: nodes in range (-1: absent), no node named twice, every required
// bone present, every bone below hips. Throws std::invalid_argument naming the bone and the node
// ("humanoid map: jaw (node 0 "<root>") is not below hips, ...").
void validate(const HumanoidMap& map, const Model& model);

}  // namespace marrow
