#pragma once
// Resolves the bytes of every buffer of a document: the GLB BIN chunk, base64 data: URIs, and
// relative files next to the .gltf.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf/detail/base64.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

struct BufferSources {
  const std::filesystem::path* base_dir = nullptr;  // folder of the .gltf; nullptr: no files allowed
  std::span<const std::byte> glb_bin;               // the GLB BIN chunk
  bool has_glb_bin = false;
  bool borrow_glb_bin = false;  // leave buffer 0 empty (checked, not copied): see GltfAsset::borrowed_bin
};

// Throws ImportError: InvalidUri (a scheme other than data:, a data: URI that is not base64 or is
// malformed, an absolute path, a path that leaves base_dir, files when base_dir is null), IoError
// (a referenced file that cannot be read), InvalidDocument (a buffer without uri that is not the
// GLB chunk), AccessorOutOfBounds (data shorter than byteLength), LimitExceeded. Relative URIs
// are percent-decoded (a query or fragment is dropped, backslashes count as separators). Each
// result is exactly byteLength bytes; a source more than 3 bytes longer is noted as the
// diagnostic buffer-longer-than-byte-length.
std::vector<std::vector<std::byte>> load_gltf_buffers(const Document& document, const BufferSources& sources,
                                                      const ImportLimits& limits,
                                                      std::vector<Diagnostic>& diagnostics);

// The document and buffers of a .gltf or .glb as the file holds them: the GLB's JSON and BIN
// chunks (filled into sources; base_dir and borrow_glb_bin are the caller's), the JSON parsed,
// every buffer loaded. Nothing compressed is decoded (Draco, meshopt). Throws what parse_glb,
// parse_gltf_json and load_gltf_buffers throw.
GltfAsset read_gltf_asset(std::span<const std::byte> bytes, BufferSources& sources, const ImportLimits& limits,
                          std::vector<Diagnostic>& diagnostics);

}  // namespace marrow::gltf
