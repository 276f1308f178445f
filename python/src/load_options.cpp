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
  if (max_palette < 1 || max_palette > 65536)  // joint indices are 16-bit; 0 would refuse every skin
    throw py::value_error("max_palette=" + std::to_string(max_palette) + ": a number of joints from 1 to 65536");
  options.import.max_palette = max_palette;
  if (palette == "refuse") {
    options.import.palette_policy = PalettePolicy::Refuse;
  } else if (palette == "static") {
    options.import.palette_policy = PalettePolicy::LoadStatic;
  } else if (palette == "split") {
    options.import.palette_policy = PalettePolicy::Split;
  } else {
    throw py::value_error("palette='" + palette + "': use 'refuse', 'static' or 'split'");
  }
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
