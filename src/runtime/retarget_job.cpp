#include "marrow/runtime/retarget_job.hpp"

#include "marrow/runtime/simd_level.hpp"
#include "runtime/kernels/retarget_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace marrow {
namespace {

glm::vec3 lane_translation(std::span<const TrsBlock> pose, std::size_t j) noexcept {
  const TrsBlock& b = pose[j / kPoseLanes];
  const std::size_t l = j % kPoseLanes;
  return {b.t[0][l], b.t[1][l], b.t[2][l]};
}

glm::quat lane_rotation(std::span<const TrsBlock> pose, std::size_t j) noexcept {
  const TrsBlock& b = pose[j / kPoseLanes];
  const std::size_t l = j % kPoseLanes;
  return {b.q[3][l], b.q[0][l], b.q[1][l], b.q[2][l]};
}

glm::vec3 lane_scale(std::span<const TrsBlock> pose, std::size_t j) noexcept {
  const TrsBlock& b = pose[j / kPoseLanes];
  const std::size_t l = j % kPoseLanes;
  return {b.s[0][l], b.s[1][l], b.s[2][l]};
}

void write_lane(std::span<TrsBlock> pose, std::size_t j, const glm::vec3& t, const glm::quat& q, const glm::vec3& s) noexcept {
  TrsBlock& b = pose[j / kPoseLanes];
  const std::size_t l = j % kPoseLanes;
  for (int c = 0; c < 3; ++c) {
    b.t[c][l] = t[c];
    b.s[c][l] = s[c];
  }
  b.q[0][l] = q.x;
  b.q[1][l] = q.y;
  b.q[2][l] = q.z;
  b.q[3][l] = q.w;
}

// Joint j of a pose composed onto its parent p (the header's composition; a root turned by
// root_rotation).
void compose_joint(std::span<const TrsBlock> pose, std::size_t j, int p, const glm::quat& root_rotation,
                   std::span<glm::quat> rotations, std::span<glm::vec3> positions, std::span<glm::vec3> scales) noexcept {
  const glm::quat q = lane_rotation(pose, j);
  const glm::vec3 t = lane_translation(pose, j), s = lane_scale(pose, j);
  if (p < 0) {
    rotations[j] = root_rotation * q;
    positions[j] = root_rotation * t;
    scales[j] = s;
  } else {
    const auto parent = static_cast<std::size_t>(p);
    rotations[j] = rotations[parent] * q;
    positions[j] = positions[parent] + rotations[parent] * (scales[parent] * t);
    scales[j] = scales[parent] * s;
  }
}

bool finite(const glm::vec3& v) noexcept { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(const glm::quat& q) noexcept { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

// The shortest rotation taking unit vector a onto unit vector b; for opposite vectors, a half
// turn about an axis perpendicular to a (any is as short as any other).
glm::quat shortest_arc(const glm::vec3& a, const glm::vec3& b) noexcept {
  const float d = glm::dot(a, b);
  if (d < -0.999999f) {
    glm::vec3 axis = glm::cross(glm::vec3(1.f, 0.f, 0.f), a);
    if (glm::dot(axis, axis) < 1e-6f) axis = glm::cross(glm::vec3(0.f, 1.f, 0.f), a);
    axis = glm::normalize(axis);
    return {0.f, axis.x, axis.y, axis.z};
  }
  const glm::vec3 c = glm::cross(a, b);
  return glm::normalize(glm::quat(1.f + d, c.x, c.y, c.z));
}

// The unit direction of v, or nothing useful (false) for a vector too short to have one.
bool direction_of(const glm::vec3& v, glm::vec3& out) noexcept {
  const float length2 = glm::dot(v, v);
  if (!(length2 > 1e-20f) || !std::isfinite(length2)) return false;
  out = v / std::sqrt(length2);
  return true;
}

JobStatus validate_chain(const RetargetRig& rig, const RetargetChain& chain) noexcept {
  const auto targets = static_cast<int>(rig.target_joint_count());
  const auto sources = static_cast<int>(rig.source_joint_count());
  if (chain.target_start < 0 || chain.target_start >= targets || chain.target_end <= chain.target_start ||
      chain.target_end >= targets)
    return job_error("chains", "names a target joint out of range (or an end before its start)");
  if (chain.source_start < 0 || chain.source_start >= sources || chain.source_end < 0 || chain.source_end >= sources)
    return job_error("chains", "names a source joint out of range");
  if (chain.between.empty()) return job_error("chains", "has no bone between its ends");
  int previous = chain.target_start;
  for (const int b : chain.between) {
    if (b <= previous || b >= chain.target_end || rig.target_parents[static_cast<std::size_t>(b)] != previous)
      return job_error("chains", "has a bone between that is not the child of the one before");
    if (rig.target_source[static_cast<std::size_t>(b)] >= 0) return job_error("chains", "has a mapped bone between its ends");
    previous = b;
  }
  if (rig.target_parents[static_cast<std::size_t>(chain.target_end)] != previous)
    return job_error("chains", "has an end whose parent is not the last bone between");
  if (!finite(chain.source_rest_direction) || !finite(chain.target_rest_direction) || !finite(chain.source_start_rest_inverse))
    return job_error("chains", "has a non-finite direction or rotation");
  return kJobOk;
}

JobStatus validate_fast_path(const RetargetRig& rig) noexcept {
  const std::size_t targets = rig.target_parents.size(), sources = rig.source_parents.size();
  if (!rig.chains.empty()) return job_error("fast", "is set on a rig with chains");
  if (rig.target_left.size() != targets || rig.path_offsets.size() != targets + 1)
    return job_error("target_left, path_offsets", "do not match the target joints (prepare_retarget_rig)");
  if (rig.path_offsets.front() != 0 || rig.path_offsets.back() != rig.source_path.size())
    return job_error("path_offsets", "do not span source_path");
  for (std::size_t i = 0; i < targets; ++i) {
    if (rig.path_offsets[i] > rig.path_offsets[i + 1]) return job_error("path_offsets", "decrease");
    if (!finite(rig.target_left[i])) return job_error("target_left", "is not finite");
  }
  for (const std::uint32_t j : rig.source_path)
    if (j >= sources) return job_error("source_path", "names a source joint out of range");
  for (std::size_t k = 0; k < rig.position_joints.size(); ++k) {
    const std::uint32_t j = rig.position_joints[k];
    if (j >= sources || (k > 0 && j <= rig.position_joints[k - 1])) return job_error("position_joints", "are not ascending source joints");
    const int parent = rig.source_parents[j];
    if (parent >= 0 && !std::binary_search(rig.position_joints.begin(), rig.position_joints.end(), static_cast<std::uint32_t>(parent)))
      return job_error("position_joints", "leave out a parent of one of them");
  }
  if (rig.rest_pose.size() != pose_block_count(targets)) return job_error("rest_pose", "does not match the target joints");
  if (rig.blocks.size() != rig.rest_pose.size()) return job_error("blocks", "do not match the target pose blocks");
  const std::size_t source_floats = pose_block_count(sources) * (sizeof(TrsBlock) / sizeof(float));
  for (std::size_t k = 0; k < rig.blocks.size(); ++k) {
    const RetargetRig::Block& b = rig.blocks[k];
    if (b.block != k || b.mapped > kPoseLanes) return job_error("blocks", "are not the target's blocks in order");
    for (std::size_t lane = 0; lane < kPoseLanes && b.mapped > 0; ++lane)
      if (b.source[lane] < 0 || static_cast<std::size_t>(b.source[lane]) + 3 * kPoseLanes >= source_floats)
        return job_error("blocks", "read a source rotation out of the source pose");
  }
  for (const std::uint32_t i : rig.single_joints)
    if (i >= targets || rig.target_source[i] < 0) return job_error("single_joints", "name a joint out of range or unmapped");
  if (!finite(rig.hips_parent_inverse) || !finite(rig.hips_parent_position) || !finite(rig.hips_parent_scale))
    return job_error("hips_parent_inverse", "(or the hips' parent position or scale) is not finite");
  return kJobOk;
}

}  // namespace

JobStatus RetargetRig::validate() const noexcept {
  const std::size_t targets = target_parents.size();
  if (target_rest.size() != targets || target_source.size() != targets || target_offset.size() != targets)
    return job_error("target_rest, target_source, target_offset", "differ in size from target_parents");
  for (std::size_t j = 0; j < source_parents.size(); ++j)
    if (source_parents[j] >= static_cast<int>(j)) return job_error("source_parents", "has a parent at or after its joint");
  for (std::size_t i = 0; i < targets; ++i) {
    if (target_parents[i] >= static_cast<int>(i)) return job_error("target_parents", "has a parent at or after its joint");
    if (target_source[i] < -1 || target_source[i] >= static_cast<int>(source_parents.size()))
      return job_error("target_source", "names a source joint out of range");
    const Trs& r = target_rest[i];
    if (!finite(r.translation) || !finite(r.rotation) || !finite(r.scale)) return job_error("target_rest", "is not finite");
    if (!finite(target_offset[i])) return job_error("target_offset", "is not finite");
  }
  if ((source_hips < 0) != (target_hips < 0)) return job_error("source_hips", "and target_hips are not both set");
  if (source_hips >= static_cast<int>(source_parents.size()) || target_hips >= static_cast<int>(targets))
    return job_error("source_hips", "or target_hips is out of range");
  if (!finite(source_hips_rest) || !finite(target_hips_rest) || !std::isfinite(hips_scale) || !finite(alignment))
    return job_error("hips_scale", "(or the hips' rest positions, or the alignment) is not finite");
  for (const RetargetChain& chain : chains)
    if (const JobStatus s = validate_chain(*this, chain); !s) return s;
  if (fast) return validate_fast_path(*this);
  return kJobOk;
}

void RetargetContext::resize(const RetargetRig& rig) {
  source_rotations_.assign(rig.source_joint_count(), glm::quat(1.f, 0.f, 0.f, 0.f));
  source_positions_.assign(rig.source_joint_count(), glm::vec3(0.f));
  source_scales_.assign(rig.source_joint_count(), glm::vec3(1.f));
  target_rotations_.assign(rig.target_joint_count(), glm::quat(1.f, 0.f, 0.f, 0.f));
  target_positions_.assign(rig.target_joint_count(), glm::vec3(0.f));
  target_scales_.assign(rig.target_joint_count(), glm::vec3(1.f));
  keep_.assign(rig.chains.empty() ? 0 : rig.target_joint_count(), 0);
  for (const RetargetChain& chain : rig.chains)
    for (const int b : chain.between)
      if (b >= 0 && static_cast<std::size_t>(b) < keep_.size()) keep_[static_cast<std::size_t>(b)] = 1;
}

JobStatus RetargetJob::validate() const noexcept {
  if (rig == nullptr) return job_error("rig", "is null");
  if (context == nullptr) return job_error("context", "is null");
  if (context->source_rotations_.size() != rig->source_joint_count() ||
      context->target_rotations_.size() != rig->target_joint_count())
    return job_error("context", "was not sized for this rig (RetargetContext::resize)");
  if (source_pose.size() < pose_block_count(rig->source_joint_count()))
    return job_error("source_pose", "has fewer blocks than the source joints need");
  if (target_pose.size() < pose_block_count(rig->target_joint_count()))
    return job_error("target_pose", "has fewer blocks than the target joints need");
  return kJobOk;
}

namespace {

// Target model rotations and positions: mapped joints follow their source, the others their
// rest; `from` on, rotations of chains' bones (`keep`) are kept as they are.
void compose_target(const RetargetRig& rig, std::span<const glm::quat> source_rotations, const glm::vec3& hips,
                    std::size_t from, std::span<const std::uint8_t> keep, std::span<glm::quat> rotations,
                    std::span<glm::vec3> positions, std::span<glm::vec3> scales) noexcept {
  for (std::size_t i = from; i < rig.target_parents.size(); ++i) {
    const int p = rig.target_parents[i];
    const int s = rig.target_source[i];
    const Trs& rest = rig.target_rest[i];
    const auto parent = static_cast<std::size_t>(p < 0 ? 0 : p);
    if (s >= 0) {
      rotations[i] = source_rotations[static_cast<std::size_t>(s)] * rig.target_offset[i];
    } else if (keep.empty() || keep[i] == 0) {
      rotations[i] = p < 0 ? rest.rotation : rotations[parent] * rest.rotation;
    }
    if (static_cast<int>(i) == rig.target_hips) {
      positions[i] = hips;
    } else {
      positions[i] = p < 0 ? rest.translation : positions[parent] + rotations[parent] * (scales[parent] * rest.translation);
    }
    scales[i] = p < 0 ? rest.scale : scales[parent] * rest.scale;
  }
}

// The end of the chain onto the line from the start along `direction`, its bones between
// turning in turn (the header's rule). Positions below the end are left stale.
void bend_chain(const RetargetChain& chain, const glm::vec3& direction, std::span<glm::quat> rotations,
                std::span<glm::vec3> positions) noexcept {
  const glm::vec3 start = positions[static_cast<std::size_t>(chain.target_start)];
  const auto end = static_cast<std::size_t>(chain.target_end);
  const std::size_t k = chain.between.size();
  for (std::size_t j = 0; j < k; ++j) {
    const glm::vec3 pivot = positions[static_cast<std::size_t>(chain.between[j])];
    const glm::vec3 tip = positions[end];
    glm::vec3 aim;
    if (j + 1 < k) {
      aim = start + direction * glm::length(tip - start);
    } else {
      // The point of the line at the end's distance from the last pivot (the farther one).
      const glm::vec3 to_pivot = pivot - start;
      const float along = glm::dot(direction, to_pivot);
      const float r2 = glm::dot(tip - pivot, tip - pivot);
      const float disc = along * along - glm::dot(to_pivot, to_pivot) + r2;
      aim = start + direction * (along + (disc > 0.f ? std::sqrt(disc) : 0.f));
    }
    glm::vec3 from_dir, to_dir;
    if (!direction_of(tip - pivot, from_dir) || !direction_of(aim - pivot, to_dir)) continue;
    const glm::quat full = shortest_arc(from_dir, to_dir);
    const float share = 1.f / static_cast<float>(k - j);
    const glm::quat turn = share < 1.f ? glm::slerp(glm::quat(1.f, 0.f, 0.f, 0.f), full, share) : full;
    for (std::size_t m = j; m < k; ++m) {
      const auto b = static_cast<std::size_t>(chain.between[m]);
      rotations[b] = turn * rotations[b];
      if (m > j) positions[b] = pivot + turn * (positions[b] - pivot);
    }
    positions[end] = pivot + turn * (positions[end] - pivot);
  }
}

}  // namespace

void compose_retarget_space(std::span<const int> parents, std::span<const TrsBlock> pose, const glm::quat& root_rotation,
                            std::span<glm::quat> rotations, std::span<glm::vec3> positions,
                            std::span<glm::vec3> scales) noexcept {
  for (std::size_t j = 0; j < parents.size(); ++j) {
    const int p = parents[j];
    compose_joint(pose, j, p, root_rotation, rotations, positions, scales);
  }
}

namespace {

// Rest model rotations, positions and scales of the target (prepare_retarget_rig).
struct RestSpace {
  std::vector<glm::quat> rotations;
  std::vector<glm::vec3> positions, scales;
};

RestSpace target_rest_space(const RetargetRig& rig) {
  const std::size_t n = rig.target_parents.size();
  std::vector<TrsBlock> pose(pose_block_count(n));
  for (std::size_t i = 0; i < n; ++i) set_pose_joint(pose, i, rig.target_rest[i]);
  RestSpace r{std::vector<glm::quat>(n), std::vector<glm::vec3>(n), std::vector<glm::vec3>(n)};
  compose_retarget_space(rig.target_parents, pose, glm::quat(1.f, 0.f, 0.f, 0.f), r.rotations, r.positions, r.scales);
  return r;
}

// Appends the source joints after `from` (exclusive; -1: from the root) down to `to`, rootmost
// first; false when `from` is not an ancestor of `to`.
bool append_source_path(const RetargetRig& rig, int from, int to, std::vector<std::uint32_t>& path) {
  const std::size_t mark = path.size();
  int j = to;
  for (; j >= 0 && j != from; j = rig.source_parents[static_cast<std::size_t>(j)]) path.push_back(static_cast<std::uint32_t>(j));
  if (j != from) {
    path.resize(mark);
    return false;
  }
  std::reverse(path.begin() + static_cast<std::ptrdiff_t>(mark), path.end());
  return true;
}

}  // namespace

namespace {

// The fast path's blocks (one-step joints), the other mapped joints, the rest image.
void group_joints(RetargetRig& rig) {
  rig.blocks.clear();
  rig.single_joints.clear();
  const std::size_t targets = rig.target_parents.size();
  rig.rest_pose.assign(pose_block_count(targets), TrsBlock{});
  for (std::size_t i = 0; i < targets; ++i) set_pose_joint(rig.rest_pose, i, rig.target_rest[i]);
  float all_bits;
  const std::uint32_t ones = 0xffffffffu;
  std::memcpy(&all_bits, &ones, sizeof all_bits);
  constexpr std::size_t kBlockFloats = sizeof(TrsBlock) / sizeof(float);
  constexpr std::size_t kRotationFloat = offsetof(TrsBlock, q) / sizeof(float);
  for (std::size_t block = 0; block < rig.rest_pose.size(); ++block) {
    RetargetRig::Block b;
    b.block = static_cast<std::uint32_t>(block);
    for (std::size_t lane = 0; lane < kPoseLanes; ++lane) {
      const std::size_t i = block * kPoseLanes + lane;
      glm::quat l(1.f, 0.f, 0.f, 0.f), o(1.f, 0.f, 0.f, 0.f);
      b.source[lane] = static_cast<std::int32_t>(kRotationFloat);  // joint 0's: read, never used
      if (i < targets && rig.target_source[i] >= 0) {
        if (rig.path_offsets[i + 1] - rig.path_offsets[i] == 1) {
          const std::size_t j = rig.source_path[rig.path_offsets[i]];
          l = rig.target_left[i];
          o = rig.target_offset[i];
          b.source[lane] = static_cast<std::int32_t>(j / kPoseLanes * kBlockFloats + kRotationFloat + j % kPoseLanes);
          b.mask[lane] = all_bits;
          ++b.mapped;
        } else {
          rig.single_joints.push_back(static_cast<std::uint32_t>(i));
        }
      }
      const float lc[4] = {l.x, l.y, l.z, l.w}, oc[4] = {o.x, o.y, o.z, o.w};
      for (std::size_t c = 0; c < 4; ++c) {
        b.left[c][lane] = lc[c];
        b.offset[c][lane] = oc[c];
      }
    }
    rig.blocks.push_back(b);
  }
}

}  // namespace

void prepare_retarget_rig(RetargetRig& rig) {
  const std::size_t targets = rig.target_parents.size(), sources = rig.source_parents.size();
  rig.fast = false;
  rig.target_left.assign(targets, glm::quat(1.f, 0.f, 0.f, 0.f));
  rig.path_offsets.assign(targets + 1, 0);
  rig.source_path.clear();
  rig.position_joints.clear();
  if (rig.target_rest.size() != targets || rig.target_source.size() != targets || rig.target_offset.size() != targets) return;

  std::vector<std::uint8_t> wanted(sources, 0);
  const auto want = [&](int j) {
    for (; j >= 0 && static_cast<std::size_t>(j) < sources && wanted[static_cast<std::size_t>(j)] == 0;
         j = rig.source_parents[static_cast<std::size_t>(j)])
      wanted[static_cast<std::size_t>(j)] = 1;
  };
  want(rig.source_hips);
  for (std::size_t j = 0; j < sources; ++j)
    if (wanted[j] != 0) rig.position_joints.push_back(static_cast<std::uint32_t>(j));

  const RestSpace rest = target_rest_space(rig);
  bool fast = rig.chains.empty();
  if (rig.target_hips >= 0) {
    const int p = rig.target_parents[static_cast<std::size_t>(rig.target_hips)];
    for (int a = p; a >= 0; a = rig.target_parents[static_cast<std::size_t>(a)])
      if (rig.target_source[static_cast<std::size_t>(a)] >= 0) fast = false;
    if (p >= 0) {
      const auto parent = static_cast<std::size_t>(p);
      rig.hips_parent_inverse = glm::inverse(rest.rotations[parent]);
      rig.hips_parent_position = rest.positions[parent];
      rig.hips_parent_scale = rest.scales[parent];
    }
  }
  for (std::size_t i = 0; i < targets; ++i) {
    rig.path_offsets[i] = static_cast<std::uint32_t>(rig.source_path.size());
    const int s = rig.target_source[i];
    if (s < 0) continue;
    // The nearest mapped ancestor, and the rest rotations of the unmapped joints on the way.
    glm::quat between(1.f, 0.f, 0.f, 0.f);
    int a = rig.target_parents[i];
    for (; a >= 0 && rig.target_source[static_cast<std::size_t>(a)] < 0; a = rig.target_parents[static_cast<std::size_t>(a)])
      between = rig.target_rest[static_cast<std::size_t>(a)].rotation * between;
    if (a < 0) {
      rig.target_left[i] = glm::inverse(between) * rig.alignment;
      append_source_path(rig, -1, s, rig.source_path);
    } else {
      rig.target_left[i] = glm::inverse(rig.target_offset[static_cast<std::size_t>(a)] * between);
      if (!append_source_path(rig, rig.target_source[static_cast<std::size_t>(a)], s, rig.source_path)) fast = false;
    }
  }
  rig.path_offsets[targets] = static_cast<std::uint32_t>(rig.source_path.size());
  rig.fast = fast;
  group_joints(rig);
}

namespace {

void write_rotation(std::span<TrsBlock> pose, std::size_t j, const glm::quat& q) noexcept {
  TrsBlock& b = pose[j / kPoseLanes];
  const std::size_t l = j % kPoseLanes;
  b.q[0][l] = q.x;
  b.q[1][l] = q.y;
  b.q[2][l] = q.z;
  b.q[3][l] = q.w;
}

// The fast path (prepare_retarget_rig): no skeleton is composed but the hips' and the tracked
// joints' ancestors.
void run_fast(const RetargetRig& r, std::span<const TrsBlock> source, std::span<TrsBlock> target, std::span<glm::quat> rotations,
              std::span<glm::vec3> positions, std::span<glm::vec3> scales) noexcept {
  for (const std::uint32_t j : r.position_joints) {
    compose_joint(source, j, r.source_parents[j], r.alignment, rotations, positions, scales);
  }
  glm::vec3 hips_local(0.f);
  if (r.target_hips >= 0) {
    const glm::vec3 hips = r.target_hips_rest + r.hips_scale * (positions[static_cast<std::size_t>(r.source_hips)] - r.source_hips_rest);
    const glm::vec3 local = r.hips_parent_inverse * (hips - r.hips_parent_position);
    const Trs& rest = r.target_rest[static_cast<std::size_t>(r.target_hips)];
    for (int k = 0; k < 3; ++k) hips_local[k] = r.hips_parent_scale[k] != 0.f ? local[k] / r.hips_parent_scale[k] : rest.translation[k];
  }
  detail::retarget_kernels(simd_choice()).turn(r.blocks.data(), r.blocks.size(), r.rest_pose.data(), source.data(), target.data());
  for (const std::uint32_t i : r.single_joints) {
    glm::quat q = r.target_left[i];
    for (std::uint32_t k = r.path_offsets[i]; k < r.path_offsets[i + 1]; ++k) q = q * lane_rotation(source, r.source_path[k]);
    write_rotation(target, i, glm::normalize(q * r.target_offset[i]));
  }
  if (r.target_hips >= 0) {
    TrsBlock& b = target[static_cast<std::size_t>(r.target_hips) / kPoseLanes];
    for (int c = 0; c < 3; ++c) b.t[c][static_cast<std::size_t>(r.target_hips) % kPoseLanes] = hips_local[c];
  }
}

}  // namespace

glm::vec3 retarget_source_position(const RetargetRig& rig, std::span<const TrsBlock> source_pose, std::size_t joint) noexcept {
  // The path from the root, then composed down it.
  std::uint32_t path[64];
  std::size_t n = 0;
  for (int j = static_cast<int>(joint); j >= 0; j = rig.source_parents[static_cast<std::size_t>(j)]) {
    if (n == 64) return glm::vec3(0.f);  // deeper than any rig the job is given in practice
    path[n++] = static_cast<std::uint32_t>(j);
  }
  glm::quat rotation = rig.alignment;
  glm::vec3 position(0.f), scale(1.f);
  for (std::size_t k = n; k-- > 0;) {
    position += rotation * (scale * lane_translation(source_pose, path[k]));
    rotation = rotation * lane_rotation(source_pose, path[k]);
    scale *= lane_scale(source_pose, path[k]);
  }
  return position;
}

bool RetargetJob::run() const noexcept {
  if (!validate()) return false;
  const RetargetRig& r = *rig;
  RetargetContext& c = *context;
  if (r.fast) {
    run_fast(r, source_pose, target_pose, c.source_rotations_, c.source_positions_, c.source_scales_);
    return true;
  }
  compose_retarget_space(r.source_parents, source_pose, r.alignment, c.source_rotations_, c.source_positions_,
                         c.source_scales_);

  glm::vec3 hips{0.f};
  if (r.target_hips >= 0)
    hips = r.target_hips_rest +
           r.hips_scale * (c.source_positions_[static_cast<std::size_t>(r.source_hips)] - r.source_hips_rest);
  compose_target(r, c.source_rotations_, hips, 0, {}, c.target_rotations_, c.target_positions_, c.target_scales_);

  for (const RetargetChain& chain : r.chains) {
    glm::vec3 v;
    if (!direction_of(c.source_positions_[static_cast<std::size_t>(chain.source_end)] -
                          c.source_positions_[static_cast<std::size_t>(chain.source_start)],
                      v))
      continue;
    const glm::quat delta = c.source_rotations_[static_cast<std::size_t>(chain.source_start)] * chain.source_start_rest_inverse;
    const glm::quat correction = shortest_arc(glm::normalize(delta * chain.source_rest_direction), v);
    bend_chain(chain, glm::normalize(correction * delta * chain.target_rest_direction), c.target_rotations_,
               c.target_positions_);
    // Every joint from the chain's first bone on follows its moved parent (the chains below
    // read their positions).
    compose_target(r, c.source_rotations_, hips, static_cast<std::size_t>(chain.between.front()), c.keep_,
                   c.target_rotations_, c.target_positions_, c.target_scales_);
  }

  for (std::size_t i = 0; i < r.target_parents.size(); ++i) {
    const int p = r.target_parents[i];
    const Trs& rest = r.target_rest[i];
    const glm::quat parent_inverse =
        p < 0 ? glm::quat(1.f, 0.f, 0.f, 0.f) : glm::conjugate(c.target_rotations_[static_cast<std::size_t>(p)]);
    const bool turned = r.target_source[i] >= 0 || (!c.keep_.empty() && c.keep_[i] != 0);
    const glm::quat q = turned ? glm::normalize(parent_inverse * c.target_rotations_[i]) : rest.rotation;
    glm::vec3 t = rest.translation;
    if (static_cast<int>(i) == r.target_hips) {
      if (p < 0) {
        t = hips;
      } else {
        const auto parent = static_cast<std::size_t>(p);
        const glm::vec3 scale = c.target_scales_[parent];
        const glm::vec3 local = parent_inverse * (hips - c.target_positions_[parent]);
        for (int k = 0; k < 3; ++k) t[k] = scale[k] != 0.f ? local[k] / scale[k] : rest.translation[k];
      }
    }
    write_lane(target_pose, i, t, q, rest.scale);
  }
  return true;
}

}  // namespace marrow
