#pragma once
// One instance of a model as Python holds it: an Animator, and the LoadedModel it refers to,
// kept alive by it (declared first, so it outlives the Animator). One Python thread at a time:
// the Instance's methods hold the GIL, which serialises them.
#include <memory>
#include <utility>

#include "loaded_model.hpp"
#include "marrow/model/animator.hpp"

namespace marrow::python {

struct Instance {
  explicit Instance(std::shared_ptr<LoadedModel> loaded)
      : model(std::move(loaded)), animator(model->compiled()) {}

  std::shared_ptr<LoadedModel> model;
  Animator animator;
};

}  // namespace marrow::python
