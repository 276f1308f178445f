#include "marrow/model/rest_pose.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "marrow/core/ticks.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/model/absolute_bone_transforms.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/model.hpp"
#include "runtime/ik_geometry.hpp"

namespace marrow {
namespace {

using B = HumanoidBone;

std::vector<glm::mat4> worlds_of(const Model& model, std::span<const glm::mat4> locals) {
  std::vector<glm::mat4> worlds(locals.size());
  compose_node_transforms(model, locals, worlds);
  return worlds;
}

glm::dvec3 at(const std::vector<glm::mat4>& worlds, const HumanoidMap& map, B bone) {
  return glm::dvec3(worlds[static_cast<std::size_t>(map.node(bone))][3]);
}

// Up, right and forward of a pose (the header's), or nothing for a degenerate one.
struct Axes {
  glm::dvec3 up, right, forward;
};

std::optional<Axes> axes_of(const std::vector<glm::mat4>& worlds, const HumanoidMap& map) {
  const glm::dvec3 up = at(worlds, map, B::Head) - at(worlds, map, B::Hips);
  glm::dvec3 right = at(worlds, map, B::RightUpperLeg) - at(worlds, map, B::LeftUpperLeg);
  if (!(glm::length(up) > 1e-9)) return std::nullopt;
  const glm::dvec3 u = glm::normalize(up);
  right -= u * glm::dot(right, u);
  if (!(glm::length(right) > 1e-9)) return std::nullopt;
  const glm::dvec3 r = glm::normalize(right);
  return Axes{u, r, glm::cross(u, r)};
}

// One swing of the T-pose: `bone` turned so that the first of `ends` the rig has lies along `dir`.
enum class Dir { Up, Down, Left, Right, Forward };
struct Swing {
  B bone;
  std::initializer_list<B> ends;
  Dir dir;
};

const Swing kSwings[] = {
    {B::Spine, {B::Chest, B::UpperChest, B::Neck, B::Head}, Dir::Up},
    {B::Chest, {B::UpperChest, B::Neck, B::Head}, Dir::Up},
    {B::UpperChest, {B::Neck, B::Head}, Dir::Up},
    {B::Neck, {B::Head}, Dir::Up},
    {B::LeftUpperLeg, {B::LeftLowerLeg}, Dir::Down},
    {B::LeftLowerLeg, {B::LeftFoot}, Dir::Down},
    {B::LeftFoot, {B::LeftToes}, Dir::Forward},
    {B::RightUpperLeg, {B::RightLowerLeg}, Dir::Down},
    {B::RightLowerLeg, {B::RightFoot}, Dir::Down},
    {B::RightFoot, {B::RightToes}, Dir::Forward},
    {B::LeftShoulder, {B::LeftUpperArm}, Dir::Left},
    {B::LeftUpperArm, {B::LeftLowerArm}, Dir::Left},
    {B::LeftLowerArm, {B::LeftHand}, Dir::Left},
    {B::LeftHand, {B::LeftMiddleProximal}, Dir::Left},
    {B::RightShoulder, {B::RightUpperArm}, Dir::Right},
    {B::RightUpperArm, {B::RightLowerArm}, Dir::Right},
    {B::RightLowerArm, {B::RightHand}, Dir::Right},
    {B::RightHand, {B::RightMiddleProximal}, Dir::Right},
};

// Feet keep their pitch: only their heading turns to forward.
glm::dvec3 wanted(Dir dir, const Axes& a, const glm::dvec3& now) {
  switch (dir) {
    case Dir::Up: return a.up;
    case Dir::Down: return -a.up;
    case Dir::Left: return -a.right;
    case Dir::Right: return a.right;
    case Dir::Forward: {
      const double rise = glm::dot(glm::normalize(now), a.up);
      return glm::normalize(a.forward * std::sqrt(std::max(0.0, 1.0 - rise * rise)) + a.up * rise);
    }
  }
  return now;
}

void swing(const Model& model, std::vector<glm::mat4>& locals, const HumanoidMap& map, const Swing& s, const Axes& axes) {
  const int node = map.node(s.bone);
  int end = -1;
  for (const B e : s.ends)
    if (map.has(e)) {
      end = map.node(e);
      break;
    }
  if (node < 0 || end < 0) return;
  const std::vector<glm::mat4> worlds = worlds_of(model, locals);
  const auto n = static_cast<std::size_t>(node);
  const glm::dvec3 now = glm::dvec3(worlds[static_cast<std::size_t>(end)][3]) - glm::dvec3(worlds[n][3]);
  if (!(glm::length(now) > 1e-9)) return;
  const detail::ik::Quat turn = detail::ik::shortest_arc(now, wanted(s.dir, axes, now), axes.forward);
  Trs local = decompose_trs(locals[n]);
  local.rotation = glm::normalize(local.rotation * glm::quat(detail::ik::to_local(turn, detail::ik::frame_of(worlds[n]))));
  locals[n] = compose_trs(local);
}

}  // namespace

RestPose parse_rest_pose(std::string_view text) {
  if (text == "tpose") return {RestPose::Kind::TPose, {}, 0.0};
  if (text == "bind") return {};
  const std::size_t at_sign = text.rfind('@');
  const std::string quoted = "\"" + std::string(text) + "\"";
  if (at_sign == std::string_view::npos || at_sign == 0)
    throw std::invalid_argument("rest pose " + quoted + " is not CLIP@SECONDS, tpose or bind");
  const std::string seconds_text(text.substr(at_sign + 1));
  double seconds = 0.0;
  const auto [end, error] = std::from_chars(seconds_text.data(), seconds_text.data() + seconds_text.size(), seconds);
  if (error != std::errc() || end != seconds_text.data() + seconds_text.size() || !std::isfinite(seconds) || seconds < 0.0)
    throw std::invalid_argument("rest pose " + quoted + ": the time after '@' is not a finite number of seconds >= 0");
  return {RestPose::Kind::Clip, std::string(text.substr(0, at_sign)), seconds};
}

std::vector<glm::mat4> rest_locals(const Model& model, const RestPose& rest) {
  std::vector<glm::mat4> locals(model.nodes.size());
  if (rest.kind != RestPose::Kind::Clip) {
    for (std::size_t i = 0; i < model.nodes.size(); ++i) locals[i] = model.nodes[i].transform;
    return locals;
  }
  const int index = model.find_animation(rest.clip);
  if (index < 0) throw std::invalid_argument("rest pose: the model has no clip named \"" + rest.clip + "\"");
  Animator animator(model);
  animator.play(index);
  const Ticks duration = model.animations[static_cast<std::size_t>(index)].duration;
  animator.update(std::min(ticks_from_seconds(rest.seconds), duration), false, false);
  const std::span<const glm::mat4> pose = animator.bone_transforms();
  std::copy(pose.begin(), pose.end(), locals.begin());
  return locals;
}

bool is_standing(const Model& model, std::span<const glm::mat4> locals, const HumanoidMap& map) {
  const std::vector<glm::mat4> worlds = worlds_of(model, locals);
  const glm::dvec3 up = at(worlds, map, B::Head) - at(worlds, map, B::Hips);
  if (!(glm::length(up) > 1e-9)) return false;
  for (const auto& [upper, foot] : {std::pair{B::LeftUpperLeg, B::LeftFoot}, std::pair{B::RightUpperLeg, B::RightFoot}}) {
    const glm::dvec3 leg = at(worlds, map, foot) - at(worlds, map, upper);
    if (!(glm::dot(leg, glm::normalize(up)) < -0.5 * glm::length(leg))) return false;
  }
  return true;
}

std::vector<glm::mat4> t_pose(const Model& model, std::span<const glm::mat4> reference, const HumanoidMap& map) {
  std::vector<glm::mat4> locals(reference.begin(), reference.end());
  const std::optional<Axes> axes = axes_of(worlds_of(model, locals), map);
  if (!axes) return locals;
  for (const Swing& s : kSwings) swing(model, locals, map, s, *axes);
  return locals;
}

}  // namespace marrow
