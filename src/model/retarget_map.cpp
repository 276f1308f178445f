#include "marrow/model/retarget_map.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "marrow/core/quoted_name.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/model/absolute_bone_transforms.hpp"
#include "marrow/model/model.hpp"

namespace marrow {
namespace {

std::vector<glm::vec3> rest_positions(const Model& model, std::span<const glm::mat4> locals) {
  std::vector<glm::mat4> worlds(locals.size());
  compose_node_transforms(model, locals, worlds);
  std::vector<glm::vec3> positions(worlds.size());
  for (std::size_t i = 0; i < worlds.size(); ++i) positions[i] = glm::vec3(worlds[i][3]);
  return positions;
}

// One rig's rest frame (RT3) and its hips height (RT4).
struct RestFrame {
  glm::mat3 axes{1.f};  // columns: side, up, facing
  float hips_height = 0.f;
};

glm::vec3 position_of(const std::vector<glm::vec3>& positions, const HumanoidMap& map, HumanoidBone bone) {
  return positions[static_cast<std::size_t>(map.node(bone))];
}

RestFrame rest_frame(const std::vector<glm::vec3>& positions, const HumanoidMap& map, const char* rig) {
  const glm::vec3 hips = position_of(positions, map, HumanoidBone::Hips);
  const glm::vec3 to_head = position_of(positions, map, HumanoidBone::Head) - hips;
  const std::string who = std::string("retarget: the ") + rig + " rig's rest pose ";
  if (!(glm::length(to_head) > 1e-6f)) throw std::invalid_argument(who + "has its head on its hips");
  const glm::vec3 up = glm::normalize(to_head);
  glm::vec3 side = position_of(positions, map, HumanoidBone::RightUpperLeg) - position_of(positions, map, HumanoidBone::LeftUpperLeg);
  side -= up * glm::dot(side, up);
  if (!(glm::length(side) > 1e-6f)) throw std::invalid_argument(who + "has its upper legs on one line with its spine");
  side = glm::normalize(side);
  RestFrame frame;
  frame.axes = glm::mat3(side, up, glm::cross(side, up));
  const float left = glm::dot(position_of(positions, map, HumanoidBone::LeftFoot) - hips, up);
  const float right = glm::dot(position_of(positions, map, HumanoidBone::RightFoot) - hips, up);
  frame.hips_height = -std::min(left, right);
  if (!(frame.hips_height > 1e-6f) || !std::isfinite(frame.hips_height))
    throw std::invalid_argument(who + "has its hips at or below its feet (hips height " + std::to_string(frame.hips_height) + ")");
  return frame;
}

// The frame bones a humanoid map needs; a map missing one takes it through the explicit pairs
// from the other rig's map.
constexpr HumanoidBone kFrameBones[] = {HumanoidBone::Hips, HumanoidBone::Head, HumanoidBone::LeftUpperLeg,
                                        HumanoidBone::RightUpperLeg, HumanoidBone::LeftFoot, HumanoidBone::RightFoot};

void complete_frame_bones(HumanoidMap& target, HumanoidMap& source, const std::vector<RetargetPair>& pairs) {
  for (const HumanoidBone bone : kFrameBones) {
    for (const RetargetPair& p : pairs) {
      if (!target.has(bone) && source.node(bone) == p.source_node) target.set(bone, p.target_node);
      if (!source.has(bone) && target.node(bone) == p.target_node) source.set(bone, p.source_node);
    }
  }
}

void require_frame_bones(const HumanoidMap& map, const char* rig) {
  for (const HumanoidBone bone : kFrameBones)
    if (!map.has(bone))
      throw std::invalid_argument(std::string("retarget: the ") + rig + " rig has no " + std::string(to_string(bone)) +
                                  " (its names are not recognised and the map file does not pair it)");
}

HumanoidMap humanoid_or_partial(const Model& model, std::span<const glm::mat4> rest) {
  try {
    return humanoid_map(model, rest);
  } catch (const std::invalid_argument&) {
    return {};  // an explicit map may still pair what the names do not tell
  }
}

std::vector<RetargetPair> explicit_pairs(const Model& source, const Model& target, const HumanoidMap& source_map,
                                         const std::vector<std::pair<std::string, std::string>>& entries) {
  std::vector<RetargetPair> pairs;
  for (const auto& [target_name, source_name] : entries) {
    const int t = target.find_node(target_name);
    if (t < 0) throw std::invalid_argument("retarget map: the target has no node named " + quoted_name(target_name));
    int s = source.find_node(source_name);
    if (s < 0) {
      const std::optional<HumanoidBone> bone = humanoid_bone_named(source_name);
      if (!bone)
        throw std::invalid_argument("retarget map: " + quoted_name(target_name) + " -> " + quoted_name(source_name) +
                                    ": the source has no node of that name and it is no humanoid bone");
      s = source_map.node(*bone);
      if (s < 0)
        throw std::invalid_argument("retarget map: " + quoted_name(target_name) + " -> " + quoted_name(source_name) +
                                    ": the source's humanoid map has no " + source_name);
    }
    for (const RetargetPair& p : pairs)
      if (p.target_node == t) throw std::invalid_argument("retarget map: the target node " + quoted_name(target_name) + " is mapped twice");
    pairs.push_back({t, s});
  }
  return pairs;
}

// The torso's end (RT6): the neck when both rigs have one, else the head.
HumanoidBone torso_end(const HumanoidMap& a, const HumanoidMap& b) {
  return a.has(HumanoidBone::Neck) && b.has(HumanoidBone::Neck) ? HumanoidBone::Neck : HumanoidBone::Head;
}

bool in_torso(HumanoidBone bone, HumanoidBone end) {
  return bone == HumanoidBone::Spine || bone == HumanoidBone::Chest || bone == HumanoidBone::UpperChest ||
         (end == HumanoidBone::Head && bone == HumanoidBone::Neck);
}

// Whether the torso bones between hips and its end are the same on both rigs.
bool torso_one_to_one(const HumanoidMap& source, const HumanoidMap& target, HumanoidBone end) {
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<HumanoidBone>(b);
    if (in_torso(bone, end) && source.has(bone) != target.has(bone)) return false;
  }
  return true;
}

std::vector<RetargetPair> humanoid_pairs(const HumanoidMap& source, const HumanoidMap& target, bool torso_pairs) {
  const HumanoidBone end = torso_end(source, target);
  std::vector<RetargetPair> pairs;
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<HumanoidBone>(b);
    if (!source.has(bone) || !target.has(bone)) continue;
    if (!torso_pairs && in_torso(bone, end)) continue;
    pairs.push_back({target.node(bone), source.node(bone)});
  }
  std::sort(pairs.begin(), pairs.end(), [](const RetargetPair& x, const RetargetPair& y) { return x.target_node < y.target_node; });
  return pairs;
}

