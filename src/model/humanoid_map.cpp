// The humanoid map (RT1): the file's own (Model::humanoid) or found from node names and the rest
// pose (auto_humanoid_map). The names are read by humanoid_names.hpp, the hierarchy by
// humanoid_rig.hpp; here the bones are chosen, in this order:
//   1. hips by name; head, upper arms and upper legs by name, preferring nodes below that hips;
//   2. hips settled: the named one when it is above all five, else their common ancestor
//      (seymour.dae: root -> {l_hip, pelvis, r_hip});
//   3. each limb down its chain (every bone below the previous one), the shoulder above the
//      upper arm, the neck above the head, then spine / chest / upperChest from the path between
//      hips and the neck (or head), eyes and jaw below the head, fingers below the hand;
//   4. sides confirmed by the rest pose, bones mapped twice or outside hips dropped, required
//      bones checked.
#include "marrow/model/humanoid_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <glm/geometric.hpp>

#include "humanoid_names.hpp"
#include "humanoid_rig.hpp"
#include "marrow/core/quoted_name.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

namespace {

using humanoid_names::NodeName;
using humanoid_names::Part;
using humanoid_names::Side;
using humanoid_rig::Rig;
using B = HumanoidBone;

// How a node is shown in notes and messages: its name (quoted_name) and index: `"LeftArm" (node 12)`.
std::string label(const Model& model, int node) {
  return quoted_name(model.nodes[static_cast<std::size_t>(node)].name) + " (node " + std::to_string(node) + ")";
}

std::string bone_name(B bone) { return std::string(to_string(bone)); }

// The importers' synthetic root (node 0, "<root>"): never a bone, nor a candidate.
bool is_synthetic_root(const Model& model, int node) {
  return node == 0 && model.nodes[0].parent < 0 && model.nodes[0].source_node < 0;
}

// The limbs of one side, as enum values and name sides.
struct Limb {
  Side side;
  B shoulder, upper_arm, lower_arm, hand, upper_leg, lower_leg, foot, toes, eye, first_finger;
};
constexpr std::array<Limb, 2> kLimbs{{
    {Side::Left, B::LeftShoulder, B::LeftUpperArm, B::LeftLowerArm, B::LeftHand, B::LeftUpperLeg, B::LeftLowerLeg,
     B::LeftFoot, B::LeftToes, B::LeftEye, B::LeftThumbMetacarpal},
    {Side::Right, B::RightShoulder, B::RightUpperArm, B::RightLowerArm, B::RightHand, B::RightUpperLeg,
     B::RightLowerLeg, B::RightFoot, B::RightToes, B::RightEye, B::RightThumbMetacarpal},
}};

class AutoMapper {
 public:
  AutoMapper(const Model& model, std::span<const glm::mat4> rest) : model_(model), rest_(rest), rig_(model) {
    names_.reserve(model.nodes.size());
    for (std::size_t i = 0; i < model.nodes.size(); ++i) {
      names_.push_back(humanoid_names::classify_node_name(model.nodes[i].name));
      const NodeName& n = names_.back();
      if (n.helper || n.part == Part::None) continue;
      if (n.part == Part::Finger) fingers_[n.finger].push_back(static_cast<int>(i));
      else bucket(n.part, n.side).push_back(static_cast<int>(i));
    }
  }

  HumanoidMap run() {
    pick_tops();
    settle_hips();
    for (const Limb& limb : kLimbs) pick_limb(limb);
    pick_spine();
    for (const Limb& limb : kLimbs) {
      if (map_.has(limb.hand)) pick_fingers(limb);
    }
    confirm_sides();
    drop_strays();
    check_required();
    return std::move(map_);
  }

 private:
  std::vector<int>& bucket(Part part, Side side) {
    return buckets_[static_cast<std::size_t>(part) * humanoid_names::kSideCount + static_cast<std::size_t>(side)];
  }
  void note(std::string text) { map_.notes.push_back(std::move(text)); }

