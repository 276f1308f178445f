#include "marrow/runtime/skin_palette_job.hpp"

#include <algorithm>
#include <cstdint>

#include "kernels/pose_kernels.hpp"

namespace marrow {

JobStatus SkinPaletteJob::validate() const noexcept { return check(true); }

JobStatus SkinPaletteJob::check(bool scan_indices) const noexcept {
  const std::size_t n = inverse_binds.size();
  if (palette.size() != n) return job_error("palette", "does not have one matrix per inverse bind");
  if (!skin_models.empty() && skin_models.size() != n) {
    return job_error("skin_models", "is neither empty nor one per inverse bind");
  }
  if (joints.empty()) {
    if (models.size() < n) return job_error("models", "has fewer matrices than inverse_binds (and joints is empty)");
    return kJobOk;
  }
  if (joints.size() != n) return job_error("joints", "is neither empty nor one per inverse bind");
  if (models.empty()) return job_error("joints", "has an index outside models");
  if (!scan_indices) return kJobOk;
  // validate() scans this (and run(), unless the caller checked the indices): one unsigned
  // compare per joint (a negative index wraps past the limit), at the kernels' width. The scan's
  // skipped index is 0, inside models (not empty, above).
  const auto limit = static_cast<std::uint32_t>(std::min<std::size_t>(models.size(), std::size_t{1} << 31));
  bool unused = false;
  if (detail::pose_kernels(simd_choice()).beyond(reinterpret_cast<const std::uint32_t*>(joints.data()), joints.size(), limit, 0,
                                                 &unused)) {
    return job_error("joints", "has an index outside models");
  }
  return kJobOk;
}

bool SkinPaletteJob::run() const noexcept {
  if (!check(!indices_checked)) return false;
  if (palette.empty()) return true;
  detail::PaletteArgs args{&models[0][0][0],
                           &inverse_binds[0][0][0],
                           joints.empty() ? nullptr : joints.data(),
                           root != nullptr ? &(*root)[0][0] : nullptr,
                           &palette[0][0][0],
                           skin_models.empty() ? nullptr : &skin_models[0][0][0],
                           palette.size()};
  detail::pose_kernels(simd_choice()).palette(args);
  return true;
}

}  // namespace marrow