// Node indices of `nodes` and all their ancestors, in node order.
std::vector<int> closed_under_parents(const Model& model, const std::vector<int>& nodes) {
  std::vector<std::uint8_t> in(model.nodes.size(), 0);
  for (int n : nodes)
    for (; n >= 0 && in[static_cast<std::size_t>(n)] == 0; n = model.nodes[static_cast<std::size_t>(n)].parent)
      in[static_cast<std::size_t>(n)] = 1;
  std::vector<int> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != 0) out.push_back(static_cast<int>(i));
  return out;
}

// Parents of a node subset (closed under parents) in its own indices; index of each node in it.
std::vector<int> subset_parents(const Model& model, const std::vector<int>& nodes, std::vector<int>& index_of) {
  index_of.assign(model.nodes.size(), -1);
  for (std::size_t j = 0; j < nodes.size(); ++j) index_of[static_cast<std::size_t>(nodes[j])] = static_cast<int>(j);
  std::vector<int> parents(nodes.size());
  for (std::size_t j = 0; j < nodes.size(); ++j) {
    const int p = model.nodes[static_cast<std::size_t>(nodes[j])].parent;
    parents[j] = p < 0 ? -1 : index_of[static_cast<std::size_t>(p)];
  }
  return parents;
}

std::vector<TrsBlock> subset_pose(const std::vector<int>& nodes, std::span<const glm::mat4> locals) {
  std::vector<TrsBlock> pose(pose_block_count(nodes.size()));
  for (std::size_t j = 0; j < nodes.size(); ++j) set_pose_joint(pose, j, decompose_trs(locals[static_cast<std::size_t>(nodes[j])]));
  return pose;
}

struct Space {
  std::vector<glm::quat> rotations;
  std::vector<glm::vec3> positions, scales;
};

Space compose_space(const std::vector<int>& parents, std::span<const TrsBlock> pose, const glm::quat& root) {
  Space s{std::vector<glm::quat>(parents.size()), std::vector<glm::vec3>(parents.size()), std::vector<glm::vec3>(parents.size())};
  compose_retarget_space(parents, pose, root, s.rotations, s.positions, s.scales);
  return s;
}

// One rig's rest and humanoid map before the T-pose decision (retarget_map.hpp).
struct RigRest {
  std::vector<glm::mat4> locals;
  HumanoidMap map;
  bool given = false;  // the options named a rest
  bool tpose = false;  // the options asked for a T-pose
};

