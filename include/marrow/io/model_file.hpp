#pragma once
// One entry point for every format marrow loads: glTF (.gltf, .glb) through marrow's importer,
// the native format (.marrow) through its reader, BVH (.bvh) through marrow's BVH reader,
// anything else through Assimp. The format is recognised by content first (GLB and native magic,
// BVH's HIERARCHY, file_signature.hpp), then by extension; empty
// files and files of another kind (a PNG named .fbx) are refused naming what they are. And one
// entry point for the two formats it writes.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>

#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

enum class ModelFormat { Gltf, Native, Bvh, Assimp };

struct ModelFileOptions {
  ImportOptions import;
  std::optional<double> ticks_per_second;  // Assimp formats: override (T2)
  bool load_skeletal_data = true;          // Assimp formats: false loads every mesh static
};

ModelFormat detect_model_format(std::span<const std::byte> bytes, std::string_view extension) noexcept;

// Throws ImportError (the code of whichever reader refused the file; the message names it), and
// std::invalid_argument for options out of range before reading (G22: check_import_options, and
// a ticks_per_second that is not positive and finite).
Model load_model_file(const std::filesystem::path& path, const ModelFileOptions& options = {});
Model load_model_bytes(std::span<const std::byte> bytes, std::string_view extension, const ModelFileOptions& options = {},
                       const std::filesystem::path* base_dir = nullptr);

// Writes glTF for a path ending in .glb or .gltf (write_gltf), marrow's native format for any
// other (write_native_file): what `marrow convert` writes. Throws what those writers throw.
void write_model_file(const Model& model, const std::filesystem::path& path);

}  // namespace marrow
