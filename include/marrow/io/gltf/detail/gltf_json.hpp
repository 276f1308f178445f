#pragma once
// glTF JSON <-> Document. Parsing validates every property's type and range and every index
// against the array it names, so a Document that comes out can be indexed without checks.
#include <string>
#include <string_view>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

// Throws ImportError: InvalidJson (not JSON, or nested deeper than limits.max_json_depth),
// InvalidDocument (missing required property, wrong type, value out of its allowed range, asset
// version not 2.x), VersionMismatch (asset.minVersion above 2.0), IndexOutOfRange (naming the
// object, e.g. "node 4: mesh 9 of 3 meshes"), AccessorOutOfBounds (a bufferView beyond its
// buffer's byteLength, an accessor beyond its bufferView), InvalidAccessor (bad componentType or
// type, normalized FLOAT/UNSIGNED_INT, byteStride outside 4..252 or not a multiple of 4 or
// smaller than an element, sparse layout), UnsupportedExtension (naming it), LimitExceeded.
// Unknown properties are ignored and a leading UTF-8 byte order mark is skipped. Tolerated
// irregularities are added to diagnostics: node-matrix-and-trs (the matrix is used),
// accessor-unaligned (read with memcpy), byte-stride-on-non-vertex-data (the stride is honoured),
// accessor-min-max-ignored, buffer-view-target-unknown, material-alpha-mode-unknown,
// mesh-target-names-ignored.
Document parse_gltf_json(std::string_view json, const ImportLimits& limits, std::vector<Diagnostic>& diagnostics);

// The extensions marrow accepts in extensionsRequired (geometry it can read, or material and
// texture data it does not need to animate).
bool is_supported_required_extension(std::string_view name) noexcept;

// Compact JSON for a document; parse_gltf_json(serialize_gltf_json(d)) gives d back.
std::string serialize_gltf_json(const Document& document);

}  // namespace marrow::gltf
