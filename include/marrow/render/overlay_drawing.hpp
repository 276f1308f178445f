#pragma once
// Flat 2-D drawing into a Framebuffer's samples, for overlays drawn over the shaded model
// (no depth test): thick lines and discs. Drawn before resolve(), so they are anti-aliased by
// the same supersampling as the triangles. Coordinates are in samples (x right, y down).
#include <optional>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "marrow/render/camera.hpp"
#include "marrow/render/framebuffer.hpp"

namespace marrow::render {

// Where a model-space point lands on the sample grid; nullopt when it is behind the eye.
std::optional<glm::vec2> project_to_samples(const Camera& camera, const Framebuffer& target, const glm::vec3& point) noexcept;

// Colours every sample whose centre is within half_width of the segment (measured across it).
void draw_line(Framebuffer& target, glm::vec2 a, glm::vec2 b, const glm::vec3& linear_colour, float half_width) noexcept;
void draw_disc(Framebuffer& target, glm::vec2 centre, float radius, const glm::vec3& linear_colour) noexcept;

}  // namespace marrow::render
