#pragma once
// A file loaded for a subcommand: the parsed document (for the file's own index spaces) and
// the imported model.
#include <filesystem>
#include <string>

#include "marrow/io/gltf_document.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::cli {

struct LoadedFile {
  std::filesystem::path path;
  gltf::GltfAsset asset;
  Model model;
};

// Throws ImportError for a refused file.
LoadedFile load_file(const std::string& path, const ImportOptions& options);

// The animation an option names: a decimal string that is a valid index, else a name.
// Throws UsageError when nothing matches.
int find_clip(const Model& model, const std::string& clip);

}  // namespace marrow::cli
