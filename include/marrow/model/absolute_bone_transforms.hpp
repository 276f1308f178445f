#pragma once
// M4: model-space transforms of the scene nodes (bone index == scene-node index). This is not a
// palette: it is indexed by scene node, not by joint, and has no inverse bind matrices.
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/model/model.hpp"

namespace marrow {

// out[i] = out[parent(i)] * locals[i]; roots take locals[i]. Sizes must match the bone count
// (std::invalid_argument otherwise). locals and out may not alias.
void compose_absolute_transforms(const Model& model, std::span<const glm::mat4> locals, std::span<glm::mat4> out);

// The same from the model's own bone transforms.
void copy_absolute_bone_transforms(const Model& model, std::span<glm::mat4> out);

}  // namespace marrow
