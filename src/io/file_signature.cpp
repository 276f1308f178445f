#include "marrow/io/file_signature.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace marrow {

namespace {

struct Signature {
  std::string_view magic;
  ContainerKind kind;
  std::string_view name;
};

using namespace std::string_view_literals;

// Formats people mistake for models or rename by accident; the magic numbers are the formats' own.
constexpr std::array kSignatures{
    Signature{"glTF"sv, ContainerKind::Glb, "GLB"sv},
    Signature{"MRRW"sv, ContainerKind::Native, "marrow native"sv},
    Signature{"Kaydara FBX Binary"sv, ContainerKind::Model, "binary FBX"sv},
    Signature{"\x89PNG\r\n\x1a\n"sv, ContainerKind::NotAModel, "PNG"sv},
    Signature{"\xff\xd8\xff"sv, ContainerKind::NotAModel, "JPEG"sv},
    Signature{"GIF87a"sv, ContainerKind::NotAModel, "GIF"sv},
    Signature{"GIF89a"sv, ContainerKind::NotAModel, "GIF"sv},
    Signature{"\xabKTX"sv, ContainerKind::NotAModel, "KTX texture"sv},
    Signature{"DDS "sv, ContainerKind::NotAModel, "DDS texture"sv},
    Signature{"RIFF"sv, ContainerKind::NotAModel, "RIFF (WebP, WAV, AVI)"sv},
    Signature{"PK\x03\x04"sv, ContainerKind::NotAModel, "ZIP"sv},
    Signature{"\x1f\x8b"sv, ContainerKind::NotAModel, "gzip"sv},
    Signature{"%PDF-"sv, ContainerKind::NotAModel, "PDF"sv},
    Signature{"\x7f" "ELF"sv, ContainerKind::NotAModel, "ELF executable"sv},
};

bool starts_with(std::span<const std::byte> bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
}

}  // namespace

Container detect_container(std::span<const std::byte> bytes) noexcept {
  if (bytes.empty()) return {ContainerKind::Empty, {}};
  for (const Signature& s : kSignatures) {
    if (starts_with(bytes, s.magic)) return {s.kind, s.name};
  }
  std::size_t i = starts_with(bytes, "\xef\xbb\xbf") ? 3 : 0;  // a UTF-8 byte order mark
  const std::size_t end = std::min<std::size_t>(bytes.size(), 32);
  for (; i < end; ++i) {
    const auto c = static_cast<char>(bytes[i]);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (c == '{') return {ContainerKind::GltfJson, "glTF JSON"};
    if (starts_with(bytes.subspan(i), "HIERARCHY")) return {ContainerKind::Bvh, "BVH"};
    break;
  }
  return {ContainerKind::Unknown, {}};
}

}  // namespace marrow
