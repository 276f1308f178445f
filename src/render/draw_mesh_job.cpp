#include "marrow/render/draw_mesh_job.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/render/rasterizer.hpp"

namespace marrow::render {

namespace {

// Calls f(i0, i1, i2) with vertex numbers for every triangle of the primitive, in the winding
// the primitive defines (strips alternate so that every triangle keeps the first one's).
template <class F>
void for_each_triangle(PrimitiveMode mode, std::size_t count, F&& f) {
  switch (mode) {
    case PrimitiveMode::Triangles:
      for (std::size_t i = 0; i + 2 < count; i += 3) f(i, i + 1, i + 2);
      break;
    case PrimitiveMode::TriangleStrip:
      for (std::size_t i = 0; i + 2 < count; ++i) {
        if (i % 2 == 0) {
          f(i, i + 1, i + 2);
        } else {
          f(i + 1, i, i + 2);
        }
      }
      break;
    case PrimitiveMode::TriangleFan:
      for (std::size_t i = 1; i + 1 < count; ++i) f(0, i, i + 1);
      break;
    default: break;  // points and lines: not drawn
  }
}

}  // namespace

void DrawMeshJob::validate() const {
  if (camera == nullptr) throw std::invalid_argument("DrawMeshJob: no camera");
  if (target == nullptr) throw std::invalid_argument("DrawMeshJob: no target framebuffer");
  if (!normals.empty() && normals.size() != positions.size()) {
    throw std::invalid_argument("DrawMeshJob: " + std::to_string(normals.size()) + " normals for " +
                                std::to_string(positions.size()) + " positions");
  }
  if (clip_scratch.size() < positions.size()) {
    throw std::invalid_argument("DrawMeshJob: clip_scratch has " + std::to_string(clip_scratch.size()) + " entries for " +
                                std::to_string(positions.size()) + " positions");
  }
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= positions.size()) {
      throw std::invalid_argument("DrawMeshJob: index " + std::to_string(i) + " is " + std::to_string(indices[i]) + ", past " +
                                  std::to_string(positions.size()) + " vertices");
    }
  }
}

std::size_t DrawMeshJob::run() const {
  validate();
  const glm::mat4& vp = camera->view_projection;
  for (std::size_t v = 0; v < positions.size(); ++v) clip_scratch[v] = vp * glm::vec4(positions[v], 1.f);
  const glm::vec3 base(base_color);
  const glm::vec3 to_light = -camera->forward;
  const glm::vec3 eye = camera->eye;
  const bool indexed = !indices.empty();
  const std::size_t count = indexed ? indices.size() : positions.size();
  std::size_t drawn = 0;
  for_each_triangle(mode, count, [&](std::size_t a, std::size_t b, std::size_t c) {
    const std::size_t i[3] = {indexed ? indices[a] : a, indexed ? indices[b] : b, indexed ? indices[c] : c};
    const glm::vec3& p0 = positions[i[0]];
    const glm::vec3 face = glm::cross(positions[i[1]] - p0, positions[i[2]] - p0);
    const bool front = glm::dot(face, eye - p0) > 0.f;
    if (!front && !double_sided) return;
    const float side = front ? 1.f : -1.f;
    RasterVertex v[3];
    const float face_length = glm::length(face);
    const glm::vec3 flat = face_length > 0.f ? face * (side / face_length) : glm::vec3(0.f);
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 n = normals.empty() ? flat : normals[i[k]] * side;
      v[k] = RasterVertex{clip_scratch[i[k]], shade_lambert(base, n, to_light, lighting)};
    }
    rasterize_triangle(*target, v[0], v[1], v[2]);
    ++drawn;
  });
  return drawn;
}

}  // namespace marrow::render
