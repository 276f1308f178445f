#pragma once
// Draws one mesh part's posed triangles into a Framebuffer, in the style of a job: fill the
// fields, then run(). Nothing is allocated: clip-space positions go to the caller's scratch.
//
// Positions and normals are in model space (what Animator::pose_part produces). A triangle is
// front-facing when it winds counter-clockwise seen from the eye (glTF). Back faces are culled
// for single-sided materials; for double-sided ones they are lit with the normal flipped
// towards the eye. Without normals each triangle is lit with its face normal (flat shading).
// Triangle lists, strips and fans are drawn; points and lines are not (nothing is drawn).
#include <cstdint>
#include <span>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "marrow/model/model.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/framebuffer.hpp"
#include "marrow/render/lighting.hpp"

namespace marrow::render {

struct DrawMeshJob {
  std::span<const glm::vec3> positions;
  std::span<const glm::vec3> normals;      // empty: flat shading with face normals
  std::span<const std::uint32_t> indices;  // empty: non-indexed
  PrimitiveMode mode = PrimitiveMode::Triangles;
  glm::vec4 base_color{1.f};               // linear RGBA; alpha is ignored (drawn opaque)
  bool double_sided = false;
  const Camera* camera = nullptr;
  Lighting lighting;
  std::span<glm::vec4> clip_scratch;       // at least positions.size() entries
  Framebuffer* target = nullptr;

  // Throws std::invalid_argument naming the field: no camera or target, normals or scratch of
  // the wrong size, an index at or past the vertex count.
  void validate() const;
  // validate(), then draws; returns the number of triangles drawn (after culling).
  std::size_t run() const;
};

}  // namespace marrow::render
