#pragma once
// The triangle rasterizer: one triangle in clip space with a linear RGB colour per vertex,
// depth-tested (nearer wins, ties keep the first) into a supersampled Framebuffer.
//
// Sample centres sit at (i + 0.5, j + 0.5) of the sample grid; vertices snap to 1/256 of a sample
// and edges are integer edge functions with the top-left fill rule, so triangles that share an
// edge cover each sample exactly once (no cracks, no double blending) and results do not depend
// on the order of floating-point sums. Depth and colour are interpolated linearly in screen
// space (Gouraud). Triangles crossing the near plane or far outside the picture are clipped in
// clip space first; triangles with non-finite coordinates are skipped. Both windings are drawn:
// culling is the caller's decision (DrawMeshJob).
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "marrow/render/framebuffer.hpp"

namespace marrow::render {

struct RasterVertex {
  glm::vec4 clip{0.f, 0.f, 0.f, 1.f};
  glm::vec3 colour{0.f};  // linear RGB
};

void rasterize_triangle(Framebuffer& target, const RasterVertex& a, const RasterVertex& b, const RasterVertex& c) noexcept;

}  // namespace marrow::render
