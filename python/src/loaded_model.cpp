#include "loaded_model.hpp"

#include <stdexcept>

#include "marrow/model/animated_bounds.hpp"

namespace marrow::python {

Model& LoadedModel::model_to_edit() {
  if (frozen_) {
    throw std::logic_error(path_ + ": the model is in use (instances, poses or pictures were made from it); "
                           "add markers right after load()");
  }
  return model_;
}

std::shared_ptr<const CompiledModel> LoadedModel::compiled() {
  freeze();
  if (!compiled_) compiled_ = compile_model(model_);
  return compiled_;
}

BoundingBox LoadedModel::framing_box() {
  const std::lock_guard<std::mutex> lock(box_mutex_);
  if (!box_) box_ = animated_bounds(model_);
  return *box_;
}

}  // namespace marrow::python
