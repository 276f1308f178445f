#pragma once
// Base64 (RFC 4648 standard alphabet) for glTF data: URIs.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace marrow::gltf {

// Strict: only the 64 alphabet characters, then at most two '=' that complete the last
// 4-character group (padding optional), no whitespace. Bits below the last whole byte are
// ignored. Throws ImportError(InvalidUri) naming the first bad character and its position.
// Decodes 32 characters per step with AVX2 (16 with SSSE3) where the processor has it, else
// 4 per step through lookup tables; all three give the same bytes and the same refusals.
std::vector<std::byte> decode_base64(std::string_view text);

std::string encode_base64(std::span<const std::byte> bytes);

namespace detail {
// Which decoder decode_base64 uses on this machine: "avx2", "ssse3" or "table".
const char* base64_decoder_name() noexcept;
// The table decoder alone (tests compare it with the vector ones).
std::vector<std::byte> decode_base64_table(std::string_view text);
}  // namespace detail

}  // namespace marrow::gltf
