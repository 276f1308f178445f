// The GLB 2 container (header, JSON chunk, optional BIN chunk). Every length is checked against
// the bytes that are really there before a view is taken.
#include "marrow/io/gltf/detail/glb.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "marrow/core/import_error.hpp"

namespace marrow::gltf {
namespace {

constexpr std::uint32_t kMagic = 0x46546C67;      // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kBinChunk = 0x004E4942;   // "BIN\0"
constexpr std::size_t kHeaderBytes = 12;
constexpr std::size_t kChunkHeaderBytes = 8;

// GLB integers are little-endian; memcpy because the file gives no alignment guarantee.
std::uint32_t read_u32(std::span<const std::byte> bytes, std::size_t offset) {
  std::uint8_t b[4];
  std::memcpy(b, bytes.data() + offset, 4);
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}

void append_u32(std::vector<std::byte>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xffu));
}

std::string hex32(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "%08X", v);
  return text;
}

[[noreturn]] void fail(const std::string& message) { throw ImportError(ImportErrorCode::InvalidContainer, message); }

}  // namespace

bool is_glb(std::span<const std::byte> bytes) noexcept { return bytes.size() >= 4 && read_u32(bytes, 0) == kMagic; }

GlbChunks parse_glb(std::span<const std::byte> bytes) {
  if (bytes.size() < kHeaderBytes) {
    fail("GLB: " + std::to_string(bytes.size()) + " bytes, shorter than the 12-byte header");
  }
  if (read_u32(bytes, 0) != kMagic) fail("GLB: the file does not start with the magic 'glTF'");
  const std::uint32_t version = read_u32(bytes, 4);
  if (version != 2) fail("GLB: container version " + std::to_string(version) + ", expected 2");
  const std::uint32_t length = read_u32(bytes, 8);
  // Trailing bytes after the declared length are ignored (some tools pad files); a declared
  // length beyond the data is a truncated file.
  if (length > bytes.size()) {
    fail("GLB: header length " + std::to_string(length) + " exceeds the " + std::to_string(bytes.size()) +
         " bytes of data (truncated file?)");
  }
  if (length < kHeaderBytes + kChunkHeaderBytes) {
    fail("GLB: header length " + std::to_string(length) + " leaves no room for the JSON chunk");
  }
  const std::span<const std::byte> file = bytes.first(length);

  GlbChunks chunks;
  std::size_t offset = kHeaderBytes;
  for (std::size_t index = 0; offset < file.size(); ++index) {
    if (file.size() - offset < kChunkHeaderBytes) {
      fail("GLB: chunk " + std::to_string(index) + " header at byte " + std::to_string(offset) + " overruns the " +
           std::to_string(file.size()) + "-byte file");
    }
    const std::uint32_t chunk_length = read_u32(file, offset);
    const std::uint32_t type = read_u32(file, offset + 4);
    const std::size_t data = offset + kChunkHeaderBytes;
    if (chunk_length > file.size() - data) {
      fail("GLB: chunk " + std::to_string(index) + " length " + std::to_string(chunk_length) + " at byte " +
           std::to_string(data) + " overruns the " + std::to_string(file.size()) + "-byte file");
    }
    // The spec pads every chunk to 4 bytes. Some writers leave the JSON chunk unpadded; its bytes
    // are still bounded, so it is accepted. Binary chunks must be padded.
    if (chunk_length % 4 != 0 && type != kJsonChunk) {
      fail("GLB: chunk " + std::to_string(index) + " length " + std::to_string(chunk_length) +
           " is not a multiple of 4");
    }
    const std::span<const std::byte> payload = file.subspan(data, chunk_length);
    if (index == 0) {
      if (type != kJsonChunk) fail("GLB: the first chunk is not JSON (type 0x" + hex32(type) + ")");
      chunks.json = std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size());
      // Some writers pad the JSON chunk with zeros instead of spaces; zeros are not JSON.
      while (!chunks.json.empty() && chunks.json.back() == '\0') chunks.json.remove_suffix(1);
    } else if (type == kJsonChunk) {
      fail("GLB: chunk " + std::to_string(index) + " is a second JSON chunk");
    } else if (type == kBinChunk) {
      if (index != 1) fail("GLB: BIN chunk at position " + std::to_string(index) + "; it must follow the JSON chunk");
      chunks.bin = payload;
      chunks.has_bin = true;
    }
    // Other chunk types are skipped, as the spec requires.
    offset = data + chunk_length;
  }
  return chunks;
}

std::vector<std::byte> write_glb(std::string_view json, std::span<const std::byte> bin) {
  const std::size_t json_padded = (json.size() + 3) / 4 * 4;
  const std::size_t bin_padded = (bin.size() + 3) / 4 * 4;
  const std::uint64_t total = kHeaderBytes + kChunkHeaderBytes + std::uint64_t(json_padded) +
                              (bin.empty() ? 0 : kChunkHeaderBytes + std::uint64_t(bin_padded));
  if (total > 0xffffffffu) throw std::length_error("write_glb: " + std::to_string(total) + " bytes exceed 4 GiB");

  std::vector<std::byte> out;
  out.reserve(static_cast<std::size_t>(total));
  append_u32(out, kMagic);
  append_u32(out, 2);
  append_u32(out, static_cast<std::uint32_t>(total));
  append_u32(out, static_cast<std::uint32_t>(json_padded));
  append_u32(out, kJsonChunk);
  for (char c : json) out.push_back(static_cast<std::byte>(c));
  out.resize(out.size() + (json_padded - json.size()), std::byte{' '});
  if (!bin.empty()) {
    append_u32(out, static_cast<std::uint32_t>(bin_padded));
    append_u32(out, kBinChunk);
    out.insert(out.end(), bin.begin(), bin.end());
    out.resize(out.size() + (bin_padded - bin.size()), std::byte{0});
  }
  return out;
}

}  // namespace marrow::gltf
