#include "marrow/render/skeleton_overlay.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "marrow/model/skeleton_bones.hpp"
#include "marrow/render/box_overlay.hpp"
#include "marrow/render/overlay_drawing.hpp"

namespace marrow::render {

namespace {

// The nearest ancestor that is a joint, or -1. Parents come before children (validate(Model)),
// so the walk ends.
int parent_joint(const Model& model, std::span<const std::uint8_t> joints, int bone) {
  for (int b = model.nodes[static_cast<std::size_t>(bone)].parent; b >= 0; b = model.nodes[static_cast<std::size_t>(b)].parent) {
    if (joints[static_cast<std::size_t>(b)] != 0) return b;
  }
  return -1;
}

int joint_depth(const Model& model, std::span<const std::uint8_t> joints, int bone) {
  int depth = 0;
  for (int b = parent_joint(model, joints, bone); b >= 0; b = parent_joint(model, joints, b)) ++depth;
  return depth;
}

glm::vec3 position_of(const glm::mat4& m) { return glm::vec3(m[3]); }

}  // namespace

glm::vec3 skeleton_depth_colour(int depth) noexcept {
  // Warm to cool, bright enough to read over the shaded model.
  static constexpr std::array<glm::vec3, 7> kRamp{{{1.f, 0.9f, 0.1f},
                                                  {1.f, 0.45f, 0.05f},
                                                  {0.95f, 0.1f, 0.1f},
                                                  {0.9f, 0.1f, 0.7f},
                                                  {0.35f, 0.2f, 1.f},
                                                  {0.1f, 0.7f, 1.f},
                                                  {0.15f, 0.9f, 0.3f}}};
  return kRamp[static_cast<std::size_t>(depth < 0 ? 0 : depth) % kRamp.size()];
}

void draw_skeleton(const Model& model, std::span<const glm::mat4> bone_worlds, const Camera& camera, Framebuffer& target) {
  draw_skeleton(model, skeleton_bones(model), bone_worlds, camera, target);
}

void draw_skeleton(const Model& model, std::span<const std::uint8_t> joints, std::span<const glm::mat4> bone_worlds,
                   const Camera& camera, Framebuffer& target) {
  if (bone_worlds.size() != model.nodes.size()) {
    throw std::invalid_argument("draw_skeleton: " + std::to_string(bone_worlds.size()) + " transforms for " +
                                std::to_string(model.nodes.size()) + " bones");
  }
  if (joints.size() != model.nodes.size()) {
    throw std::invalid_argument("draw_skeleton: " + std::to_string(joints.size()) + " joint flags for " +
                                std::to_string(model.nodes.size()) + " bones");
  }
  const float w = overlay_half_width(target);
  const int bones = static_cast<int>(model.nodes.size());
  const auto is_joint = [&](int b) { return b > 0 && joints[static_cast<std::size_t>(b)] != 0; };
  // Lines first, then every dot over them.
  for (int b = 1; b < bones; ++b) {
    if (!is_joint(b)) continue;
    const int parent = parent_joint(model, joints, b);
    if (parent < 0) continue;
    const auto a = project_to_samples(camera, target, position_of(bone_worlds[static_cast<std::size_t>(parent)]));
    const auto c = project_to_samples(camera, target, position_of(bone_worlds[static_cast<std::size_t>(b)]));
    if (a && c) draw_line(target, *a, *c, skeleton_depth_colour(joint_depth(model, joints, b)), w);
  }
  for (int b = 1; b < bones; ++b) {
    if (!is_joint(b)) continue;
    const auto p = project_to_samples(camera, target, position_of(bone_worlds[static_cast<std::size_t>(b)]));
    if (!p) continue;
    draw_disc(target, *p, w * 3.2f, glm::vec3(0.02f));
    draw_disc(target, *p, w * 2.2f, skeleton_depth_colour(joint_depth(model, joints, b)));
  }
}

}  // namespace marrow::render
