#include "marrow/runtime/skinning_job.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "marrow/runtime/simd_level.hpp"
#include "kernels/skinning_kernels.hpp"

namespace marrow {

namespace {

constexpr const char* kOutsidePalette = "has an index outside the palette";
constexpr const char* kShortStride = "has a stride smaller than its element";

// A span that must hold at least n elements of `element` bytes each (n = in_positions.size()).
template <class T>
JobStatus check_span(const char* name, const StridedSpan<T>& span, std::size_t n,
                     std::size_t element = sizeof(T)) noexcept {
  if (span.size() < n) return job_error(name, "has fewer elements than in_positions");
  if (span.empty()) return kJobOk;
  if (span.data() == nullptr) return job_error(name, "has no data");
  if (span.stride() < element) return job_error(name, kShortStride);
  return kJobOk;
}

// An optional in/out pair: both empty, or both given and each long enough. The pairing is
// reported on the output.
template <class In, class Out>
JobStatus check_pair(const char* in_name, const StridedSpan<In>& in, const char* out_name, const StridedSpan<Out>& out,
                     std::size_t n, const char* out_without_in, const char* in_without_out) noexcept {
  if (in.empty() && out.empty()) return kJobOk;
  if (in.empty()) return job_error(out_name, out_without_in);
  if (out.empty()) return job_error(out_name, in_without_out);
  if (const JobStatus s = check_span(in_name, in, n); !s) return s;
  return check_span(out_name, out, n);
}

bool dual_quaternion(const SkinningJob& job) noexcept { return job.mode == SkinningMode::DualQuaternion; }

std::size_t palette_size(const SkinningJob& job) noexcept {
  return dual_quaternion(job) ? job.dual_quaternions.size() : job.palette.size();
}

// Everything but the joint scan: O(1).
JobStatus check_shape(const SkinningJob& job) noexcept {
  const std::size_t n = job.in_positions.size();
  if (const JobStatus s = check_span("in_positions", job.in_positions, n); !s) return s;
  if (n == 0 && !job.out_positions.empty()) return job_error("out_positions", "is given without in_positions");
  if (const JobStatus s = check_span("out_positions", job.out_positions, n); !s) return s;
  if (job.influences == 0) return job_error("influences", "is 0");
  if (const JobStatus s = check_span("joints", job.joints, n, std::size_t{job.influences} * sizeof(std::uint16_t)); !s) {
    return s;
  }
  if (const JobStatus s = check_span("weights", job.weights, n, std::size_t{job.influences} * sizeof(float)); !s) {
    return s;
  }
  if (dual_quaternion(job)) {
    if (n > 0 && job.dual_quaternions.empty()) return job_error("dual_quaternions", "is empty while vertices are given");
    if (!job.scale_shear.empty() && job.scale_shear.size() < job.dual_quaternions.size()) {
      return job_error("scale_shear", "has fewer elements than dual_quaternions");
    }
    if (job.scale_shear.empty() &&
        (job.palette_scale == PaletteScale::Uniform || job.palette_scale == PaletteScale::NonUniform)) {
      return job_error("scale_shear", "is empty while palette_scale is Uniform or NonUniform");
    }
  } else if (n > 0 && job.palette.empty()) {
    return job_error("palette", "is empty while vertices are given");
  }
  if (const JobStatus s = check_pair("in_normals", job.in_normals, "out_normals", job.out_normals, n,
                                     "is given without in_normals", "is empty while in_normals is given");
      !s) {
    return s;
  }
  return check_pair("in_tangents", job.in_tangents, "out_tangents", job.out_tangents, n,
                    "is given without in_tangents", "is empty while in_tangents is given");
}

// The first vertex (< in_positions.size()) with a joint index outside the palette, or -1; its
// largest index in `worst`.
long long first_vertex_outside_palette(const SkinningJob& job, std::uint16_t* worst = nullptr) noexcept {
  const std::size_t n = job.in_positions.size();
  const std::size_t size = palette_size(job);
  const std::byte* joints = job.joints.data();
  const std::size_t stride = job.joints.stride();
  for (std::size_t v = 0; v < n; ++v) {
    std::uint16_t largest = 0;
    for (std::size_t i = 0; i < job.influences; ++i) {
      std::uint16_t j;
      std::memcpy(&j, joints + v * stride + i * sizeof j, sizeof j);
      largest = j > largest ? j : largest;
    }
    if (largest >= size) {
      if (worst != nullptr) *worst = largest;
      return static_cast<long long>(v);
    }
  }
  return -1;
}

// The sizes a refusal's message gives, for the span fields.
bool field_size(const SkinningJob& job, std::string_view field, std::size_t& size) noexcept {
  if (field == "in_positions") size = job.in_positions.size();
  else if (field == "out_positions") size = job.out_positions.size();
  else if (field == "joints") size = job.joints.size();
  else if (field == "weights") size = job.weights.size();
  else if (field == "in_normals") size = job.in_normals.size();
  else if (field == "out_normals") size = job.out_normals.size();
  else if (field == "in_tangents") size = job.in_tangents.size();
  else if (field == "out_tangents") size = job.out_tangents.size();
  else if (field == "palette") size = job.palette.size();
  else if (field == "dual_quaternions") size = job.dual_quaternions.size();
  else if (field == "scale_shear") size = job.scale_shear.size();
  else return false;
  return true;
}

// The kernel's attribute set (skinning_kernels.hpp).
int attribute_set(bool normals, bool tangents, bool unit, bool cofactor) noexcept {
  using namespace detail;
  if (normals && tangents) {
    if (cofactor) return unit ? kPositionsNormalsTangentsUnitCofactor : kPositionsNormalsTangentsCofactor;
    return unit ? kPositionsNormalsTangentsUnit : kPositionsNormalsTangents;
  }
  if (normals) {
    if (cofactor) return unit ? kPositionsNormalsUnitCofactor : kPositionsNormalsCofactor;
    return unit ? kPositionsNormalsUnit : kPositionsNormals;
  }
  if (tangents) return unit ? kPositionsTangentsUnit : kPositionsTangents;
  return kPositions;
}

}  // namespace

JobStatus SkinningJob::validate() const noexcept {
  if (const JobStatus s = check_shape(*this); !s) return s;
  if (first_vertex_outside_palette(*this) >= 0) return job_error("joints", kOutsidePalette);
  return kJobOk;
}

bool SkinningJob::run() const noexcept {
  if (!check_shape(*this)) return false;
  const std::size_t n = in_positions.size();
  if (n == 0) return true;
  const bool dq = dual_quaternion(*this);
  const bool normals = !in_normals.empty();
  const bool tangents = !in_tangents.empty();
  // S2, S3: what the matrices do decides the kernel (cofactor normals) and the DQS phases.
  PaletteScale scale = palette_scale;
  if (scale == PaletteScale::Detect) scale = classify_palette_scale(dq ? scale_shear : palette);
  const std::size_t entries = palette_size(*this);
  detail::SkinningArgs args{};
  args.palette = dq ? &dual_quaternions[0].real.x : &palette[0][0][0];
  args.scale_shear = dq && scale != PaletteScale::Rigid ? &scale_shear[0][0][0] : nullptr;
  args.last_joint = static_cast<std::uint32_t>(entries - 1 < 0xFFFFu ? entries - 1 : 0xFFFFu);
  args.influences = influences;
  args.count = n;
  args.joints = joints.data();
  args.joints_stride = joints.stride();
  args.weights = weights.data();
  args.weights_stride = weights.stride();
  args.in_positions = in_positions.data();
  args.in_positions_stride = in_positions.stride();
  args.out_positions = out_positions.data();
  args.out_positions_stride = out_positions.stride();
  if (normals) {
    args.in_normals = in_normals.data();
    args.in_normals_stride = in_normals.stride();
    args.out_normals = out_normals.data();
    args.out_normals_stride = out_normals.stride();
  }
  if (tangents) {
    args.in_tangents = in_tangents.data();
    args.in_tangents_stride = in_tangents.stride();
    args.out_tangents = out_tangents.data();
    args.out_tangents_stride = out_tangents.stride();
  }
  // The root's normal matrix: its 3x3, or sign(det) * its cofactor when it scales unevenly (S2).
  glm::mat4 root_normals(1.f);
  if (root != nullptr) {
    const glm::mat3 r(*root);
    const bool uneven = classify_palette_scale(std::span<const glm::mat4>(root, 1)) == PaletteScale::NonUniform;
    // The cofactor's columns are crosses of r's (finite when r is singular); it is det * r^-T.
    const float sign = glm::determinant(r) < 0.f ? -1.f : 1.f;
    const glm::mat3 cofactor(glm::cross(r[1], r[2]), glm::cross(r[2], r[0]), glm::cross(r[0], r[1]));
    root_normals = glm::mat4(uneven ? sign * cofactor : r);
    args.root = &(*root)[0][0];
    args.root_normals = &root_normals[0][0];
  }
  const int set = attribute_set(normals, tangents, normalize, normals && scale == PaletteScale::NonUniform);
  const SimdChoice level = simd_choice();
  if (dq) {
    const int count = influences == 4 ? detail::kDualQuaternionFour : detail::kDualQuaternionAny;
    const int phase = scale == PaletteScale::Rigid     ? detail::kDualQuaternionRigid
                      : scale == PaletteScale::Uniform ? detail::kDualQuaternionUniform
                                                       : detail::kDualQuaternionScaleShear;
    detail::dual_quaternion_kernels(level)
        .blend[static_cast<std::size_t>(count)][static_cast<std::size_t>(phase)][static_cast<std::size_t>(set)](args);
    return true;
  }
  int count = detail::kAnyInfluences;
  switch (influences) {
    case 1: count = detail::kOneInfluence; break;
    case 2: count = detail::kTwoInfluences; break;
    case 4: count = detail::kFourInfluences; break;
    case 8: count = detail::kEightInfluences; break;
    default: break;
  }
  detail::skinning_kernels(level).linear[static_cast<std::size_t>(count)][static_cast<std::size_t>(set)](args);
  return true;
}

void SkinningJob::run_or_throw() const {
  if (const JobStatus s = check_shape(*this); !s) {
    std::string message = s.message("SkinningJob");
    if (std::size_t size = 0; field_size(*this, s.field, size)) {
      message += " (" + std::string(s.field) + " has " + std::to_string(size) + " elements, in_positions has " +
                 std::to_string(in_positions.size()) + ")";
    }
    throw std::invalid_argument(message);
  }
  std::uint16_t worst = 0;
  if (const long long v = first_vertex_outside_palette(*this, &worst); v >= 0) {
    throw std::out_of_range(job_error("joints", kOutsidePalette).message("SkinningJob") + " (vertex " +
                            std::to_string(v) + " uses joint " + std::to_string(worst) + " of a palette of " +
                            std::to_string(palette_size(*this)) + ")");
  }
  run();
}

}  // namespace marrow
