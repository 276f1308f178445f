#include "motion_mirror.hpp"

#include <cmath>
#include <stdexcept>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/model/humanoid_map.hpp"

namespace marrow::detail {

namespace {

glm::mat3 rest_rotation(const Model& model, int node) {
  glm::mat4 w(1.f);
  for (int n = node; n >= 0; n = model.nodes[static_cast<std::size_t>(n)].parent) w = model.nodes[static_cast<std::size_t>(n)].transform * w;
  return glm::mat3_cast(decompose_trs(w).rotation);
}

glm::vec3 rest_position(const Model& model, int node) {
  glm::mat4 w(1.f);
  for (int n = node; n >= 0; n = model.nodes[static_cast<std::size_t>(n)].parent) w = model.nodes[static_cast<std::size_t>(n)].transform * w;
  return glm::vec3(w[3]);
}

}  // namespace

glm::mat4 reflection(const glm::vec3& point, const glm::vec3& normal) {
  glm::mat4 s(1.f);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) s[c][r] -= 2.f * normal[r] * normal[c];
  const glm::vec3 t = 2.f * glm::dot(point, normal) * normal;
  s[3] = glm::vec4(t, 1.f);
  return s;
}

MotionMirror make_motion_mirror(const Model& model, int left_leg, int right_leg) {
  const HumanoidMap map = humanoid_map(model);  // throws naming the bone it cannot find
  MotionMirror m;
  const std::size_t nodes = model.nodes.size();
  m.mirror.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n) m.mirror[n] = static_cast<int>(n);
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<HumanoidBone>(b);
    const int node = map.node(bone), other = map.node(mirrored(bone));
    if (node < 0) continue;
    if (other < 0)
      throw std::invalid_argument("MotionDatabase: mirror: the humanoid map has " + std::string(to_string(bone)) + " but not " +
                                  std::string(to_string(mirrored(bone))));
    m.mirror[static_cast<std::size_t>(node)] = other;
  }
  // The rest pose's sagittal plane: its normal runs across the upper legs.
  const glm::vec3 across = rest_position(model, left_leg) - rest_position(model, right_leg);
  if (!(glm::length(across) > 1e-6f)) throw std::invalid_argument("MotionDatabase: mirror: the upper legs meet in the rest pose");
  const glm::mat3 s_rest(reflection(glm::vec3(0.f), glm::normalize(across)));
  m.correction.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n) {
    const int other = m.mirror[n];
    m.correction[n] = glm::mat4(glm::transpose(rest_rotation(model, static_cast<int>(n))) * s_rest * rest_rotation(model, other));
  }
  return m;
}

void mirror_pose(const MotionMirror& mirror, const glm::mat4& reflect, std::span<const glm::mat4> world, std::vector<glm::mat4>& out) {
  out.resize(world.size());
  for (std::size_t n = 0; n < world.size() && n < mirror.mirror.size(); ++n)
    out[static_cast<std::size_t>(mirror.mirror[n])] = reflect * world[n] * mirror.correction[n];
}

}  // namespace marrow::detail
