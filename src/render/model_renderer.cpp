#include "marrow/render/model_renderer.hpp"

#include <algorithm>
#include <stdexcept>

#include "marrow/model/skeleton_bones.hpp"
#include "marrow/render/box_overlay.hpp"
#include "marrow/render/draw_mesh_job.hpp"
#include "marrow/render/skeleton_overlay.hpp"

namespace marrow::render {

ModelRenderer::ModelRenderer(const Model& model) : model_(model) {
  std::size_t most = 0;
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) most = std::max(most, part.vertex_count());
  }
  positions_.resize(most);
  normals_.resize(most);
  clip_.resize(most);
  skeleton_ = skeleton_bones(model);
  has_vertices_ = most > 0;
}

void ModelRenderer::render(Animator& animator, const Camera& camera, const RenderSettings& settings, Image& out) {
  if (&animator.model() != &model_) throw std::invalid_argument("ModelRenderer::render: the animator plays another model");
  framebuffer_.resize(settings.width, settings.height, settings.samples);
  framebuffer_.clear(settings.background);
  const Material kDefaultMaterial;
  for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
    const ModelMesh& mesh = model_.meshes[m];
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      const std::size_t n = part.vertex_count();
      const bool has_normals = part.layout.has(VertexAttribute::Normal);
      const std::span<glm::vec3> positions(positions_.data(), n);
      const std::span<glm::vec3> normals(normals_.data(), has_normals ? n : 0);
      animator.pose_part(m, p, positions, normals);
      const Material& material = part.material ? *part.material : kDefaultMaterial;
      DrawMeshJob job;
      job.positions = positions;
      job.normals = normals;
      job.indices = part.indices;
      job.mode = part.mode;
      job.base_color = material.base_color;
      job.double_sided = material.double_sided;
      job.camera = &camera;
      job.lighting = settings.lighting;
      job.clip_scratch = std::span<glm::vec4>(clip_.data(), n);
      job.target = &framebuffer_;
      job.run();
    }
  }
  if (settings.bounds_overlay) draw_box(*settings.bounds_overlay, camera, framebuffer_);
  if (settings.skeleton || !has_vertices_) draw_skeleton(model_, skeleton_, animator.absolute_bone_transforms(), camera, framebuffer_);
  framebuffer_.resolve(out);
}

}  // namespace marrow::render
