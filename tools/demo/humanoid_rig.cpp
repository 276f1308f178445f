#include "demo/humanoid_rig.hpp"

#include <cmath>
#include <random>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/trs.hpp"

namespace marrow::demo {
namespace {

glm::quat random_rotation(std::mt19937& rng, float max_angle) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  glm::vec3 axis(u(rng), u(rng), u(rng));
  if (glm::length(axis) < 1e-3f) axis = glm::vec3(0.f, 1.f, 0.f);
  return glm::angleAxis(max_angle * u(rng), glm::normalize(axis));
}

}  // namespace

std::vector<RigJoint> humanoid_joints(const HumanoidRigSpec& spec) {
  std::vector<RigJoint> j{{"Hips", "Armature", {0.f, 1.f, 0.f}}};
  if (spec.spine_bones == 3) {
    j.push_back({"Spine", "Hips", {0.f, 1.1f, 0.01f}});
    j.push_back({"Spine1", "Spine", {0.f, 1.25f, 0.02f}});
    j.push_back({"Spine2", "Spine1", {0.f, 1.4f, 0.01f}});
  } else {
    j.push_back({"Spine", "Hips", {0.f, 1.12f, 0.01f}});
    j.push_back({"Spine1", "Spine", {0.f, 1.32f, 0.02f}});
  }
  const std::string top = spec.spine_bones == 3 ? "Spine2" : "Spine1";
  j.push_back({"Neck", top, {0.f, 1.55f, 0.f}});
  j.push_back({"Head", "Neck", {0.f, 1.65f, 0.02f}});
  if (spec.extra_leaf) j.push_back({"HeadTop_End", "Head", {0.f, 1.85f, 0.02f}});
  const float a = spec.arm_length;
  for (const float side : {1.f, -1.f}) {
    const std::string s = side > 0.f ? "Left" : "Right";
    const auto name = [&](const char* bone) { return s + bone; };
    j.push_back({name("Shoulder"), top, {side * 0.05f, 1.5f, 0.f}});
    j.push_back({name("Arm"), name("Shoulder"), {side * 0.18f, 1.5f, 0.f}});
    j.push_back({name("ForeArm"), name("Arm"), {side * (0.18f + 0.27f * a), 1.48f, -0.01f}});
    const float hand = 0.18f + 0.52f * a;
    j.push_back({name("Hand"), name("ForeArm"), {side * hand, 1.47f, 0.f}});
    if (spec.fingers) {
      const char* fingers[] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
      for (int f = 0; f < 5; ++f) {
        std::string parent = name("Hand");
        for (int k = 1; k <= 4; ++k) {
          const std::string joint = name("Hand") + fingers[f] + std::to_string(k);
          const float along = f == 0 ? 0.02f * static_cast<float>(k) : 0.06f + 0.025f * static_cast<float>(k);
          const float forward = f == 0 ? 0.03f + 0.01f * static_cast<float>(k) : 0.03f - 0.015f * static_cast<float>(f);
          j.push_back({joint, parent, {side * (hand + along), 1.46f, forward}});
          parent = joint;
        }
      }
    }
    j.push_back({name("UpLeg"), "Hips", {side * 0.1f, 0.95f, 0.f}});
    j.push_back({name("Leg"), name("UpLeg"), {side * 0.1f, 0.5f, 0.02f}});
    j.push_back({name("Foot"), name("Leg"), {side * 0.1f, 0.08f, 0.f}});
    j.push_back({name("ToeBase"), name("Foot"), {side * 0.1f, 0.f, 0.12f}});
    if (spec.fingers) j.push_back({name("Toe_End"), name("ToeBase"), {side * 0.1f, 0.f, 0.2f}});
  }
  return j;
}

Model humanoid_rig(const HumanoidRigSpec& spec) {
  Model model;
  model.nodes.push_back({"<root>", -1, glm::mat4(1.f), -1});
  model.nodes.push_back({"Armature", 0, glm::mat4_cast(spec.placement) * glm::scale(glm::mat4(1.f), glm::vec3(spec.unit)), 0});
  std::mt19937 rng(spec.seed);
  std::vector<glm::quat> world_rotation{glm::quat(1.f, 0.f, 0.f, 0.f), glm::quat(1.f, 0.f, 0.f, 0.f)};
  std::vector<glm::vec3> world_position{glm::vec3(0.f), glm::vec3(0.f)};
  const auto index_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < model.nodes.size(); ++i)
      if (model.nodes[i].name == name) return static_cast<int>(i);
    return -1;
  };
  for (const RigJoint& joint : humanoid_joints(spec)) {
    const int parent = index_of(joint.parent);
    const auto p = static_cast<std::size_t>(parent);
    const glm::vec3 position = joint.position * spec.height;
    const glm::quat rotation = world_rotation[p] * random_rotation(rng, 3.f);
    const glm::quat local_rotation = glm::inverse(world_rotation[p]) * rotation;
    const glm::vec3 local_translation = glm::inverse(world_rotation[p]) * (position - world_position[p]);
    model.nodes.push_back({joint.name, parent, compose_trs(local_translation, local_rotation, glm::vec3(1.f)),
                           static_cast<int>(model.nodes.size())});
    world_rotation.push_back(rotation);
    world_position.push_back(position);
  }
  model.source.node_to_bone.clear();
  return model;
}

void add_random_clip(Model& model, const std::string& name, unsigned seed, float max_angle, double seconds, double rate) {
  ModelAnimation animation;
  animation.name = name;
  animation.duration = ticks_from_seconds(seconds);
  animation.scene_clip = AnimationClip{name, animation.duration, {}, ClipTargetSpace::SceneNode};
  std::mt19937 rng(seed);
  const int keys = static_cast<int>(std::lround(seconds * rate)) + 1;
  for (std::size_t n = 2; n < model.nodes.size(); ++n) {
    const Trs rest = decompose_trs(model.nodes[n].transform);
    BoneTrack track{static_cast<int>(n), {}};
    for (int k = 0; k < keys; ++k) {
      const double t = seconds * k / (keys - 1);
      Keyframe key{ticks_from_seconds(t), rest.translation, rest.rotation * random_rotation(rng, max_angle), rest.scale};
      if (model.nodes[n].name == "Hips")
        key.translation = rest.translation + glm::vec3(0.05f * std::sin(6.0 * t), 0.03f * std::sin(12.0 * t), 0.4f * t);
      track.keys.push_back(key);
    }
    animation.scene_clip.tracks.push_back(std::move(track));
  }
  model.animations.push_back(std::move(animation));
}

}  // namespace marrow::demo
