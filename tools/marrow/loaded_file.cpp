#include "loaded_file.hpp"

#include <cstdlib>

#include "options.hpp"

namespace marrow::cli {

ModelFileOptions take_load_options(Args& args) {
  ModelFileOptions options;
  if (const auto scene = take_option(args, "--scene")) options.import.scene = static_cast<int>(parse_number(*scene, "--scene"));
  if (const auto p = take_option(args, "--max-palette")) {
    options.import.max_palette = static_cast<int>(parse_number(*p, "--max-palette"));
  }
  if (const auto tps = take_option(args, "--ticks-per-second")) {
    const double value = parse_number(*tps, "--ticks-per-second");
    if (!(value > 0)) throw UsageError("--ticks-per-second must be positive");
    options.ticks_per_second = value;
  }
  return options;
}

LoadedFile load_file(const std::string& path, const ModelFileOptions& options) {
  return LoadedFile{path, load_model_file(path, options)};
}

int find_clip(const Model& model, const std::string& clip) {
  if (!clip.empty() && clip.find_first_not_of("0123456789") == std::string::npos && clip.size() < 10) {
    const int index = std::atoi(clip.c_str());
    if (index < static_cast<int>(model.animations.size())) return index;
  }
  const int by_name = model.find_animation(clip);
  if (by_name < 0) {
    throw UsageError("no clip '" + clip + "' (the file has " + std::to_string(model.animations.size()) + " animations)");
  }
  return by_name;
}

}  // namespace marrow::cli
