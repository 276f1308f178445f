#pragma once
// Lambert shading with a headlight: a directional light shining from the camera along its view
// direction, plus an ambient term. With the defaults a surface facing the camera shows exactly
// its base colour, and one seen edge-on shows a fifth of it.
#include <algorithm>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace marrow::render {

struct Lighting {
  float ambient = 0.2f;
  float diffuse = 0.8f;
};

// base (linear RGB) * (ambient + diffuse * max(0, n . to_light)); n and to_light unit length.
inline glm::vec3 shade_lambert(const glm::vec3& base, const glm::vec3& normal, const glm::vec3& to_light,
                               const Lighting& lighting) noexcept {
  const float lambert = std::max(0.f, glm::dot(normal, to_light));
  return base * (lighting.ambient + lighting.diffuse * lambert);
}

}  // namespace marrow::render
