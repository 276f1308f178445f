#pragma once
// What a renderer needs to draw one part of one instance. Drawing reads palettes; it never
// installs them (M1): Animator::install_palettes does that, just before the instance is drawn.
#include <cstddef>
#include <functional>
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/model/model.hpp"

namespace marrow {

struct DrawItem {
  std::size_t mesh = 0;
  std::size_t part = 0;
  const ModelMeshPart* data = nullptr;
  glm::mat4 world{1.f};                    // the part's node transform (for skinned parts: draw * palette)
  std::span<const std::byte> vertex_bytes; // the instance's vertices (morphed when the part has targets)
  const SkinnedMaterial* palette = nullptr;  // skinned parts only
};

using DrawCallback = std::function<void(const DrawItem&)>;

// Visits every part of a model drawn with the given absolute bone transforms and the model's
// own vertex bytes (no per-instance morphing). Throws std::invalid_argument on a size mismatch.
void draw_model(const Model& model, std::span<const glm::mat4> absolute_bones, const DrawCallback& draw);

}  // namespace marrow
