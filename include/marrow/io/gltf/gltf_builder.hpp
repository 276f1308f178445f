#pragma once
// Builds a GltfAsset in code with a single binary buffer: append data, get accessors. Used by the
// writer (Model -> glTF) and by tests and fixtures, which can then edit the Document freely
// (including breaking it on purpose) before serialising.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "marrow/io/gltf/detail/gltf_document.hpp"

namespace marrow::gltf {

class GltfBuilder {
 public:
  GltfBuilder();

  Document& document() noexcept { return asset_.document; }
  std::vector<std::byte>& bin() noexcept { return asset_.buffers[0]; }

  // Appends the bytes as one bufferView (4-byte aligned) and returns its index. Throws
  // std::invalid_argument for no bytes (a bufferView has at least one).
  std::uint32_t add_buffer_view(std::span<const std::byte> bytes, std::uint32_t byte_stride = 0,
                                std::uint32_t target = 0);

  // Tightly packed accessors over a new bufferView; min/max are filled for every accessor
  // (required for POSITION, and harmless elsewhere). Matrix columns of 1- and 2-byte components
  // get glTF's 4-byte column padding. Throws std::invalid_argument when the values are empty or
  // not a whole number of elements, or (add_floats) not all finite.
  std::uint32_t add_floats(std::span<const float> values, AccessorType type);
  std::uint32_t add_uint8(std::span<const std::uint8_t> values, AccessorType type, bool normalized = false);
  std::uint32_t add_uint16(std::span<const std::uint16_t> values, AccessorType type, bool normalized = false);
  std::uint32_t add_uint32(std::span<const std::uint32_t> values, AccessorType type);
  std::uint32_t add_int8(std::span<const std::int8_t> values, AccessorType type, bool normalized = false);
  std::uint32_t add_int16(std::span<const std::int16_t> values, AccessorType type, bool normalized = false);

  // The finished asset: buffer 0 gets its byteLength (and no uri); without any data there is no
  // buffer at all (a buffer of 0 bytes is not valid glTF). The builder then starts over.
  GltfAsset finish();

 private:
  std::uint32_t add_accessor(std::span<const std::byte> bytes, ComponentType component, AccessorType type,
                             std::uint64_t count, bool normalized, std::vector<double> min, std::vector<double> max);
  GltfAsset asset_;
};

// A .glb of the asset (buffer 0 as the BIN chunk, without uri; any further buffer as a data:
// URI), or a .gltf with every buffer as a base64 data: URI. The document is written as it is,
// even when edited into an invalid one (tests do that on purpose).
std::vector<std::byte> write_glb_asset(const GltfAsset& asset);
std::string write_gltf_embedded(const GltfAsset& asset);

}  // namespace marrow::gltf
