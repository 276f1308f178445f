#include "marrow/runtime/skinned_bounds_job.hpp"

#include <glm/common.hpp>

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
  // Four lanes (w unused) keep the loop in vector registers; the union starts at the first box.
  glm::vec4 lo(0.f), hi(0.f);
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const glm::mat4& m = models[joints[k]];
    const glm::vec3 c = centers[k], e = extents[k];
    const glm::vec4 center = m[0] * c.x + m[1] * c.y + m[2] * c.z + m[3];
    const glm::vec4 extent = glm::abs(m[0]) * e.x + glm::abs(m[1]) * e.y + glm::abs(m[2]) * e.z;
    if (k == 0) {
      lo = center - extent;
      hi = center + extent;
      continue;
    }
    lo = glm::min(lo, center - extent);
    hi = glm::max(hi, center + extent);
  }
  *out = BoundingBox{glm::vec3(lo), glm::vec3(hi), false};
  return true;
}

}  // namespace marrow
