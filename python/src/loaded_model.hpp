#pragma once
// A model as Python holds it: the Model, the path it was loaded from (the "file" of info() and
// pose()), and what its users share, made on first use: the compiled animations (every
// Instance of it) and the box pictures are framed on (render()).
//
// The Model is editable (add_marker) until the first use that keeps a reference to it or
// reads it without the GIL: instance(), pose(), sample(), render(), convert(); freeze() marks
// that moment. From then on it is immutable, so calls that release the GIL may read it from
// any thread. Every member function runs with the GIL held except framing_box(), which locks.
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "marrow/model/bounds.hpp"
#include "marrow/model/compiled_model.hpp"
#include "marrow/model/model.hpp"

namespace marrow::python {

class LoadedModel {
 public:
  LoadedModel(std::string path, Model model) : path_(std::move(path)), model_(std::move(model)) {}

  const std::string& path() const noexcept { return path_; }
  const Model& model() const noexcept { return model_; }
  // Throws std::logic_error once frozen (instances have compiled the model's markers).
  Model& model_to_edit();
  void freeze() noexcept { frozen_ = true; }

  // Freeze; compile the model (validate, animations, what every instance shares) on the first
  // call. Instances are made from compiled().
  std::shared_ptr<const CompiledModel> compiled();
  // animated_bounds(model), computed once; callable without the GIL (after freeze()).
  BoundingBox framing_box();

 private:
  std::string path_;
  Model model_;
  bool frozen_ = false;
  std::shared_ptr<const CompiledModel> compiled_;
  std::mutex box_mutex_;
  std::optional<BoundingBox> box_;
};

}  // namespace marrow::python
