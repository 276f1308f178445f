#pragma once
// The morph blend as a job (G12, G13, G15): the rule of blend_morph_targets.hpp,
//   position = base + sum_t w_t * dP_t
//   normal   = normalize(base + sum_t w_t * dN_t)      (only when some normal delta applies)
//   tangent  = (normalize(base.xyz + sum_t w_t * dT_t), base.w)
// with every other attribute copied, and flat normals recomputed for primitives that authored
// none.
//
// The carrier must have passed validate(MorphTargetData) once (validate(Model) does it); the
// job then checks only what changes per call, in O(1).
//
//   MorphBlendJob job{.morph = &part.morph.value(), .weights = weights, .output = bytes};
//   job.run();   // no throw, no allocation; nothing written when validate() fails
#include <cstddef>
#include <span>

#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/morph_target_data.hpp"

namespace marrow {

struct MorphBlendJob {
  const MorphTargetData* morph = nullptr;
  std::span<const float> weights{};  // exactly morph->target_count()
  std::span<std::byte> output{};     // exactly morph->base_vertex_bytes.size() bytes

  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
