#include "loaded_file.hpp"

#include <cmath>
#include <cstdlib>
#include <utility>

#include "marrow/core/import_error.hpp"

#include "options.hpp"

namespace marrow::cli {

ModelFileOptions take_load_options(Args& args) {
  ModelFileOptions options;
  if (const auto scene = take_option(args, "--scene")) {
    const double n = parse_number(*scene, "--scene");
    if (n < 0 || n > 1e6 || n != std::floor(n)) throw UsageError("--scene '" + *scene + "' must be a scene number from 0");
    options.import.scene = static_cast<int>(n);
  }
  if (const auto p = take_option(args, "--max-palette")) {
    const double joints = parse_number(*p, "--max-palette");
    if (joints < 1 || joints > kMaxPaletteJoints || joints != std::floor(joints)) {
      throw UsageError("--max-palette '" + *p + "' must be a whole number of joints from 1 to " + std::to_string(kMaxPaletteJoints));
    }
    options.import.max_palette = static_cast<int>(joints);
  }
  if (const auto policy = take_option(args, "--palette")) {
    const std::optional<PalettePolicy> named = palette_policy_named(*policy);
    if (!named) throw UsageError("--palette '" + *policy + "' must be refuse, static or split");
    options.import.palette_policy = *named;
  }
  if (const auto tps = take_option(args, "--ticks-per-second")) {
    const double value = parse_number(*tps, "--ticks-per-second");
    if (!(value > 0)) throw UsageError("--ticks-per-second must be positive");
    options.ticks_per_second = value;
  }
  return options;
}

LoadedFile load_file(const std::string& path, const ModelFileOptions& options) {
  try {
    return LoadedFile{path, load_model_file(path, options)};
  } catch (const ImportError& e) {
    if (e.code() != ImportErrorCode::PaletteLimit) throw;
    // The library names its options; a user of the tool needs the flags that lift the limit.
    std::string detail = e.detail();
    const std::pair<std::string, std::string> names[] = {{"ImportOptions::max_palette", "--max-palette N"},
                                                         {"PalettePolicy::Split", "--palette split"}};
    bool named = false;
    for (const auto& [option, flag] : names) {
      if (const auto at = detail.find(option); at != std::string::npos) {
        detail.replace(at, option.size(), flag);
        named = true;
      }
    }
    if (!named) detail += " (--max-palette N or --palette split lifts it)";
    throw ImportError(e.code(), detail);
  }
}

std::string clip_list(const Model& model) {
  constexpr std::size_t kShown = 12;
  std::string out;
  for (std::size_t a = 0; a < model.animations.size() && a < kShown; ++a) {
    out += (a == 0 ? "" : ", ") + std::to_string(a) + " '" + model.animations[a].name + "'";
  }
  if (model.animations.size() > kShown) out += ", ...";
  return out;
}

int clip_for_time(const Model& model, const std::optional<std::string>& clip, const std::string& what) {
  if (clip) return find_clip(model, *clip);
  if (model.animations.size() == 1) return 0;
  if (model.animations.empty()) throw UsageError(what + ": the file has no animations");
  throw UsageError(what + " without --clip: the file has " + std::to_string(model.animations.size()) + " clips (" +
                   clip_list(model) + "); choose one with --clip");
}

int find_clip(const Model& model, const std::string& clip) {
  if (!clip.empty() && clip.find_first_not_of("0123456789") == std::string::npos && clip.size() < 10) {
    const int index = std::atoi(clip.c_str());
    if (index < static_cast<int>(model.animations.size())) return index;
  }
  const int by_name = model.find_animation(clip);
  if (by_name < 0) {
    throw UsageError("no clip '" + clip + "' (" +
                     (model.animations.empty() ? std::string("the file has no animations") : "clips: " + clip_list(model)) + ")");
  }
  return by_name;
}

}  // namespace marrow::cli
