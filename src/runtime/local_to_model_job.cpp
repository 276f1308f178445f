#include "marrow/runtime/local_to_model_job.hpp"

#include <algorithm>
#include <limits>

#include "kernels/pose_kernels.hpp"

namespace marrow {

JobStatus LocalToModelJob::validate() const noexcept {
  const std::size_t n = parents.size();
  if (models.size() != n) return job_error("models", "does not have one matrix per parent");
  if (local_pose.empty() == local_matrices.empty() && n > 0) {
    return job_error("local_pose", "and local_matrices: exactly one must be given");
  }
  if (!local_pose.empty() && local_pose.size() < pose_block_count(n)) {
    return job_error("local_pose", "has fewer blocks than pose_block_count(joints)");
  }
  if (!local_matrices.empty() && local_matrices.size() != n) {
    return job_error("local_matrices", "does not have one matrix per parent");
  }
  if (!root_prefix.empty() && root_prefix.size() != n) return job_error("root_prefix", "is neither empty nor one per joint");
  if (from > n) return job_error("from", "is beyond the last joint");
  // A parent at or after its own index would read garbage. The scan runs every run(), so it is
  // kept in int lanes with no early exit: GCC vectorises it (a bool `&=` over widened indices
  // it left scalar, 2 % of sampling and composing 200 joints).
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return job_error("parents", "has more joints than an int counts");
  const int* parent = parents.data();
  int late = 0;
  for (int i = 0; i < static_cast<int>(n); ++i) late |= static_cast<int>(parent[i] >= i);
  if (late != 0) return job_error("parents", "has a parent at or after its own joint");
  return kJobOk;
}

bool LocalToModelJob::run() const noexcept {
  if (!validate()) return false;
  const std::size_t n = parents.size();
  const std::size_t end = std::min(to, n);
  if (from >= end) return true;
  detail::ComposeArgs args{parents.data(),
                           local_pose.empty() ? nullptr : local_pose.data(),
                           local_matrices.empty() ? nullptr : &local_matrices[0][0][0],
                           root_prefix.empty() ? nullptr : &root_prefix[0][0][0],
                           root != nullptr ? &(*root)[0][0] : nullptr,
                           &models[0][0][0],
                           from,
                           end};
  detail::pose_kernels(simd_choice()).compose(args);
  return true;
}

}  // namespace marrow
