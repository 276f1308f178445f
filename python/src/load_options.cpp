#include "load_options.hpp"

#include <pybind11/pybind11.h>

namespace marrow::python {

namespace py = pybind11;

ModelFileOptions load_options(std::optional<int> scene, int max_palette, const std::string& palette,
                              std::optional<double> ticks_per_second, bool skeletal) {
  // The ranges are the library's (G22: ValueError naming the field, before the file is read);
  // only the names are Python's.
  ModelFileOptions options;
  if (scene) options.import.scene = *scene;
  options.import.max_palette = max_palette;
  const std::optional<PalettePolicy> policy = palette_policy_named(palette);
  if (!policy) throw py::value_error("palette='" + palette + "': use 'refuse', 'static' or 'split'");
  options.import.palette_policy = *policy;
  options.ticks_per_second = ticks_per_second;
  options.load_skeletal_data = skeletal;
  return options;
}

}  // namespace marrow::python
