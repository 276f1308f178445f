#include "marrow/runtime/skinning_job.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "marrow/runtime/simd_level.hpp"
#include "skinning_kernels.hpp"

namespace marrow {

namespace detail {

const SkinningKernels& skinning_kernels(SimdLevel level) noexcept {
#if defined(__x86_64__)
  switch (level) {
    case SimdLevel::Avx512: return avx512::kSkinningKernels;
    case SimdLevel::Avx2: return avx2::kSkinningKernels;
    case SimdLevel::Sse2: break;
  }
#else
  (void)level;
#endif
  return sse2::kSkinningKernels;
}

}  // namespace detail

namespace {

constexpr const char* kOutsidePalette = "has an index outside the palette";

// A span that must hold at least n elements (n = in_positions.size()).
template <class T>
JobStatus check_span(const char* name, const StridedSpan<T>& span, std::size_t n) noexcept {
  if (span.size() < n) return job_error(name, "has fewer elements than in_positions");
  if (span.empty()) return kJobOk;
  if (span.data() == nullptr) return job_error(name, "has no data");
  if (span.stride() < sizeof(T)) return job_error(name, "has a stride smaller than its element");
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

// Everything but the joint scan: O(1).
JobStatus check_shape(const SkinningJob& job) noexcept {
  const std::size_t n = job.in_positions.size();
  if (const JobStatus s = check_span("in_positions", job.in_positions, n); !s) return s;
  if (n == 0 && !job.out_positions.empty()) return job_error("out_positions", "is given without in_positions");
  if (const JobStatus s = check_span("out_positions", job.out_positions, n); !s) return s;
  if (const JobStatus s = check_span("joints", job.joints, n); !s) return s;
  if (const JobStatus s = check_span("weights", job.weights, n); !s) return s;
  if (n > 0 && job.palette.empty()) return job_error("palette", "is empty while vertices are given");
  if (const JobStatus s = check_pair("in_normals", job.in_normals, "out_normals", job.out_normals, n,
                                     "is given without in_normals", "is empty while in_normals is given");
      !s) {
    return s;
  }
  return check_pair("in_tangents", job.in_tangents, "out_tangents", job.out_tangents, n,
                    "is given without in_tangents", "is empty while in_tangents is given");
}

// The first vertex (< in_positions.size()) with a joint index outside the palette, or -1.
long long first_vertex_outside_palette(const SkinningJob& job) noexcept {
  const std::size_t n = job.in_positions.size();
  const std::size_t palette_size = job.palette.size();
  const std::byte* joints = job.joints.data();
  const std::size_t stride = job.joints.stride();
  for (std::size_t v = 0; v < n; ++v) {
    std::uint16_t j[4];
    std::memcpy(j, joints + v * stride, sizeof j);
    if (j[0] >= palette_size || j[1] >= palette_size || j[2] >= palette_size || j[3] >= palette_size) {
      return static_cast<long long>(v);
    }
  }
  return -1;
}

std::size_t field_size(const SkinningJob& job, std::string_view field) noexcept {
  if (field == "in_positions") return job.in_positions.size();
  if (field == "out_positions") return job.out_positions.size();
  if (field == "joints") return job.joints.size();
  if (field == "weights") return job.weights.size();
  if (field == "in_normals") return job.in_normals.size();
  if (field == "out_normals") return job.out_normals.size();
  if (field == "in_tangents") return job.in_tangents.size();
  if (field == "out_tangents") return job.out_tangents.size();
  return job.palette.size();
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
  const bool normals = !in_normals.empty();
  const bool tangents = !in_tangents.empty();
  detail::SkinningArgs args{};
  args.palette = &palette[0][0][0];
  args.last_joint = static_cast<std::uint32_t>(palette.size() - 1 < 0xFFFFu ? palette.size() - 1 : 0xFFFFu);
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
  const detail::SkinningKernels& k = detail::skinning_kernels(simd_level());
  detail::SkinningKernel kernel = k.positions;
  if (normals && tangents) {
    kernel = normalize ? k.positions_normals_tangents_unit : k.positions_normals_tangents;
  } else if (normals) {
    kernel = normalize ? k.positions_normals_unit : k.positions_normals;
  } else if (tangents) {
    kernel = normalize ? k.positions_tangents_unit : k.positions_tangents;
  }
  kernel(args);
  return true;
}

void SkinningJob::run_or_throw() const {
  if (const JobStatus s = check_shape(*this); !s) {
    throw std::invalid_argument(s.message("SkinningJob") + " (" + s.field + " has " +
                                std::to_string(field_size(*this, s.field)) + " elements, in_positions has " +
                                std::to_string(in_positions.size()) + ")");
  }
  if (const long long v = first_vertex_outside_palette(*this); v >= 0) {
    const glm::u16vec4 j = joints.load(static_cast<std::size_t>(v));
    std::uint16_t worst = j.x;
    for (const std::uint16_t c : {j.y, j.z, j.w}) worst = c > worst ? c : worst;
    throw std::out_of_range(job_error("joints", kOutsidePalette).message("SkinningJob") + " (vertex " +
                            std::to_string(v) + " uses joint " + std::to_string(worst) + " of a palette of " +
                            std::to_string(palette.size()) + ")");
  }
  run();
}

}  // namespace marrow
