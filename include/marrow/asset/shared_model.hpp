#pragma once
// The Model behind the asset layer (seed 003): meshes, skeletons and animation tables are views
// of one, never copies of its vertices or hierarchy. A built mesh is its own Model; the meshes
// and the table of one loaded file share the file's. Next to the Model, what every player of it
// shares: the model compiled for its Animators (compiled_model.hpp) and the bind (loaded)
// pose of its nodes.
#include <memory>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/model/compiled_model.hpp"
#include "marrow/model/model.hpp"

namespace marrow::asset {

struct SharedModel {
  explicit SharedModel(Model m);
  SharedModel(const SharedModel&) = delete;  // the compiled model refers into the model
  SharedModel& operator=(const SharedModel&) = delete;

  Model model;
  std::shared_ptr<const CompiledModel> compiled;  // compile_model(model)
  std::vector<glm::mat4> bind_worlds;             // per model node: model space at bind

  // After the model's bones or animations change (MeshBuilder): validates it and derives the
  // two again. Players made before keep their own compiled copy and remake their Animator.
  void refresh();
};

}  // namespace marrow::asset
