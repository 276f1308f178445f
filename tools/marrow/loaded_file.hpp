#pragma once
// A file loaded for a subcommand, whatever its format (glTF, native, Assimp's formats).
#include <filesystem>
#include <optional>
#include <string>

#include "marrow/io/model_file.hpp"
#include "marrow/model/model.hpp"
#include "commands.hpp"

namespace marrow::cli {

struct LoadedFile {
  std::filesystem::path path;
  Model model;
};

// The options every loading command takes: --scene N, --max-palette N, --palette
// refuse|static|split, --ticks-per-second T.
ModelFileOptions take_load_options(Args& args);

// Throws ImportError (naming the file) for a refused file; a palette-limit refusal names the
// flags that lift it (--max-palette N, --palette split) instead of the library's options.
LoadedFile load_file(const std::string& path, const ModelFileOptions& options);

// The animation an option names: a decimal string that is a valid index, else a name.
// Throws UsageError when nothing matches.
int find_clip(const Model& model, const std::string& clip);

// The clip a time (or an animation) plays: --clip when given, else the file's only clip.
// UsageError naming `what` and listing the clips when the file has none or several.
int clip_for_time(const Model& model, const std::optional<std::string>& clip, const std::string& what);

// "0 'Walk', 1 'Run'" (the first dozen).
std::string clip_list(const Model& model);

}  // namespace marrow::cli