  // Of the nodes whose names read as `part` on `side` and pass `eligible`, the one to map: not an
  // end marker when another fits, then below the hips found so far, then the one with the most
  // descendants (the top of a chain of look-alikes: neck_01 over neck_02, Hips over `Hips 1`),
  // then the lowest index. A choice among several is noted.
  template <class Eligible>
  int pick(B bone, Part part, Side side, Eligible&& eligible) {
    const auto key = [&](int node) {
      return std::tuple(names_[static_cast<std::size_t>(node)].end, hips_ >= 0 && !rig_.below(node, hips_),
                        -static_cast<std::int64_t>(rig_.descendants(node)), node);
    };
    int best = -1;
    for (int node : bucket(part, side)) {
      if (eligible(node) && (best < 0 || key(node) < key(best))) best = node;
    }
    if (best < 0) return -1;
    std::string others;
    int count = 0;
    const bool best_is_end = names_[static_cast<std::size_t>(best)].end;
    for (int node : bucket(part, side)) {
      if (node == best || !eligible(node) || names_[static_cast<std::size_t>(node)].end != best_is_end) continue;
      if (++count <= 3) others += (count > 1 ? ", " : "") + label(model_, node);
    }
    if (count > 0) {
      note(bone_name(bone) + ": " + label(model_, best) + ", chosen among " + std::to_string(count + 1) +
           " nodes whose names read as it (below hips first, then the most descendants, then the first); the others: " +
           others + (count > 3 ? ", ..." : ""));
    } else if (best_is_end) {
      note(bone_name(bone) + ": " + label(model_, best) + ", an end marker, the only node whose name reads as it");
    }
    return best;
  }
  int pick_below(B bone, Part part, Side side, int anchor) {
    if (anchor < 0) return -1;
    return pick(bone, part, side, [&](int node) { return rig_.below(node, anchor); });
  }
  int pick_any(B bone, Part part, Side side) {
    return pick(bone, part, side, [](int) { return true; });
  }

  void pick_tops();
  void settle_hips();
  void pick_limb(const Limb& limb);
  int pick_hand(const Limb& limb, int lower_arm);
  void pick_spine();
  void pick_fingers(const Limb& limb);
  std::vector<glm::vec3> rest_positions() const;
  void confirm_sides();
  void drop_strays();
  void check_required() const;
  std::string candidates_for(B bone) const;

