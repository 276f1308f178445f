#include "marrow/runtime/offline/joint_bounds_builder.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include <glm/common.hpp>

#include "runtime/box_lanes.hpp"
#include "marrow/core/bounding_box.hpp"

namespace marrow {

JointBoundsBuilder::JointBoundsBuilder(std::span<const glm::mat4> inverse_binds)
    : inverse_binds_(inverse_binds),
      lo_(4 * inverse_binds.size(), std::numeric_limits<float>::infinity()),
      hi_(4 * inverse_binds.size(), -std::numeric_limits<float>::infinity()) {}

void JointBoundsBuilder::add(std::uint32_t joint, const glm::vec3& vertex) noexcept {
  if (joint >= inverse_binds_.size()) return;
  const detail::Float4 p = detail::transform_point(&inverse_binds_[joint][0][0], detail::splat(vertex.x, vertex.y, vertex.z));
  detail::widen(&lo_[4 * joint], &hi_[4 * joint], p, p);
}

void JointBoundsBuilder::add(std::uint32_t joint, const glm::vec3& lo, const glm::vec3& hi) noexcept {
  if (joint >= inverse_binds_.size()) return;
  const glm::vec3 c = (lo + hi) * 0.5f, e = glm::max(hi - c, c - lo);
  const float* m = &inverse_binds_[joint][0][0];
  const detail::Float4 center = detail::transform_point(m, detail::splat(c.x, c.y, c.z));
  const detail::Float4 extent = detail::transform_extent(m, e.x, e.y, e.z);
  detail::widen(&lo_[4 * joint], &hi_[4 * joint], center - extent, center + extent);
}

namespace {

// The boxes of one run of vertices with the same JOINTS and the same zero weights (neighbours
// in a mesh mostly share their joints): widened in registers, then once in memory. Widening the
// boxes in memory for every influence chained each vertex to the previous one's stores.
struct InfluenceRun {
  std::uint64_t joints = 0;  // the four JOINTS values as read
  unsigned zeros = 0;        // weights that are zero (bit per slot)
  unsigned live = 0;         // slots that add to a box: skinned, nonzero weight, inside the palette
  std::size_t joint[4]{};    // per live slot: its palette joint
  detail::Float4 lo[4], hi[4];
};

}  // namespace

BoundingBox JointBoundsBuilder::add_vertices(std::span<const std::byte> bytes, const VertexLayout& layout,
                                             std::span<const std::uint32_t> joint_map) noexcept {
  if (layout.stride == 0 || bytes.size() < layout.stride) return {};
  const std::size_t n = bytes.size() / layout.stride, stride = layout.stride;
  const std::size_t palette = inverse_binds_.size();
  const std::byte* rows = bytes.data();
  const std::uint32_t position = layout.offset(VertexAttribute::Position);
  const std::uint32_t joints = layout.offset(VertexAttribute::Joints0);
  const std::uint32_t weights = layout.offset(VertexAttribute::Weights0);
  const std::uint32_t influences = layout.influences;
  const float* binds = palette != 0 ? &inverse_binds_[0][0][0] : nullptr;
  float* lo = lo_.data();
  float* hi = hi_.data();
  // A JOINTS value's palette index, or `palette` when it has none.
  const auto palette_index = [&](std::uint16_t joint) -> std::size_t {
    if (joint_map.empty()) return joint;
    return joint < joint_map.size() ? joint_map[joint] : palette;
  };
  // The mesh's box: min(p, lo) and max(p, hi) lane-wise are bounding_box_of's glm::min and max.
  detail::Float4 box_lo = detail::Float4::load3(rows + position), box_hi = box_lo;
  if (influences > 4) {  // several sets of four (rare): each influence through add()
    for (std::size_t v = 0; v < n; ++v) {
      const std::byte* row = rows + v * stride;
      const detail::Float4 p = detail::Float4::load3(row + position);
      box_lo = min_of(p, box_lo), box_hi = max_of(p, box_hi);
      glm::vec3 point;
      std::memcpy(&point, row + position, sizeof point);
      for (std::uint32_t i = 0; i < influences; ++i) {
        std::uint16_t joint;
        float weight;
        std::memcpy(&joint, row + joints + 2 * i, sizeof joint);
        std::memcpy(&weight, row + weights + 4 * i, sizeof weight);
        if (weight != 0.f) add(static_cast<std::uint32_t>(std::min(palette_index(joint), palette)), point);
      }
    }
  } else {
    const unsigned skinned = (1u << influences) - 1u;
    const detail::Float4 none_lo = detail::Float4::splat(std::numeric_limits<float>::infinity());
    const detail::Float4 none_hi = detail::Float4::splat(-std::numeric_limits<float>::infinity());
    InfluenceRun run;
    bool open = false;
    const auto close = [&] {
#pragma GCC unroll 4
      for (int s = 0; s < 4; ++s) {
        if ((run.live >> s & 1u) != 0) detail::widen(lo + 4 * run.joint[s], hi + 4 * run.joint[s], run.lo[s], run.hi[s]);
      }
    };
    for (std::size_t v = 0; v < n; ++v) {
      const std::byte* row = rows + v * stride;
      const detail::Float4 p = detail::Float4::load3(row + position);
      box_lo = min_of(p, box_lo), box_hi = max_of(p, box_hi);
      std::uint64_t key;
      std::memcpy(&key, row + joints, sizeof key);
      float w[4];
      std::memcpy(w, row + weights, sizeof w);
      const unsigned zeros = bits_of(detail::Float4::load(w) == detail::Float4::splat(0.f));
      if (!open || key != run.joints || zeros != run.zeros) {
        if (open) close();
        open = true;
        run.joints = key, run.zeros = zeros, run.live = 0;
        std::uint16_t slot_joints[4];
        std::memcpy(slot_joints, &key, sizeof slot_joints);
#pragma GCC unroll 4
        for (int s = 0; s < 4; ++s) {
          const std::size_t j = palette_index(slot_joints[s]);
          if (((skinned & ~zeros) >> s & 1u) != 0 && j < palette) {
            run.live |= 1u << s;
            run.joint[s] = j;
          }
          run.lo[s] = none_lo, run.hi[s] = none_hi;
        }
      }
      const detail::Splat at = detail::splat(p);
#pragma GCC unroll 4
      for (int s = 0; s < 4; ++s) {
        if ((run.live >> s & 1u) == 0) continue;
        const detail::Float4 q = detail::transform_point(binds + 16 * run.joint[s], at);
        run.lo[s] = min_of(run.lo[s], q), run.hi[s] = max_of(run.hi[s], q);
      }
    }
    if (open) close();
  }
  BoundingBox box;
  float l[4], h[4];
  box_lo.store(l), box_hi.store(h);
  box.extend(glm::vec3(l[0], l[1], l[2]));
  box.extend(glm::vec3(h[0], h[1], h[2]));
  return box;
}

JointBounds JointBoundsBuilder::finish() const {
  JointBounds out;
  out.joint_count = inverse_binds_.size();
  for (std::size_t j = 0; j < inverse_binds_.size(); ++j) {
    const glm::vec3 lo(lo_[4 * j], lo_[4 * j + 1], lo_[4 * j + 2]), hi(hi_[4 * j], hi_[4 * j + 1], hi_[4 * j + 2]);
    if (!(lo.x <= hi.x)) continue;  // influences nothing
    out.joints.push_back(static_cast<std::uint32_t>(j));
    const glm::vec3 c = (lo + hi) * 0.5f;
    out.centers.push_back(c);
    out.extents.push_back(glm::max(hi - c, c - lo));  // reaches both ends despite rounding
  }
  return out;
}

}  // namespace marrow
