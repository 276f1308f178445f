#pragma once
// Pictures of one model's poses. A ModelRenderer keeps the scratch a frame needs (posed
// vertices, clip-space positions, the supersampled framebuffer), sized once for the model, so
// rendering frame after frame allocates nothing once the first frame has sized the target.
//
// A frame: clear to the background; for every mesh part, Animator::pose_part (the CPU-skinned,
// morph-blended vertices of `marrow pose`) and a DrawMeshJob with the part's material; the
// overlays (bounding box, skeleton); resolve (2x2 supersampling by default). Captions are the
// tools' (tools/presentation/caption.hpp), drawn on the resolved picture. A
// model without vertices (a skeleton-only animation file) is drawn as its skeleton
// (skeleton_bones.hpp), whatever RenderSettings::skeleton says.
//
// Per-frame state: one thread uses a ModelRenderer at a time. The Model must outlive it.
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "marrow/model/animator.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/model/model.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/framebuffer.hpp"
#include "marrow/render/image.hpp"
#include "marrow/render/lighting.hpp"

namespace marrow::render {

// Linear RGB of the default background (sRGB 46, 52, 64: a dark slate).
inline constexpr glm::vec3 kDefaultBackground{0.0273f, 0.0343f, 0.0513f};

struct RenderSettings {
  int width = 512;
  int height = 512;
  int samples = 2;                          // per axis: 2 = 2x2 supersampling
  glm::vec3 background = kDefaultBackground;  // linear RGB
  Lighting lighting;
  bool skeleton = false;                    // joints and bones over the model
  std::optional<BoundingBox> bounds_overlay;  // a box drawn over the model
};

class ModelRenderer {
 public:
  explicit ModelRenderer(const Model& model);

  // Renders the animator's current pose into out (resized to the settings' size). Throws
  // std::invalid_argument when the animator plays another model, or for a size or sample
  // count Framebuffer::resize refuses.
  void render(Animator& animator, const Camera& camera, const RenderSettings& settings, Image& out);

  const Model& model() const noexcept { return model_; }

 private:
  const Model& model_;
  Framebuffer framebuffer_;
  std::vector<glm::vec3> positions_;
  std::vector<glm::vec3> normals_;
  std::vector<glm::vec4> clip_;
  std::vector<std::uint8_t> skeleton_;  // skeleton_bones(model), once
  bool has_vertices_ = false;
};

}  // namespace marrow::render
