// The Animator's IK chains (animator.hpp): adding two-bone and aim chains by node name, setting
// their targets, and their corrections in the frame (run_ik, after the scene is composed).
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <glm/geometric.hpp>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/runtime/aim_ik_job.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/two_bone_ik_job.hpp"

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

[[noreturn, gnu::cold, gnu::noinline]] void throw_no_chain(std::size_t chain, std::size_t added, const char* kind) {
  throw std::out_of_range(std::string("Animator: ") + kind + " chain " + std::to_string(chain) + " does not exist (" +
                          std::to_string(added) + " added)");
}

// Chain `chain` of `chains` (std::out_of_range naming the kind and how many there are). The
// throw is out of line: a game sets its chains' targets every frame.
template <class Chains>
auto& chain_at(Chains& chains, std::size_t chain, const char* kind) {
  if (chain >= chains.size()) throw_no_chain(chain, chains.size(), kind);
  return chains[chain];
}

}  // namespace

const TwoBoneIkChain& Animator::two_bone_ik(std::size_t chain) const {
  return chain_at(two_bone_, chain, "two-bone IK");
}

const AimIkChain& Animator::aim_ik(std::size_t chain) const {
  return chain_at(aim_, chain, "aim IK");
}

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
  reserve_ik_lanes();
  return two_bone_.size() - 1;
}

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void throw_not_finite(const glm::vec3& v, const char* what) {
  throw std::invalid_argument(std::string("Animator: ") + what + " (" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " +
                              std::to_string(v.z) + ") is not finite");
}

// "Animator: <what> <noun> <value> is outside <range>".
[[noreturn, gnu::cold, gnu::noinline]] void throw_outside(float value, const char* what, const char* noun, const char* range) {
  throw std::invalid_argument(std::string("Animator: ") + what + " " + noun + " " + std::to_string(value) + " is outside " + range);
}

void check_finite(const glm::vec3& v, const char* what) {
  if (!is_finite(v)) throw_not_finite(v, what);
}

void check_unit_weight(float weight, const char* what) {
  if (!(weight >= 0.f && weight <= 1.f)) throw_outside(weight, what, "weight", "[0, 1]");
}

}  // namespace

void Animator::set_two_bone_ik(std::size_t chain, const glm::vec3& target, float weight, const std::optional<glm::vec3>& pole,
                               float soften) {
  TwoBoneIkChain& c = chain_at(two_bone_, chain, "two-bone IK");
  check_finite(target, "two-bone IK target");
  if (pole) check_finite(*pole, "two-bone IK pole");
  check_unit_weight(weight, "two-bone IK");
  if (!(soften > 0.f && soften <= 1.f)) throw_outside(soften, "two-bone IK", "soften", "(0, 1]");
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
  reserve_ik_lanes();
  return aim_.size() - 1;
}

void Animator::set_aim_ik(std::size_t chain, const glm::vec3& target, float weight, const glm::vec3& pole) {
  AimIkChain& c = chain_at(aim_, chain, "aim IK");
  check_finite(target, "aim IK target");
  check_finite(pole, "aim IK pole");
  if (glm::length(pole) <= 0.f) throw std::invalid_argument("Animator: aim IK pole is the zero vector");
  check_unit_weight(weight, "aim IK");
  c.target = target;
  c.weight = weight;
  c.pole = pole;
}

// A lane per node IK may rotate (two per two-bone chain, one per aim chain), after the other
// poses' lanes in blocks_; the skins' views of blocks_ follow it when it moves.
void Animator::reserve_ik_lanes() {
  const std::size_t lanes = 2 * two_bone_.size() + aim_.size();
  ik_touched_.reserve(lanes);
  ik_pose_.resize(pose_block_count(lanes));
  blocks_.resize(ik_lane_ / kPoseLanes + ik_pose_.size());
  for (std::size_t b = 0; b < ik_pose_.size(); ++b) blocks_[ik_lane_ / kPoseLanes + b] = &ik_pose_[b];
  point_skin_poses();
}

// A correction is a local rotation: the node's local (as the scene read it) rotated, in a lane
// of its own, which the node reads until the next frame (undo_ik). The frame's poses are never
// written: they may be a clip's sampled pose or the model's rest.
void Animator::rotate_node(int node, const glm::quat& correction) {
  const auto n = static_cast<std::size_t>(node);
  const std::uint32_t v = sources_[n];
  Trs trs = v == kLocalMatrix ? decompose_trs(compiled_->locals[n])
                              : pose_joint(std::span<const TrsBlock>(blocks_[v / kPoseLanes], 1), v % kPoseLanes);
  trs.rotation = glm::normalize(trs.rotation * correction);
  const std::size_t lane = ik_used_++;  // reserve_ik_lanes made one per rotation a frame makes
  set_pose_joint(ik_pose_, lane, trs);
  ik_touched_.emplace_back(node, v);
  sources_[n] = ik_lane_ + static_cast<std::uint32_t>(lane);
  // The lane's row of the frame's matrices, which the compose reads (one matrix, not the block's
  // eight), and the skins' locals.
  const glm::mat4& local = frame_matrices_[sources_[n]] = compose_trs(trs);
  for (SkinState& state : skins_) {
    const int p = state.shared->scene_to_joint[n];
    if (p >= 0 && !state.pose.locals_.empty()) state.pose.locals_[static_cast<std::size_t>(p)] = local;
  }
}

