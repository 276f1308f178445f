#include "marrow/runtime/local_to_model_job.hpp"

#include <algorithm>
#include <limits>

#include "kernels/pose_kernels.hpp"

namespace marrow {

JobStatus LocalToModelJob::validate() const noexcept { return check(true); }

JobStatus LocalToModelJob::check(bool scan_indices) const noexcept {
  const std::size_t n = parents.size();
  if (models.size() != n) return job_error("models", "does not have one matrix per parent");
  const bool gathered = !local_sources.empty();
  const int forms = static_cast<int>(!local_pose.empty()) + static_cast<int>(!local_matrices.empty() && !gathered) +
                    static_cast<int>(gathered);
  if (forms != 1 && n > 0) return job_error("local_pose", ", local_matrices and local_sources: exactly one form must be given");
  if (!local_pose.empty() && local_pose.size() < pose_block_count(n)) {
    return job_error("local_pose", "has fewer blocks than pose_block_count(joints)");
  }
  if (!local_matrices.empty() && local_matrices.size() != n) {
    return job_error("local_matrices", "does not have one matrix per parent");
  }
  if (from > n) return job_error("from", "is beyond the last joint");
  if (gathered) {
    if (local_sources.size() != n) return job_error("local_sources", "does not have one source per parent");
    if (const JobStatus s = check_sources(scan_indices); !s) return s;
  } else if (!source_matrices.empty()) {
    return job_error("source_matrices", "is given without local_sources");
  }
  if (!root_prefix.empty() && root_prefix.size() != n) return job_error("root_prefix", "is neither empty nor one per joint");
  // A parent at or after its own index would read garbage. The scan runs in validate() and in
  // every run() unless the caller checked the indices, over the joints composed (an IK chain's
  // few, not the scene's), at the kernels' width.
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return job_error("parents", "has more joints than an int counts");
  if (scan_indices && detail::pose_kernels(simd_choice()).late_parent(parents.data(), from, std::min(to, n))) {
    return job_error("parents", "has a parent at or after its own joint");
  }
  return kJobOk;
}

JobStatus LocalToModelJob::check_sources(bool scan_indices) const noexcept {
  // kLocalMatrix is never a row: rows are counted below it.
  if (source_matrices.size() >= kLocalMatrix) return job_error("source_matrices", "has more rows than a source counts");
  if (!scan_indices) return kJobOk;
  // A row past source_matrices, and whether any joint wants its own matrix.
  // Over the joints composed, [from, min(to, joints)): the only sources a run reads.
  const std::size_t end = std::min(to, local_sources.size());
  bool matrix = false;
  if (from < end && detail::pose_kernels(simd_choice()).beyond(local_sources.data() + from, end - from,
                                                               static_cast<std::uint32_t>(source_matrices.size()), kLocalMatrix, &matrix)) {
    return job_error("local_sources", "names a row beyond source_matrices");
  }
  if (matrix && local_matrices.size() != local_sources.size()) {
    return job_error("local_matrices", "is not one matrix per joint, and a source is kLocalMatrix");
  }
  return kJobOk;
}

bool LocalToModelJob::run() const noexcept {
  if (!check(!indices_checked)) return false;
  const std::size_t n = parents.size();
  const std::size_t end = std::min(to, n);
  if (from >= end) return true;
  detail::ComposeArgs args{parents.data(),
                           local_pose.empty() ? nullptr : local_pose.data(),
                           local_matrices.empty() ? nullptr : &local_matrices[0][0][0],
                           local_sources.empty() ? nullptr : local_sources.data(),
                           source_matrices.empty() ? nullptr : &source_matrices[0][0][0],
                           root_prefix.empty() ? nullptr : &root_prefix[0][0][0],
                           root != nullptr ? &(*root)[0][0] : nullptr,
                           &models[0][0][0],
                           from,
                           end};
  detail::pose_kernels(simd_choice()).compose(args);
  return true;
}

}  // namespace marrow
