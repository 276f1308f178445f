#pragma once
// Surface properties of a mesh part (what a renderer needs besides geometry).
#include <string>

#include <glm/vec4.hpp>

namespace marrow {

struct Material {
  std::string name;
  glm::vec4 base_color{1.f};  // linear RGBA (glTF baseColorFactor)
  bool double_sided = false;
  int source_material = -1;   // index in the source file, -1 when built in code
};

}  // namespace marrow
