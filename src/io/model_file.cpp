#include "marrow/io/model_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/core/shown_number.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"
#include "marrow/io/bvh/bvh_importer.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/file_signature.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/io/native/native_format.hpp"

namespace marrow {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!out.empty() && out[0] == '.') out.erase(0, 1);
  return out;
}

AssimpOptions assimp_options(const ModelFileOptions& options) {
  AssimpOptions out;
  out.import = options.import;
  out.ticks_per_second = options.ticks_per_second;
  out.load_skeletal_data = options.load_skeletal_data;
  return out;
}

}  // namespace

ModelFormat detect_model_format(std::span<const std::byte> bytes, std::string_view extension) noexcept {
  const Container container = detect_container(bytes);
  if (container.kind == ContainerKind::Glb) return ModelFormat::Gltf;
  if (container.kind == ContainerKind::Native) return ModelFormat::Native;
  if (container.kind == ContainerKind::Bvh) return ModelFormat::Bvh;
  const std::string ext = lower(extension);
  if (ext == "bvh") return ModelFormat::Bvh;
  if (ext == "gltf" || ext == "glb") return ModelFormat::Gltf;
  if (ext == "marrow") return ModelFormat::Native;
  // A JSON object without a model extension of its own (scene.json, a file without extension).
  if (container.kind == ContainerKind::GltfJson && (ext.empty() || ext == "json")) return ModelFormat::Gltf;
  return ModelFormat::Assimp;
}

namespace {

// Refuses bytes that are plainly not what the chosen reader reads, naming what they are: an empty
// file, a PNG named .marrow or .fbx. (The glTF importer checks its own input the same way.)
void refuse_foreign_bytes(std::span<const std::byte> head, bool empty, ModelFormat format, std::string_view extension) {
  const Container container = detect_container(head);
  if (empty) throw ImportError(ImportErrorCode::EmptyFile, "empty file");
  if (container.name.empty()) return;
  const std::string signature = " (" + std::string(container.name) + " signature)";
  if (format == ModelFormat::Native && container.kind != ContainerKind::Native) {
    throw ImportError(ImportErrorCode::UnsupportedFormat, "not a marrow native file" + signature);
  }
  if (format == ModelFormat::Bvh && container.kind != ContainerKind::Bvh) {
    throw ImportError(ImportErrorCode::UnsupportedFormat, "not a BVH file" + signature);
  }
  if (format == ModelFormat::Assimp && container.kind == ContainerKind::NotAModel) {
    const std::string ext = lower(extension);
    throw ImportError(ImportErrorCode::UnsupportedFormat, (ext.empty() ? "not a model file" : "not a ." + ext + " file") + signature);
  }
}

// G22, before a byte is read; ticks_per_second whatever the format (an override that is no rate).
void check_options(const ModelFileOptions& options) {
  check_import_options(options.import);
  if (options.ticks_per_second && !(*options.ticks_per_second > 0.0 && std::isfinite(*options.ticks_per_second))) {
    throw std::invalid_argument("ModelFileOptions::ticks_per_second " + shown_number(*options.ticks_per_second) +
                                " is not positive and finite");
  }
}

}  // namespace

Model load_model_bytes(std::span<const std::byte> bytes, std::string_view extension, const ModelFileOptions& options,
                       const std::filesystem::path* base_dir) {
  check_options(options);
  const ModelFormat format = detect_model_format(bytes, extension);
  refuse_foreign_bytes(bytes, bytes.empty(), format, extension);
  switch (format) {
    case ModelFormat::Gltf: return import_gltf(bytes, options.import, base_dir);
    case ModelFormat::Native: return read_native(bytes, options.import);
    case ModelFormat::Bvh: return import_bvh(bytes, options.import);
    case ModelFormat::Assimp: return import_assimp(bytes, extension, assimp_options(options));
  }
  throw ImportError(ImportErrorCode::UnsupportedFormat, "unknown format");
}

Model load_model_file(const std::filesystem::path& path, const ModelFileOptions& options) {
  check_options(options);
  // The first bytes are enough to recognise GLB and native files and the usual impostors.
  const std::vector<std::byte> head = read_file_head(path, 32);
  const ModelFormat format = detect_model_format(head, path.extension().string());
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  // A file that cannot be read is left to the reader, which names the io-error.
  try {
    if (!ec) refuse_foreign_bytes(head, size == 0, format, path.extension().string());
  } catch (const ImportError& e) {
    throw ImportError(e.code(), path.string() + ": " + e.detail());
  }
  // Each path reader names the file in its own refusals (the one place that context is added).
  switch (format) {
    case ModelFormat::Gltf: return import_gltf(path, options.import);
    case ModelFormat::Native: return read_native_file(path, options.import);
    case ModelFormat::Bvh: return import_bvh(path, options.import);
    case ModelFormat::Assimp: return import_assimp(path, assimp_options(options));
  }
  throw ImportError(ImportErrorCode::UnsupportedFormat, path.string() + ": unknown format");
}

void write_model_file(const Model& model, const std::filesystem::path& path) {
  const std::string ext = lower(path.extension().string());
  if (ext == "glb" || ext == "gltf") {
    write_gltf(model, path);
  } else {
    write_native_file(model, path);
  }
}

}  // namespace marrow
