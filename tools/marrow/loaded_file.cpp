#include "loaded_file.hpp"

#include <cstdlib>

#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf_importer.hpp"
#include "options.hpp"

namespace marrow::cli {

LoadedFile load_file(const std::string& path, const ImportOptions& options) {
  LoadedFile file;
  file.path = path;
  const std::vector<std::byte> bytes = read_file_bytes(file.path, options.limits);
  const std::filesystem::path base = file.path.parent_path().empty() ? std::filesystem::path(".") : file.path.parent_path();
  std::vector<Diagnostic> diagnostics;
  try {
    file.asset = load_gltf_asset(bytes, options, &base, diagnostics);
    file.model = import_gltf(file.asset, options);
  } catch (const ImportError& e) {
    throw ImportError(e.code(), path + ": " + e.detail());  // name the file
  }
  diagnostics.insert(diagnostics.end(), file.model.diagnostics.begin(), file.model.diagnostics.end());
  file.model.diagnostics = std::move(diagnostics);
  return file;
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
