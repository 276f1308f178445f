#pragma once
// The vertex and triangle types of the asset-level API (seed 003). A skeletal vertex carries four
// bone indices (bytes: bones are at most 255) and four weights that should sum to 1 (T16).
#include <array>
#include <cstdint>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace marrow::asset {

struct MeshVertex {
  glm::vec3 location{0.f};
  glm::vec2 texture_coords{0.f};
  glm::vec3 tangent{1, 0, 0};
  glm::vec3 bitangent{0, 1, 0};
  glm::vec3 normal{0, 0, 1};
};

struct MeshVertexSkeletal {
  glm::vec3 location{0.f};
  glm::vec2 texture_coords{0.f};
  glm::vec3 tangent{1, 0, 0};
  glm::vec3 bitangent{0, 1, 0};
  glm::vec3 normal{0, 0, 1};
  std::array<std::uint8_t, 4> bone_indices{0, 0, 0, 0};
  std::array<float, 4> bone_weights{1, 0, 0, 0};
};

// Three vertex indices, counter-clockwise seen from the front.
struct VertexTriangle {
  std::uint32_t a = 0, b = 0, c = 0;
};

}  // namespace marrow::asset
