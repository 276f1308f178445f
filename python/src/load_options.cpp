#include "load_options.hpp"

#include <cmath>

#include <pybind11/pybind11.h>

namespace marrow::python {

namespace py = pybind11;

ModelFileOptions load_options(std::optional<int> scene, int max_palette, const std::string& palette,
                              std::optional<double> ticks_per_second, bool skeletal) {
  ModelFileOptions options;
  if (scene) {
    if (*scene < 0) throw py::value_error("scene=" + std::to_string(*scene) + ": a scene number from 0 (None: the file's default)");
    options.import.scene = *scene;
  }
  if (max_palette < 1 || max_palette > kMaxPaletteJoints)
    throw py::value_error("max_palette=" + std::to_string(max_palette) + ": a number of joints from 1 to " + std::to_string(kMaxPaletteJoints));
  options.import.max_palette = max_palette;
  const std::optional<PalettePolicy> policy = palette_policy_named(palette);
  if (!policy) throw py::value_error("palette='" + palette + "': use 'refuse', 'static' or 'split'");
  options.import.palette_policy = *policy;
  if (ticks_per_second) {
    if (!(std::isfinite(*ticks_per_second) && *ticks_per_second > 0)) {
      throw py::value_error("ticks_per_second must be positive and finite");
    }
    options.ticks_per_second = *ticks_per_second;
  }
  options.load_skeletal_data = skeletal;
  return options;
}

}  // namespace marrow::python
