#pragma once
// The skin palette job: one skin's matrices from the skeleton's model-space transforms.
//
//   palette[i]     = root * models[joints[i]] * inverse_binds[i]     (joints empty: models[i])
//   skin_models[i] = root * models[joints[i]]                         (optional output)
//
// With root = the mesh node's inverse world (glTF's joint matrix) or the draw matrix (a
// world-space palette for CPU skinning), as the caller needs; absent = identity.
//
//   SkinPaletteJob job{.models = models, .inverse_binds = ibms, .palette = palette};
//   job.run();   // no throw, no allocation; nothing written when validate() fails
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/job_status.hpp"

namespace marrow {

struct SkinPaletteJob {
  std::span<const glm::mat4> models{};         // model-space transforms of the skeleton
  std::span<const glm::mat4> inverse_binds{};  // one per palette entry
  std::span<const int> joints{};               // empty, or per palette entry its index in models
  const glm::mat4* root = nullptr;           // optional, multiplied on the left
  std::span<glm::mat4> palette{};              // one per inverse bind
  std::span<glm::mat4> skin_models{};        // empty, or one per inverse bind: the skeleton in
                                             // the palette's space (AnimationPlayer's worlds)

  // Sizes, and every joint index within models. O(palette).
  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
