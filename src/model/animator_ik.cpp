// The Animator's IK chains (animator.hpp): adding two-bone and aim chains by node name and setting
// their targets; the corrections run in the frame (animator_frame.cpp, run_ik).
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <glm/geometric.hpp>

#include "marrow/model/animator.hpp"

namespace marrow {

namespace {

// The end of the index range an IK correction at `root` can move: root's subtree, when its nodes
// are exactly [root, e) (depth-first node orders, the usual), else every node after root. Parents
// precede their children, so one forward pass finds the subtree.
std::size_t subtree_end(std::span<const int> parents, std::size_t root) {
  const std::size_t n = parents.size();
  std::vector<char> inside(n, 0);
  inside[root] = 1;
  std::size_t end = root + 1;
  bool contiguous = true;
  for (std::size_t i = root + 1; i < n; ++i) {
    const int p = parents[i];
    inside[i] = p >= static_cast<int>(root) && inside[static_cast<std::size_t>(p)];
    if (inside[i]) {
      contiguous &= end == i;
      end = i + 1;
    }
  }
  return contiguous ? end : n;
}

}  // namespace

std::size_t Animator::add_two_bone_ik(std::string_view start, std::string_view mid, std::string_view end) {
  TwoBoneIkChain chain;
  chain.start = node_named(start, "add_two_bone_ik: start");
  chain.mid = node_named(mid, "add_two_bone_ik: mid");
  chain.end = node_named(end, "add_two_bone_ik: end");
  if (model_.nodes[static_cast<std::size_t>(chain.mid)].parent != chain.start ||
      model_.nodes[static_cast<std::size_t>(chain.end)].parent != chain.mid) {
    throw std::invalid_argument("Animator::add_two_bone_ik: '" + std::string(start) + "', '" + std::string(mid) +
                                "', '" + std::string(end) + "' is not a chain parent -> child -> grandchild");
  }
  two_bone_.push_back(chain);
  two_bone_end_.push_back(subtree_end(parents_, static_cast<std::size_t>(chain.start)));
  ik_touched_.reserve(2 * two_bone_.size() + aim_.size());
  return two_bone_.size() - 1;
}

namespace {

void check_finite(const glm::vec3& v, const char* what) {
  if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
    throw std::invalid_argument(std::string("Animator: ") + what + " (" + std::to_string(v.x) + ", " +
                                std::to_string(v.y) + ", " + std::to_string(v.z) + ") is not finite");
  }
}

void check_unit_weight(float weight, const char* what) {
  if (!(weight >= 0.f && weight <= 1.f)) {
    throw std::invalid_argument(std::string("Animator: ") + what + " weight " + std::to_string(weight) +
                                " is outside [0, 1]");
  }
}

}  // namespace

void Animator::set_two_bone_ik(std::size_t chain, const glm::vec3& target, float weight, std::optional<glm::vec3> pole,
                               float soften) {
  TwoBoneIkChain& c = two_bone_.at(chain);
  check_finite(target, "two-bone IK target");
  if (pole) check_finite(*pole, "two-bone IK pole");
  check_unit_weight(weight, "two-bone IK");
  if (!(soften > 0.f && soften <= 1.f)) {
    throw std::invalid_argument("Animator: two-bone IK soften " + std::to_string(soften) + " is outside (0, 1]");
  }
  c.target = target;
  c.pole = pole;
  c.weight = weight;
  c.soften = soften;
}

std::size_t Animator::add_aim_ik(std::string_view node, const glm::vec3& forward, const glm::vec3& up,
                                 const glm::vec3& offset) {
  AimIkChain chain;
  chain.node = node_named(node, "add_aim_ik: node");
  check_finite(forward, "aim IK forward");
  check_finite(up, "aim IK up");
  check_finite(offset, "aim IK offset");
  const auto unit = [](const glm::vec3& v) { return std::fabs(glm::length(v) - 1.f) < 1e-3f; };
  if (!unit(forward) || !unit(up) || glm::length(glm::cross(forward, up)) < 1e-3f) {
    throw std::invalid_argument("Animator::add_aim_ik: forward and up must be unit vectors that are not parallel");
  }
  chain.forward = forward;
  chain.up = up;
  chain.offset = offset;
  aim_.push_back(chain);
  aim_end_.push_back(subtree_end(parents_, static_cast<std::size_t>(chain.node)));
  ik_touched_.reserve(2 * two_bone_.size() + aim_.size());
  return aim_.size() - 1;
}

void Animator::set_aim_ik(std::size_t chain, const glm::vec3& target, float weight, const glm::vec3& pole) {
  AimIkChain& c = aim_.at(chain);
  check_finite(target, "aim IK target");
  check_finite(pole, "aim IK pole");
  if (glm::length(pole) <= 0.f) throw std::invalid_argument("Animator: aim IK pole is the zero vector");
  check_unit_weight(weight, "aim IK");
  c.target = target;
  c.weight = weight;
  c.pole = pole;
}

}  // namespace marrow
