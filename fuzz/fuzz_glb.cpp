// The GLB container and buffer resolution, then every accessor read: refusals are ImportError.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/io/gltf/detail/glb.hpp"
#include "marrow/io/gltf/detail/gltf_buffers.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const marrow::ImportLimits limits = marrow::fuzz::options().limits;
  std::vector<marrow::Diagnostic> diagnostics;
  try {
    const marrow::gltf::GlbChunks chunks = marrow::gltf::parse_glb(bytes);
    marrow::gltf::GltfAsset asset;
    asset.document = marrow::gltf::parse_gltf_json(chunks.json, limits, diagnostics);
    marrow::gltf::BufferSources sources;
    sources.glb_bin = chunks.bin;
    sources.has_glb_bin = chunks.has_bin;
    asset.buffers = marrow::gltf::load_gltf_buffers(asset.document, sources, limits, diagnostics);
    std::vector<float> floats;
    for (std::uint32_t a = 0; a < asset.document.accessors.size(); ++a) {
      try {
        marrow::gltf::read_accessor_floats(asset, a, limits, floats);
      } catch (const marrow::ImportError&) {
      }
    }
  } catch (const marrow::ImportError&) {
  }
  return 0;
}
