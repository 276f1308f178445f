#pragma once
// The twelve edges of a box (the animated bounds) drawn over the model.
#include <glm/vec3.hpp>

#include "marrow/model/bounds.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/framebuffer.hpp"

namespace marrow::render {

inline constexpr glm::vec3 kBoxOverlayColour{0.25f, 0.6f, 0.25f};

void draw_box(const BoundingBox& box, const Camera& camera, Framebuffer& target, const glm::vec3& linear_colour = kBoxOverlayColour);

// The overlay line half-width in samples for a framebuffer: about one pixel per 300.
float overlay_half_width(const Framebuffer& target) noexcept;

}  // namespace marrow::render
