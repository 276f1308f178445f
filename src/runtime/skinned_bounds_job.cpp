#include "marrow/runtime/skinned_bounds_job.hpp"

#include <limits>

#include "box_lanes.hpp"

namespace marrow {

JobStatus SkinnedBoundsJob::validate() const noexcept {
  if (out == nullptr) return job_error("out", "is null");
  if (centers.size() != joints.size()) return job_error("centers", "does not have one box centre per joint");
  if (extents.size() != joints.size()) return job_error("extents", "does not have one half extent per joint");
  bool inside = true;
  for (const std::uint32_t j : joints) inside &= j < models.size();
  if (!inside) return job_error("joints", "has an index outside models");
  return kJobOk;
}

bool SkinnedBoundsJob::run() const noexcept {
  if (!validate()) return false;
  if (joints.empty()) {
    *out = BoundingBox{};
    return true;
  }
  float lo[4], hi[4];
  for (int i = 0; i < 4; ++i) lo[i] = std::numeric_limits<float>::infinity(), hi[i] = -lo[i];
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const float* m = &models[joints[k]][0][0];
    const glm::vec3& c = centers[k];
    const glm::vec3& e = extents[k];
    const detail::Float4 center = detail::transform_point(m, detail::splat(c.x, c.y, c.z));
    const detail::Float4 extent = detail::transform_extent(m, e.x, e.y, e.z);
    detail::widen(lo, hi, center - extent, center + extent);
  }
  *out = BoundingBox{glm::vec3(lo[0], lo[1], lo[2]), glm::vec3(hi[0], hi[1], hi[2]), false};
  return true;
}

}  // namespace marrow
