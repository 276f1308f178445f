#pragma once
// Private to the glTF importer: EXT_meshopt_compression bufferViews decoded into buffers of
// their own before any accessor is read.
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

// Decodes every bufferView with EXT_meshopt_compression (its parameters were checked by the JSON
// reader) into a new buffer appended to the asset, and points the view at it, so accessors read
// plain bytes. Each decoded size (count * byteStride) is charged to the budget before it is
// allocated. Throws ImportError: InvalidCompression (a stream meshoptimizer refuses),
// AccessorOutOfBounds (compressed bytes beyond the source buffer), LimitExceeded.
void decode_meshopt_views(GltfAsset& asset, ImportBudget& budget);

}  // namespace marrow::gltf
