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
  // true: the caller keeps joints within models (an Animator's skin, checked with its model):
  // run() checks the sizes only, not every index. An index out of range is then undefined
  // behaviour.
  bool indices_checked = false;

  // Sizes, and every joint index within models. O(palette), whatever indices_checked says.
  JobStatus validate() const noexcept;
  // validate() (its size checks alone when indices_checked), then the palette; false (and
  // nothing written) when invalid.
  bool run() const noexcept;

 private:
  JobStatus check(bool scan_indices) const noexcept;
};

}  // namespace marrow
