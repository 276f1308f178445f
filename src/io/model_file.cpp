#include "marrow/io/model_file.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/io/assimp_importer.hpp"
#include "marrow/io/glb.hpp"
#include "marrow/io/gltf_importer.hpp"
#include "marrow/io/gltf_writer.hpp"
#include "marrow/io/native_format.hpp"

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
  if (gltf::is_glb(bytes)) return ModelFormat::Gltf;
  if (is_native(bytes)) return ModelFormat::Native;
  const std::string ext = lower(extension);
  if (ext == "gltf" || ext == "glb") return ModelFormat::Gltf;
  if (ext == "marrow") return ModelFormat::Native;
  return ModelFormat::Assimp;
}

Model load_model_bytes(std::span<const std::byte> bytes, std::string_view extension, const ModelFileOptions& options,
                       const std::filesystem::path* base_dir) {
  switch (detect_model_format(bytes, extension)) {
    case ModelFormat::Gltf: return import_gltf(bytes, options.import, base_dir);
    case ModelFormat::Native: {
      Model model = read_native(bytes, options.import.limits);
      return model;
    }
    case ModelFormat::Assimp: return import_assimp(bytes, extension, assimp_options(options));
  }
  throw ImportError(ImportErrorCode::UnsupportedFormat, "unknown format");
}

Model load_model_file(const std::filesystem::path& path, const ModelFileOptions& options) {
  // The first bytes are enough to recognise GLB and native files.
  std::vector<std::byte> head(16);
  {
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
    head.resize(in ? head.size() : static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  }
  const ModelFormat format = detect_model_format(head, path.extension().string());
  try {
    switch (format) {
      case ModelFormat::Gltf: return import_gltf(path, options.import);
      case ModelFormat::Native: return read_native_file(path, options.import.limits);
      case ModelFormat::Assimp: return import_assimp(path, assimp_options(options));
    }
  } catch (const ImportError& e) {
    // Name the file once, whichever reader refused it.
    if (e.detail().find(path.filename().string()) != std::string::npos) throw;
    throw ImportError(e.code(), path.string() + ": " + e.detail());
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
