#pragma once
// EXT_meshopt_compression for written glTF (`marrow convert --meshopt`): the bulk bufferViews of
// an asset re-encoded with meshoptimizer's lossless codecs (no filters, so the decoded bytes are
// the original ones).
#include "marrow/io/gltf/detail/gltf_document.hpp"

namespace marrow::gltf {

// Buffer 0 of the result holds the views left as they were plus the compressed streams; a new
// fallback buffer (no bytes, EXT_meshopt_compression "fallback") holds the ranges the compressed
// views decode into. Compressed: every view of buffer 0 read by accessors of one element size
// that is a multiple of 4 up to 252 bytes (vertex attributes, inverse bind matrices, animation
// keys: mode ATTRIBUTES; vertex views get that byteStride), and index views (TRIANGLES when
// every accessor on the view is the indices of a TRIANGLES primitive with a multiple of 3,
// else INDICES). The extension is then both used and required. An asset with nothing to
// compress is returned as it was. Throws std::invalid_argument for an asset with more than
// one buffer.
GltfAsset compress_meshopt(const GltfAsset& asset);

}  // namespace marrow::gltf
