#pragma once
// The loading keywords load() and convert() share, as `marrow info|pose|convert` take them:
// scene (--scene), max_palette (--max-palette), palette ("refuse", "static" or "split", as
// --palette: what a skin over max_palette joints does), ticks_per_second (--ticks-per-second, Assimp formats) and skeletal
// (False loads every mesh of an Assimp format static). ValueError for a value marrow refuses.
#include <optional>
#include <string>

#include "marrow/io/model_file.hpp"

namespace marrow::python {

ModelFileOptions load_options(std::optional<int> scene, int max_palette, const std::string& palette,
                              std::optional<double> ticks_per_second, bool skeletal);

}  // namespace marrow::python
