#pragma once
// Compressed variants of glTF fixtures, made with the encoders of Debian's libdraco and
// libmeshoptimizer (the reader under test only decodes): the compression tests, the malformed
// corpus and the fuzz seeds use them.
#include <cstdint>
#include <string>
#include <vector>

#include "marrow/io/gltf/detail/gltf_document.hpp"

namespace marrow::test {

// The primitive's indices and its POSITION, NORMAL, JOINTS_0 and WEIGHTS_0 (those it has) as a
// KHR_draco_mesh_compression stream appended to buffer 0; those accessors lose their
// bufferViews (so only a decoder can give them data) and the extension becomes required.
// Draco ids: the attributes in that order, from 0. `edgebreaker` picks Draco's mesh coder
// (which reorders points) over its sequential one. No quantization: values decode exactly.
gltf::GltfAsset draco_asset(const gltf::GltfAsset& plain, std::uint32_t mesh = 0, std::uint32_t primitive = 0,
                            bool edgebreaker = true);

// Valid inputs of the `draco` or `meshopt` fuzz target (fuzz/compressed_input.hpp): real streams
// of small grids, with the header bytes that describe them. Empty for another target name.
std::vector<std::vector<std::byte>> compressed_fuzz_seeds(const std::string& target);

}  // namespace marrow::test