  const Model& model_;
  std::span<const glm::mat4> rest_;
  Rig rig_;
  std::vector<NodeName> names_;
  std::array<std::vector<int>, humanoid_names::kPartCount * humanoid_names::kSideCount> buckets_;
  std::array<std::vector<int>, 5> fingers_;  // by finger, either side: a hand's subtree decides
  HumanoidMap map_;
  int hips_ = -1;  // the hips chosen so far (pick's preference)
};

// Step 1: hips by name, then the bones that hang from it, preferring nodes below it.
void AutoMapper::pick_tops() {
  hips_ = pick_any(B::Hips, Part::Hips, Side::None);
  map_.set(B::Head, pick_any(B::Head, Part::Head, Side::None));
  for (const Limb& limb : kLimbs) {
    map_.set(limb.upper_arm, pick_any(limb.upper_arm, Part::UpperArm, limb.side));
    map_.set(limb.upper_leg, pick_any(limb.upper_leg, Part::UpperLeg, limb.side));
  }
}

// Step 2: hips must be above the head, arms and legs (VRM's hierarchy). When the node named so is
// not (seymour's pelvis holds only the spine; its legs hang from `root` beside it), hips is the
// deepest common ancestor of the five, unless that is the importers' synthetic root.
void AutoMapper::settle_hips() {
  const std::array<B, 5> tops{B::Head, B::LeftUpperArm, B::RightUpperArm, B::LeftUpperLeg, B::RightUpperLeg};
  bool all_below = hips_ >= 0;
  int common = -1, found = 0;
  for (B bone : tops) {
    const int node = map_.node(bone);
    if (node < 0) continue;
    all_below = all_below && rig_.below(node, hips_);
    common = found++ == 0 ? node : rig_.common_ancestor(common, node);
  }
  const bool synthetic_root = is_synthetic_root(model_, common);
  bool common_is_a_top = false;
  for (B bone : tops) common_is_a_top = common_is_a_top || map_.node(bone) == common;
  if (!all_below && found >= 2 && common >= 0 && !synthetic_root && !common_is_a_top) {
    note("hips: " + label(model_, common) + ", the common ancestor of the head, arms and legs" +
         (hips_ >= 0 ? ", since " + label(model_, hips_) + ", whose name reads as hips, is not above them all" : ""));
    hips_ = common;
  }
  map_.set(B::Hips, hips_);
}

// Step 3 for one side: each bone below the one before it.
void AutoMapper::pick_limb(const Limb& limb) {
  const int hips = hips_, head = map_.node(B::Head);
  const int upper_arm = map_.node(limb.upper_arm);
  // The shoulder (clavicle) is above the upper arm, below hips, and not on the way to the head.
  map_.set(limb.shoulder, pick(limb.shoulder, Part::Shoulder, limb.side, [&](int node) {
             return rig_.below(upper_arm, node) && (hips < 0 || rig_.below(node, hips)) && !rig_.below(head, node);
           }));
  const int lower_arm = pick_below(limb.lower_arm, Part::LowerArm, limb.side, upper_arm);
  map_.set(limb.lower_arm, lower_arm);
  map_.set(limb.hand, pick_hand(limb, lower_arm));
  const int lower_leg = pick_below(limb.lower_leg, Part::LowerLeg, limb.side, map_.node(limb.upper_leg));
  map_.set(limb.lower_leg, lower_leg);
  const int foot = pick_below(limb.foot, Part::Foot, limb.side, lower_leg);
  map_.set(limb.foot, foot);
  map_.set(limb.toes, pick_below(limb.toes, Part::Toes, limb.side, foot));
  map_.set(limb.eye, pick_below(limb.eye, Part::Eye, limb.side, head));
  if (limb.side == Side::Left) map_.set(B::Jaw, pick_below(B::Jaw, Part::Jaw, Side::None, head));
}

// VRM's hand is the wrist joint, the one the hand turns about. A rig with both (KayKit:
// lowerarm.l -> wrist.l -> hand.l -> handslot.l) maps the wrist when the hand bone is its child
// and holds no fingers (a leaf, or props only); a hand bone that holds the fingers is the hand.
int AutoMapper::pick_hand(const Limb& limb, int lower_arm) {
  const int hand = pick_below(limb.hand, Part::Hand, limb.side, lower_arm);
  const int wrist = pick_below(limb.hand, Part::Wrist, limb.side, lower_arm);
  if (wrist < 0) return hand;
  if (hand < 0) return wrist;
  if (rig_.parent(hand) != wrist) return hand;
  for (const std::vector<int>& finger : fingers_) {
    for (int node : finger) {
      if (rig_.below(node, hand)) return hand;
    }
  }
  note(bone_name(limb.hand) + ": " + label(model_, wrist) + ", the wrist joint the hand turns about; " +
       label(model_, hand) + " below it holds no fingers");
  return wrist;
}

// spine, chest, upperChest: the bones on the path from hips to the neck (or the head), without
// helpers and without the nodes the legs hang from (a `Pelvis` under `Hips`, biped's
// `Bip01 Spine`): one bone is spine; two are spine and chest; more are spine, chest (the middle
// one, the upper of two middles) and upperChest (the last).
void AutoMapper::pick_spine() {
  const int head = map_.node(B::Head);
  const int neck = pick(B::Neck, Part::Neck, Side::None,
                        [&](int node) { return rig_.below(head, node) && (hips_ < 0 || rig_.below(node, hips_)); });
  map_.set(B::Neck, neck);
  const int top = neck >= 0 ? neck : head;
  if (top < 0 || !rig_.below(top, hips_)) return;
  std::vector<int> path;
  int branch = -1;  // the deepest node of the path the legs hang from
  for (int node = rig_.parent(top); node != hips_; node = rig_.parent(node)) {
    bool legs_hang_here = false;
    for (const Limb& limb : kLimbs) legs_hang_here = legs_hang_here || rig_.below(map_.node(limb.upper_leg), node);
    if (legs_hang_here && branch < 0) branch = node;
    if (!names_[static_cast<std::size_t>(node)].helper && !legs_hang_here) path.push_back(node);
  }
  std::reverse(path.begin(), path.end());
  if (path.empty()) return;
  if (branch >= 0) note("spine: the chain starts below " + label(model_, branch) + ", which the legs hang from");
  map_.set(B::Spine, path.front());
  if (path.size() >= 2) map_.set(B::Chest, path[path.size() / 2]);
  if (path.size() >= 3) map_.set(B::UpperChest, path.back());
}

// Each finger's chain from the hand outwards: the top node whose name reads as that finger, then
// a child of the same finger, three joints at most. VRM's thumb has a metacarpal, proximal and
// distal; the other fingers proximal, intermediate and distal: the first three joints either way
// ("thumb.proximal.L", "LeftHandThumb1" and "rThumb1" are all the thumb's metacarpal).
void AutoMapper::pick_fingers(const Limb& limb) {
  const int hand = map_.node(limb.hand);
  for (std::size_t f = 0; f < fingers_.size(); ++f) {
    const auto same_finger = [&](int node) {
      return !names_[static_cast<std::size_t>(node)].end && names_[static_cast<std::size_t>(node)].part == Part::Finger &&
             names_[static_cast<std::size_t>(node)].finger == f;
    };
    const auto better = [&](int a, int b) {  // more descendants, then the lower index
      return b < 0 || rig_.descendants(a) > rig_.descendants(b) || (rig_.descendants(a) == rig_.descendants(b) && a < b);
    };
    int node = -1;
    for (int candidate : fingers_[f]) {
      if (same_finger(candidate) && rig_.below(candidate, hand) && better(candidate, node)) node = candidate;
    }
    for (int joint = 0; joint < 3 && node >= 0; ++joint) {
      map_.set(static_cast<B>(static_cast<int>(limb.first_finger) + static_cast<int>(f) * 3 + joint), node);
      int next = -1;
      for (int child : rig_.children(node)) {
        if (same_finger(child) && better(child, next)) next = child;
      }
      node = next;
    }
  }
}

std::vector<glm::vec3> AutoMapper::rest_positions() const {
  std::vector<glm::mat4> model_space(rig_.size());
  std::vector<glm::vec3> out(rig_.size());
  for (std::size_t i = 0; i < rig_.size(); ++i) {
    const glm::mat4& local = rest_.empty() ? model_.nodes[i].transform : rest_[i];
    const int p = rig_.parent(static_cast<int>(i));
    model_space[i] = p < 0 ? local : model_space[static_cast<std::size_t>(p)] * local;
    out[i] = glm::vec3(model_space[i][3]);
  }
  return out;
}

// Step 4a: a left bone lies on the rig's left of the plane through hips spanned by up (hips to
// head) and facing (feet to toes; a foot without toes uses its first child, a BVH End Site).
// When the upper arms and legs named left lie clearly on the right (by more than 5% of the hips
// to head distance, summed), every sided bone swaps sides. Without toes or with a degenerate
// (or non-finite) rest pose, the names stand.
void AutoMapper::confirm_sides() {
  const int hips = map_.node(B::Hips), head = map_.node(B::Head);
  if (hips < 0 || head < 0) return;
  const std::vector<glm::vec3> at = rest_positions();
  const auto pos = [&](int node) { return at[static_cast<std::size_t>(node)]; };
  const glm::vec3 up = pos(head) - pos(hips);
  glm::vec3 facing(0.f);
  for (const Limb& limb : kLimbs) {
    const int foot = map_.node(limb.foot);
    if (foot < 0) continue;
    int toe = map_.node(limb.toes);
    if (toe < 0 && !rig_.children(foot).empty()) toe = rig_.children(foot)[0];
    if (toe >= 0) facing += pos(toe) - pos(foot);
  }
  const float up_squared = glm::dot(up, up);
  if (!(up_squared > 0.f)) return;
  facing -= up * (glm::dot(facing, up) / up_squared);
  const glm::vec3 left = glm::cross(up, facing);  // +X for a rig standing up +Y and facing +Z
  float spread = 0.f;
  const std::array<std::pair<B, B>, 2> pairs{{{B::LeftUpperArm, B::RightUpperArm}, {B::LeftUpperLeg, B::RightUpperLeg}}};
  for (const auto& [l, r] : pairs) {
    if (map_.has(l) && map_.has(r)) spread += glm::dot(pos(map_.node(l)) - pos(map_.node(r)), left);
  }
  const float left_length = glm::length(left), size = std::sqrt(up_squared);
  if (!std::isfinite(spread) || !std::isfinite(size) || !(left_length > 0.f)) return;
  if (spread / left_length >= -0.05f * size) return;
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<B>(b);
    if (mirrored(bone) > bone) std::swap(map_.nodes[b], map_.nodes[static_cast<std::size_t>(mirrored(bone))]);
  }
  note("sides swapped: the bones named left lie on the rig's right in the rest pose (up: hips to head, facing: "
       "feet to toes)");
}

