#pragma once
// What a file's first bytes say it is, whatever its name: so a PNG renamed .glb is refused as
// "not a glTF file (PNG signature)" instead of failing as broken JSON, and an image, archive or
// executable never reaches Assimp.
#include <cstddef>
#include <span>
#include <string_view>

namespace marrow {

enum class ContainerKind {
  Empty,      // no bytes at all
  Glb,        // "glTF" magic
  GltfJson,   // a JSON object (optional UTF-8 byte order mark and whitespace, then '{')
  Native,     // marrow's "MRRW" magic
  Bvh,        // BVH motion capture: text starting with HIERARCHY (after a byte order mark and whitespace)
  Model,      // another model format that carries a signature (binary FBX)
  NotAModel,  // an image, archive, document or executable (PNG, JPEG, GIF, ZIP, PDF, ...)
  Unknown,    // no signature marrow knows: text formats (Collada, OBJ, ...) and garbage
};

struct Container {
  ContainerKind kind = ContainerKind::Unknown;
  std::string_view name;  // "PNG", "binary FBX", "GLB", "BVH", ...; empty for Unknown and Empty
};

// Looks at the first bytes only (at most 32).
Container detect_container(std::span<const std::byte> bytes) noexcept;

}  // namespace marrow