RigRest base_rest(const Model& model, const std::optional<RestPose>& rest, bool automatic) {
  RigRest r;
  r.given = rest.has_value();
  r.tpose = rest && rest->kind == RestPose::Kind::TPose;
  r.locals = rest_locals(model, rest.value_or(RestPose{}));
  r.map = automatic ? humanoid_map(model, r.locals) : humanoid_or_partial(model, r.locals);
  return r;
}

// The T-pose of a rig (rest_pose.hpp), from its rest when standing, else from its first clip's
// first frame (whose sides the humanoid map confirms again).
void make_t_pose(const Model& model, RigRest& rig, bool automatic, const char* which, std::vector<std::string>& notes) {
  std::vector<glm::mat4> reference = rig.locals;
  if (!is_standing(model, reference, rig.map) && !model.animations.empty()) {
    reference = rest_locals(model, RestPose{RestPose::Kind::Clip, model.animations[0].name, 0.0});
    if (automatic) rig.map = humanoid_map(model, reference);
    notes.push_back(std::string("the ") + which + " rig's T-pose is made from the first frame of its clip \"" +
                    model.animations[0].name + "\" (its bind pose is not standing)");
  }
  rig.locals = t_pose(model, reference, rig.map);
}

}  // namespace

RetargetMap::RetargetMap(const Model& source, const Model& target, const RetargetOptions& options) {
  const bool automatic = options.bone_map.empty();
  RigRest s_rig = base_rest(source, options.source_rest, automatic);
  RigRest t_rig = base_rest(target, options.target_rest, automatic);
  if (!automatic) {
    pairs_ = explicit_pairs(source, target, s_rig.map, options.bone_map);
    complete_frame_bones(t_rig.map, s_rig.map, pairs_);
  }
  require_frame_bones(s_rig.map, "source");
  require_frame_bones(t_rig.map, "target");
  // A rig whose bind pose is no pose: both rigs given no rest retarget from T-poses.
  const bool lying = (!s_rig.given && !is_standing(source, s_rig.locals, s_rig.map)) ||
                     (!t_rig.given && !is_standing(target, t_rig.locals, t_rig.map));
  if (lying) notes_.push_back("a bind pose is not standing: the rigs given no rest retarget from T-poses");
  if (s_rig.tpose || (lying && !s_rig.given)) make_t_pose(source, s_rig, automatic, "source", notes_);
  if (t_rig.tpose || (lying && !t_rig.given)) make_t_pose(target, t_rig, automatic, "target", notes_);
  source_rest_ = std::move(s_rig.locals);
  target_rest_ = std::move(t_rig.locals);
  source_humanoid_ = std::move(s_rig.map);
  target_humanoid_ = std::move(t_rig.map);

  const HumanoidBone end = torso_end(source_humanoid_, target_humanoid_);
  const bool torso_pairs = !automatic || torso_one_to_one(source_humanoid_, target_humanoid_, end);
  if (automatic) pairs_ = humanoid_pairs(source_humanoid_, target_humanoid_, torso_pairs);
  std::sort(pairs_.begin(), pairs_.end(), [](const RetargetPair& x, const RetargetPair& y) { return x.target_node < y.target_node; });

  const std::vector<glm::vec3> source_positions = rest_positions(source, source_rest_);
  const std::vector<glm::vec3> target_positions = rest_positions(target, target_rest_);
  const RestFrame source_frame = rest_frame(source_positions, source_humanoid_, "source");
  const RestFrame target_frame = rest_frame(target_positions, target_humanoid_, "target");
  rig_.alignment = options.alignment ? glm::normalize(*options.alignment)
                                     : glm::normalize(glm::quat_cast(target_frame.axes * glm::transpose(source_frame.axes)));
  rig_.hips_scale = target_frame.hips_height / source_frame.hips_height;

  // The torso chain: the target's bones from hips to the end, when not paired one to one.
  const int target_hips = target_humanoid_.node(HumanoidBone::Hips);
  const int target_end = target_humanoid_.node(end);
  std::vector<int> between;
  if (!torso_pairs && target_end >= 0 && source_humanoid_.has(end) && target.descends_from(target_end, target_hips)) {
    for (int n = target.nodes[static_cast<std::size_t>(target_end)].parent; n != target_hips && n >= 0;
         n = target.nodes[static_cast<std::size_t>(n)].parent)
      between.push_back(n);
    std::reverse(between.begin(), between.end());
  }

  std::vector<int> wanted_targets = between, wanted_sources;
  wanted_targets.push_back(target_hips);
  wanted_sources.push_back(source_humanoid_.node(HumanoidBone::Hips));
  for (const RetargetPair& p : pairs_) {
    wanted_targets.push_back(p.target_node);
    wanted_sources.push_back(p.source_node);
  }
  for (const HumanoidBone bone : {HumanoidBone::LeftFoot, HumanoidBone::RightFoot}) {
    wanted_targets.push_back(target_humanoid_.node(bone));
    wanted_sources.push_back(source_humanoid_.node(bone));
  }
  source_nodes_ = closed_under_parents(source, wanted_sources);
  target_nodes_ = closed_under_parents(target, wanted_targets);
  std::vector<int> source_index, target_index;
  rig_.source_parents = subset_parents(source, source_nodes_, source_index);
  rig_.target_parents = subset_parents(target, target_nodes_, target_index);

  const std::vector<TrsBlock> source_pose = subset_pose(source_nodes_, source_rest_);
  const std::vector<TrsBlock> target_pose = subset_pose(target_nodes_, target_rest_);
  const Space s = compose_space(rig_.source_parents, source_pose, rig_.alignment);
  const Space t = compose_space(rig_.target_parents, target_pose, glm::quat(1.f, 0.f, 0.f, 0.f));

  const std::size_t targets = target_nodes_.size();
  rig_.target_rest.resize(targets);
  rig_.target_source.assign(targets, -1);
  rig_.target_offset.assign(targets, glm::quat(1.f, 0.f, 0.f, 0.f));
  for (std::size_t i = 0; i < targets; ++i) rig_.target_rest[i] = pose_joint(target_pose, i);
  for (const RetargetPair& p : pairs_) {
    const auto i = static_cast<std::size_t>(target_index[static_cast<std::size_t>(p.target_node)]);
    const auto j = static_cast<std::size_t>(source_index[static_cast<std::size_t>(p.source_node)]);
    rig_.target_source[i] = static_cast<int>(j);
    rig_.target_offset[i] = glm::normalize(glm::inverse(s.rotations[j]) * t.rotations[i]);
  }

  rig_.source_hips = source_index[static_cast<std::size_t>(source_humanoid_.node(HumanoidBone::Hips))];
  rig_.target_hips = target_index[static_cast<std::size_t>(target_hips)];
  rig_.source_hips_rest = s.positions[static_cast<std::size_t>(rig_.source_hips)];
  rig_.target_hips_rest = t.positions[static_cast<std::size_t>(rig_.target_hips)];

  const HumanoidBone leg_bones[2][3] = {{HumanoidBone::LeftUpperLeg, HumanoidBone::LeftLowerLeg, HumanoidBone::LeftFoot},
                                       {HumanoidBone::RightUpperLeg, HumanoidBone::RightLowerLeg, HumanoidBone::RightFoot}};
  for (std::size_t side = 0; side < 2; ++side) {
    const auto joint = [&](HumanoidBone bone) {
      const int node = target_humanoid_.node(bone);
      return node < 0 ? -1 : target_index[static_cast<std::size_t>(node)];
    };
    RetargetLeg& leg = legs_[side];
    leg.upper = joint(leg_bones[side][0]);
    leg.lower = joint(leg_bones[side][1]);
    leg.foot = joint(leg_bones[side][2]);
    leg.source_foot = source_index[static_cast<std::size_t>(source_humanoid_.node(leg_bones[side][2]))];
    leg.source_rest = s.positions[static_cast<std::size_t>(leg.source_foot)];
    leg.target_rest = t.positions[static_cast<std::size_t>(leg.foot)];
  }

  if (!between.empty()) {
    RetargetChain chain;
    chain.target_start = rig_.target_hips;
    chain.target_end = target_index[static_cast<std::size_t>(target_end)];
    for (const int n : between) chain.between.push_back(target_index[static_cast<std::size_t>(n)]);
    chain.source_start = rig_.source_hips;
    chain.source_end = source_index[static_cast<std::size_t>(source_humanoid_.node(end))];
    const auto ss = static_cast<std::size_t>(chain.source_start), se = static_cast<std::size_t>(chain.source_end);
    const auto ts = static_cast<std::size_t>(chain.target_start), te = static_cast<std::size_t>(chain.target_end);
    const glm::vec3 sv = s.positions[se] - s.positions[ss], tv = t.positions[te] - t.positions[ts];
    if (glm::length(sv) > 1e-6f && glm::length(tv) > 1e-6f) {
      chain.source_rest_direction = glm::normalize(sv);
      chain.target_rest_direction = glm::normalize(tv);
      chain.source_start_rest_inverse = glm::inverse(s.rotations[ss]);
      rig_.chains.push_back(std::move(chain));
    }
  }
  prepare_retarget_rig(rig_);
  throw_if_invalid(rig_.validate(), "retarget rig");
}

void RetargetMap::gather_source(std::span<const glm::mat4> node_locals, std::span<TrsBlock> pose) const {
  for (std::size_t j = 0; j < source_nodes_.size(); ++j)
    set_pose_joint(pose, j, decompose_trs(node_locals[static_cast<std::size_t>(source_nodes_[j])]));
}

}  // namespace marrow
