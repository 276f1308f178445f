#include "marrow/asset/shared_model.hpp"

#include "marrow/model/absolute_bone_transforms.hpp"

namespace marrow::asset {

SharedModel::SharedModel(Model m) : model(std::move(m)) { refresh(); }

void SharedModel::refresh() {
  compiled = compile_model(model);  // validates
  bind_worlds.resize(model.nodes.size());
  copy_absolute_bone_transforms(model, bind_worlds);
}

}  // namespace marrow::asset
