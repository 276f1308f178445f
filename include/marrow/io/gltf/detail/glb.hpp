#pragma once
// The GLB 2 container: a 12-byte header, a JSON chunk, an optional BIN chunk.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace marrow::gltf {

struct GlbChunks {
  std::string_view json;
  std::span<const std::byte> bin;
  bool has_bin = false;
};

// True when bytes start with the GLB magic "glTF".
bool is_glb(std::span<const std::byte> bytes) noexcept;

// Throws ImportError (InvalidContainer) naming the problem: short header, wrong magic, version
// other than 2, declared length beyond the data (bytes after the declared length are ignored),
// chunk lengths that overrun the file or are not multiples of 4 (an unpadded JSON chunk is
// tolerated), a first chunk that is not JSON, a BIN chunk that is not the second chunk. Unknown
// chunk types are skipped; zero bytes padding the JSON chunk are dropped. The views point into
// bytes.
GlbChunks parse_glb(std::span<const std::byte> bytes);

// A GLB with the JSON chunk padded with spaces and the BIN chunk (omitted when empty) with zeros.
std::vector<std::byte> write_glb(std::string_view json, std::span<const std::byte> bin);

}  // namespace marrow::gltf
