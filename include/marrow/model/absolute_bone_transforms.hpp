#pragma once
// M4: model-space transforms of the scene nodes (bone index == scene-node index). This is not a
// palette: it is indexed by scene node, not by joint, and has no inverse bind matrices.
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/model/model.hpp"

namespace marrow {

// out[i] = out[parent(i)] * transform[i] from the model's own bone transforms; roots take their
// transform. out's size must match the bone count (std::invalid_argument otherwise). An
// instance's pose: Animator::absolute_bone_transforms.
void copy_absolute_bone_transforms(const Model& model, std::span<glm::mat4> out);
// The same from other locals of the nodes (a rest pose, a clip's frame): one per node each.
void compose_node_transforms(const Model& model, std::span<const glm::mat4> locals, std::span<glm::mat4> out);

}  // namespace marrow
