#include "motion_mirror.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/model/animator.hpp"
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

// The rotation of `m` (a rotation times a positive scale per axis).
glm::quat rotation_of(const glm::mat3& m) { return glm::normalize(glm::quat_cast(glm::mat3(glm::normalize(m[0]), glm::normalize(m[1]), glm::normalize(m[2])))); }

float angle_between(const glm::quat& a, const glm::quat& b) { return 2.f * std::acos(std::min(1.f, std::abs(glm::dot(a, b)))); }

// C[n]'s half turn. A rest pose that is not symmetric about the plane across the upper legs
// (each bone with axes of its own, as in many BVH rigs, where a right arm's bones point along -x
// and the left's along +x) leaves C[n] off by a half turn about an axis of m(n)'s frame:
// positions still mirror, but the mirrored clip's local transforms then differ from the original
// clips' (a child's offset reversed, its rotation by a half turn), and an inertialized switch
// between the two swings the limb through the difference. Of the four candidates C[n] * T (T:
// none, or a half turn about x, y or z), the kept one maps m(n)'s children's offsets onto n's
// (C[n] * offset(m(c)) = offset(c): the mirrored local of m(c) is C[n]^-1 * L[c] * C[c]), and
// among those that do equally well, the one whose mirrored local rotations stay closest to
// m(n)'s own over frames of the model's first clip (none unless another is clearly closer).
// Parents come first; roots keep theirs.
void choose_half_turns(const Model& model, MotionMirror& m) {
  constexpr int kFrames = 24;
  const std::size_t nodes = model.nodes.size();
  std::vector<std::vector<glm::quat>> local;
  if (!model.animations.empty()) {
    local.assign(kFrames, std::vector<glm::quat>(nodes));
    Animator animator(model);
    animator.play(0, {.loop = LoopMode::Once});
    const Ticks duration = model.animations[0].duration;
    for (int f = 0; f < kFrames; ++f) {
      animator.update(Ticks{duration.count() * f / kFrames}, false);
      const std::span<const glm::mat4> w = animator.absolute_bone_transforms();
      for (std::size_t n = 0; n < nodes; ++n) {
        const int parent = model.nodes[n].parent;
        const glm::mat3 l = parent < 0 ? glm::mat3(w[n]) : glm::inverse(glm::mat3(w[static_cast<std::size_t>(parent)])) * glm::mat3(w[n]);
        local[static_cast<std::size_t>(f)][n] = rotation_of(l);
      }
    }
  }
  std::vector<std::vector<std::size_t>> children(nodes);
  for (std::size_t c = 0; c < nodes; ++c)
    if (model.nodes[c].parent >= 0) children[static_cast<std::size_t>(model.nodes[c].parent)].push_back(c);
  const glm::mat3 half_turns[4] = {glm::mat3(1.f), glm::mat3(glm::vec3(1, 0, 0), glm::vec3(0, -1, 0), glm::vec3(0, 0, -1)),
                                   glm::mat3(glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, -1)),
                                   glm::mat3(glm::vec3(-1, 0, 0), glm::vec3(0, -1, 0), glm::vec3(0, 0, 1))};
  for (std::size_t n = 0; n < nodes; ++n) {
    const int parent = model.nodes[n].parent;
    if (parent < 0) continue;
    const auto other = static_cast<std::size_t>(m.mirror[n]);
    const glm::mat3 parent_inverse = glm::inverse(glm::mat3(m.correction[static_cast<std::size_t>(parent)]));
    const glm::mat3 base(m.correction[n]);
    float offsets[4], rotations[4];
    for (int k = 0; k < 4; ++k) {
      const glm::mat3 c = base * half_turns[k];
      offsets[k] = 0.f;
      for (const std::size_t child : children[n]) {
        const glm::vec3 want(model.nodes[child].transform[3]);
        const glm::vec3 got = c * glm::vec3(model.nodes[static_cast<std::size_t>(m.mirror[child])].transform[3]);
        offsets[k] += glm::length(got - want) / std::max(glm::length(want), 1e-6f);
      }
      rotations[k] = 0.f;
      for (std::size_t f = 0; f < local.size(); ++f) {
        const glm::quat mirrored = rotation_of(parent_inverse * glm::mat3_cast(local[f][n]) * c);
        rotations[k] += angle_between(mirrored, local[f][other]) / static_cast<float>(local.size());
      }
    }
    int chosen = 0;
    for (int k = 1; k < 4; ++k) {
      const bool fits_better = offsets[k] < offsets[chosen] - 1e-3f;
      const bool fits_as_well = std::abs(offsets[k] - offsets[chosen]) <= 1e-3f;
      if (fits_better || (fits_as_well && rotations[k] < rotations[chosen] - 0.3f)) chosen = k;
    }
    m.correction[n] = glm::mat4(base * half_turns[chosen]);
  }
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
  choose_half_turns(model, m);
  return m;
}

void mirror_pose(const MotionMirror& mirror, const glm::mat4& reflect, std::span<const glm::mat4> world, std::vector<glm::mat4>& out) {
  out.resize(world.size());
  for (std::size_t n = 0; n < world.size() && n < mirror.mirror.size(); ++n)
    out[static_cast<std::size_t>(mirror.mirror[n])] = reflect * world[n] * mirror.correction[n];
}

}  // namespace marrow::detail
