#pragma once
// Reads accessor data, checking every offset, stride and count against the bufferView and
// buffer first. Handles every component type, normalized integers (glTF's decoding rules:
// max(c / 127, -1), c / 255, max(c / 32767, -1), c / 65535), byteStride, matrix column
// padding, accessors without a bufferView (zeros) and sparse substitution.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

// count * component_count(type) floats (matrices column by column without padding). Integer
// components that are not normalized are converted to float unchanged.
// Throws ImportError: AccessorOutOfBounds ("accessor 12: byteOffset 4096 + count 300 * stride 12
// exceeds bufferView 3 (2048 bytes)"), InvalidAccessor (stride smaller than an element, sparse
// index >= count, sparse indices not an unsigned integer type), LimitExceeded.
void read_accessor_floats(const GltfAsset& asset, std::uint32_t accessor, const ImportLimits& limits,
                          std::vector<float>& out);

// The same for integer accessors, values unchanged (indices, joints). Throws InvalidAccessor for
// a float accessor or a normalized one.
void read_accessor_uints(const GltfAsset& asset, std::uint32_t accessor, const ImportLimits& limits,
                         std::vector<std::uint32_t>& out);

// The floats of an accessor read in place, when its bytes already are what read_accessor_floats
// would produce: FLOAT components, tightly packed (no byteStride beyond one element), no sparse
// data, 4-byte aligned in memory, inside its bufferView. Empty otherwise (then read a copy).
// Throws what read_accessor_floats throws for the bounds it checks.
std::optional<std::span<const float>> accessor_floats_in_place(const GltfAsset& asset, std::uint32_t accessor);
// The same for unsigned shorts and bytes that are not normalized (joints as read_accessor_uints
// would give them, before widening).
std::optional<std::span<const std::uint16_t>> accessor_uint16s_in_place(const GltfAsset& asset, std::uint32_t accessor);
std::optional<std::span<const std::uint8_t>> accessor_uint8s_in_place(const GltfAsset& asset, std::uint32_t accessor);

// The same, charging the decoded size to an import's running budget first.
void read_accessor_floats(const GltfAsset& asset, std::uint32_t accessor, ImportBudget& budget, std::vector<float>& out);
void read_accessor_uints(const GltfAsset& asset, std::uint32_t accessor, ImportBudget& budget,
                         std::vector<std::uint32_t>& out);

}  // namespace marrow::gltf