// Step 4b: every bone below hips and no node twice (the first bone in enum order keeps it), so
// what the mapper returns passes validate(HumanoidMap, Model).
void AutoMapper::drop_strays() {
  const int hips = map_.node(B::Hips);
  if (hips < 0) return;  // check_required refuses the map
  std::vector<int> used{hips};
  for (std::size_t b = 1; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<B>(b);
    const int node = map_.node(bone);
    if (node < 0) continue;
    if (!rig_.below(node, hips) || std::find(used.begin(), used.end(), node) != used.end()) {
      note(bone_name(bone) + ": " + label(model_, node) + " left out: it is not below hips or is mapped already");
      map_.set(bone, -1);
      continue;
    }
    used.push_back(node);
  }
}

void AutoMapper::check_required() const {
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<B>(b);
    if (is_required(bone) && !map_.has(bone)) {
      throw std::invalid_argument("no " + bone_name(bone) + ": candidates seen: " + candidates_for(bone));
    }
  }
}

// The nodes that look closest to a missing bone (at most 8): words of its part in the name ("arm",
// "fore", "elbow", ... for a lower arm), more when the whole name reads as that part or the node
// hangs where the bone would (a child of the upper arm found), more again on the right side.
std::string AutoMapper::candidates_for(B bone) const {
  Part part = bone == B::Hips ? Part::Hips : bone == B::Spine ? Part::Spine : Part::Head;
  Side side = Side::None;
  for (const Limb& limb : kLimbs) {
    const std::array<std::pair<B, Part>, 6> parts{{{limb.upper_arm, Part::UpperArm}, {limb.lower_arm, Part::LowerArm},
                                                   {limb.hand, Part::Hand}, {limb.upper_leg, Part::UpperLeg},
                                                   {limb.lower_leg, Part::LowerLeg}, {limb.foot, Part::Foot}}};
    for (const auto& [b, p] : parts) {
      if (b == bone) part = p, side = limb.side;
    }
  }
  const std::optional<B> parent_bone = profile_parent(bone);
  const int anchor = parent_bone ? map_.node(*parent_bone) : -1;
  std::vector<std::pair<int, int>> scored;  // (-score, node): sorted, the best first
  for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
    if (is_synthetic_root(model_, static_cast<int>(i))) continue;
    int score = humanoid_names::hint_score(humanoid_names::name_words(model_.nodes[i].name), part);
    if (anchor >= 0 && rig_.parent(static_cast<int>(i)) == anchor) score += 2;
    if (score == 0) continue;
    if (names_[i].part == part || (part == Part::Hand && names_[i].part == Part::Wrist)) score += 2;
    if (side != Side::None && names_[i].side == side) score += 1;
    scored.emplace_back(-score, static_cast<int>(i));
  }
  const std::size_t shown = std::min<std::size_t>(scored.size(), 8);
  std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(shown), scored.end());
  if (shown == 0) return "none";
  std::string out;
  for (std::size_t k = 0; k < shown; ++k) out += (k > 0 ? ", " : "") + label(model_, scored[k].second);
  return out;
}


}  // namespace

