#pragma once
// The skeleton drawn over the model: a line from each joint to its parent joint and a dot on
// every joint, coloured by the joint's depth in the hierarchy (roots first in the ramp). The
// joints are skeleton_bones(model): those of every skin; a model without skins shows its scene
// nodes instead, and one without vertices either its main animated hierarchy (no cameras or
// lights). Bone 0, the synthetic root, is left out.
#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/model/model.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/framebuffer.hpp"

namespace marrow::render {

// The overlay colour (linear RGB) of a joint at that depth (0 = a root joint); the ramp repeats.
glm::vec3 skeleton_depth_colour(int depth) noexcept;

// bone_worlds: model-space transforms per bone (Animator::absolute_bone_transforms()).
// Line width and dot size follow the picture's size. Throws std::invalid_argument when
// bone_worlds does not have one entry per bone.
void draw_skeleton(const Model& model, std::span<const glm::mat4> bone_worlds, const Camera& camera, Framebuffer& target);
// The same with the joints given (one byte per bone, 1 = joint; skeleton_bones(model)), so a
// caller drawing frame after frame computes them once. Throws std::invalid_argument when
// `joints` does not have one entry per bone either.
void draw_skeleton(const Model& model, std::span<const std::uint8_t> joints, std::span<const glm::mat4> bone_worlds,
                   const Camera& camera, Framebuffer& target);

}  // namespace marrow::render