// One or two two-bone chains solved together, then each one's corrections and recompose in turn.
void Animator::solve_two_bone(std::span<const std::size_t> chains) {
  std::array<TwoBoneIkJob, 2> jobs;
  std::array<glm::quat, 4> corrections;
  std::array<bool, 2> reached{}, ran{};
  for (std::size_t i = 0; i < chains.size(); ++i) {
    const TwoBoneIkChain& chain = two_bone_[chains[i]];
    TwoBoneIkJob& job = jobs[i];
    job.start = &worlds_[static_cast<std::size_t>(chain.start)];
    job.mid = &worlds_[static_cast<std::size_t>(chain.mid)];
    job.end = &worlds_[static_cast<std::size_t>(chain.end)];
    job.target = chain.target;
    job.pole = chain.pole ? &*chain.pole : nullptr;
    job.weight = chain.weight;
    job.soften = chain.soften;
    job.start_correction = &corrections[2 * i];
    job.mid_correction = &corrections[2 * i + 1];
    job.reached = &reached[i];
  }
  TwoBoneIkJob::run_all(std::span(jobs.data(), chains.size()), std::span(ran.data(), chains.size()));
  for (std::size_t i = 0; i < chains.size(); ++i) {
    if (!ran[i]) continue;  // a degenerate pose (non-finite matrices): left as it is
    TwoBoneIkChain& chain = two_bone_[chains[i]];
    chain.reached = reached[i];
    rotate_node(chain.start, corrections[2 * i]);
    rotate_node(chain.mid, corrections[2 * i + 1]);
    compose_scene(static_cast<std::size_t>(chain.start), two_bone_end_[chains[i]]);
  }
}

// Nodes IK rotated last frame read what they read before (latest first: a node two chains
// rotated); a skin composed on its own gets its bind matrix back (an animated joint's is
// rewritten by the frame).
void Animator::undo_ik() {
  for (auto it = ik_touched_.rbegin(); it != ik_touched_.rend(); ++it) {
    const auto n = static_cast<std::size_t>(it->first);
    sources_[n] = it->second;
    for (std::size_t s = 0; s < skins_.size(); ++s) {
      const int p = skins_[s].shared->scene_to_joint[n];
      if (p >= 0 && !skins_[s].pose.locals_.empty())
        skins_[s].pose.locals_[static_cast<std::size_t>(p)] = model_.skins[s].data.bind_pose[static_cast<std::size_t>(p)];
    }
  }
  ik_touched_.clear();
  ik_used_ = 0;
}

// Two-bone chains are solved two at a time (TwoBoneIkJob::run_all: a character's legs in the
// time of one), in the order added, as long as the second's joints lie outside the first's
// recompose range; otherwise the second waits for the first's correction, as it would alone.
void Animator::run_ik() {
  std::array<std::size_t, 2> batch{};
  std::size_t held = 0;
  for (std::size_t c = 0; c < two_bone_.size(); ++c) {
    TwoBoneIkChain& chain = two_bone_[c];
    chain.reached = false;
    if (chain.weight <= 0.f) continue;
    if (held == 1) {
      const auto outside = [&](int node) {
        const auto n = static_cast<std::size_t>(node);
        return n < static_cast<std::size_t>(two_bone_[batch[0]].start) || n >= two_bone_end_[batch[0]];
      };
      if (!(outside(chain.start) && outside(chain.mid) && outside(chain.end))) {
        solve_two_bone(std::span(batch.data(), 1));
        held = 0;
      }
    }
    batch[held++] = c;
    if (held == 2) {
      solve_two_bone(batch);
      held = 0;
    }
  }
  if (held == 1) solve_two_bone(std::span(batch.data(), 1));
  for (std::size_t c = 0; c < aim_.size(); ++c) {
    AimIkChain& chain = aim_[c];
    chain.reached = false;
    if (chain.weight <= 0.f) continue;
    glm::quat correction;
    bool reached = false;
    AimIkJob job;
    job.joint = &worlds_[static_cast<std::size_t>(chain.node)];
    job.target = chain.target;
    job.forward = chain.forward;
    job.offset = chain.offset;
    job.up = chain.up;
    job.pole = chain.pole;
    job.weight = chain.weight;
    job.correction = &correction;
    job.reached = &reached;
    if (!job.run()) continue;
    chain.reached = reached;
    rotate_node(chain.node, correction);
    compose_scene(static_cast<std::size_t>(chain.node), aim_end_[c]);
  }
}

}  // namespace marrow
