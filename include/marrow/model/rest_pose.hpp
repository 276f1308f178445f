#pragma once
// Rest poses for retargeting (RT2, RT3): what "no motion" means on a rig. Rotations transfer as
// turns from rest, so both rigs' rests must be poses a person would call the same: standing, arms
// out (retarget_map.hpp).
//
//   - Bind: the nodes' own transforms (the bind pose; the default).
//   - Clip: a clip's pose at a time ("CLIP@SECONDS"), e.g. a "T-Pose" clip of an A-pose rig.
//   - TPose: a T-pose made from the bind pose (or, when the bind pose is not standing, from the
//     first frame of the first clip): each limb and spine bone swung, by the shortest rotation,
//     so that it points along the rig's canonical directions (spine and neck up; legs down; feet
//     forward; shoulders, arms and hands out to their side), twist kept. Up is hips -> head,
//     right is left upper leg -> right upper leg made orthogonal to up, forward is up x right.
//
// A pose is standing when both legs point down: (foot - upper leg) . up < -0.5 |foot - upper leg|.
// Motion capture whose bind pose is no pose at all (bones along their parents' x axes with zero
// rotations, as in Bandai-Namco's BVH files) is not standing; RetargetMap then takes the TPose.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/model/humanoid_map.hpp"

namespace marrow {

struct Model;

struct RestPose {
  enum class Kind { Bind, Clip, TPose };
  Kind kind = Kind::Bind;
  std::string clip{};      // Clip
  double seconds = 0.0;    // Clip
};

// "tpose", "bind", or "CLIP@SECONDS" (the last '@' splits; seconds finite and >= 0). Throws
// std::invalid_argument naming the text.
RestPose parse_rest_pose(std::string_view text);

// Bind and Clip poses: every node's local matrix (Clip: the clip played to that time, clamped
// to its duration). Throws std::invalid_argument naming a clip the model lacks. A TPose needs
// the humanoid map: t_pose().
std::vector<glm::mat4> rest_locals(const Model& model, const RestPose& rest);

bool is_standing(const Model& model, std::span<const glm::mat4> locals, const HumanoidMap& map);

// The header's T-pose, from a reference pose (node locals) of the rig.
std::vector<glm::mat4> t_pose(const Model& model, std::span<const glm::mat4> reference, const HumanoidMap& map);

}  // namespace marrow
