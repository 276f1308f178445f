#include "marrow/model/draw_item.hpp"

#include <stdexcept>
#include <string>

namespace marrow {

void draw_model(const Model& model, std::span<const glm::mat4> absolute_bones, const DrawCallback& draw) {
  if (absolute_bones.size() != model.nodes.size()) {
    throw std::invalid_argument("draw_model: " + std::to_string(absolute_bones.size()) + " transforms for " +
                                std::to_string(model.nodes.size()) + " bones");
  }
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    const auto bone = static_cast<std::size_t>(mesh.node);
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      draw(DrawItem{m, p, &part, bone < absolute_bones.size() ? absolute_bones[bone] : glm::mat4(1.f),
                    part.vertex_bytes, part.skinned_material.get()});
    }
  }
}

}  // namespace marrow