HumanoidMap auto_humanoid_map(const Model& model, std::span<const glm::mat4> rest_locals) {
  if (!rest_locals.empty() && rest_locals.size() != model.nodes.size()) {
    throw std::invalid_argument("humanoid map: " + std::to_string(rest_locals.size()) + " rest matrices for " +
                                std::to_string(model.nodes.size()) + " nodes");
  }
  return AutoMapper(model, rest_locals).run();
}

HumanoidMap humanoid_map(const Model& model, std::span<const glm::mat4> rest_locals) {
  if (model.humanoid) {
    validate(*model.humanoid, model);
    return *model.humanoid;
  }
  return auto_humanoid_map(model, rest_locals);
}

void validate(const HumanoidMap& map, const Model& model) {
  const std::size_t n = model.nodes.size();
  const auto named = [&](B bone) {
    const int node = map.node(bone);
    const std::string& name = model.nodes[static_cast<std::size_t>(node)].name;
    return bone_name(bone) + " (node " + std::to_string(node) + " " + quoted_name(name) + ")";
  };
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<B>(b);
    const int node = map.node(bone);
    if (node < -1 || (node >= 0 && static_cast<std::size_t>(node) >= n)) {
      throw std::invalid_argument("humanoid map: " + bone_name(bone) + " names node " + std::to_string(node) +
                                  ", but the model has " + std::to_string(n) + " nodes");
    }
    if (node < 0 && is_required(bone)) {
      throw std::invalid_argument("humanoid map: no " + bone_name(bone) + " (a required bone)");
    }
  }
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<B>(b);
    if (!map.has(bone)) continue;
    for (std::size_t earlier = 0; earlier < b; ++earlier) {
      if (map.nodes[earlier] == map.node(bone)) {
        throw std::invalid_argument("humanoid map: " + bone_name(static_cast<B>(earlier)) + " and " + named(bone) +
                                    " name the same node");
      }
    }
    if (bone != B::Hips && !model.descends_from(map.node(bone), map.node(B::Hips))) {
      throw std::invalid_argument("humanoid map: " + named(bone) + " is not below hips, " + named(B::Hips));
    }
  }
}

}  // namespace marrow
