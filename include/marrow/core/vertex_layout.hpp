#pragma once
// Where each attribute sits inside one interleaved vertex. Formats are fixed per attribute
// (below); only offsets and the stride vary, so every layout with a normal or tangent slot is
// handled by the same code (morphing, skinning, flat normals) whatever its stride.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace marrow {

enum class VertexAttribute : std::uint8_t {
  Position,   // float x3
  Normal,     // float x3
  Tangent,    // float x4, w = handedness (+1 or -1)
  TexCoord0,  // float x2
  TexCoord1,  // float x2
  Color0,     // float x4
  Joints0,    // uint16 x4, palette indices
  Weights0,   // float x4
};

inline constexpr std::size_t kVertexAttributeCount = 8;

// Size in bytes of one attribute's fixed format.
constexpr std::uint32_t attribute_size(VertexAttribute a) noexcept {
  switch (a) {
    case VertexAttribute::Position:
    case VertexAttribute::Normal: return 12;
    case VertexAttribute::Tangent:
    case VertexAttribute::Color0:
    case VertexAttribute::Weights0: return 16;
    case VertexAttribute::TexCoord0:
    case VertexAttribute::TexCoord1:
    case VertexAttribute::Joints0: return 8;
  }
  return 0;
}

const char* attribute_name(VertexAttribute a) noexcept;

struct VertexLayout {
  std::uint32_t stride = 0;
  std::array<std::int32_t, kVertexAttributeCount> offsets{-1, -1, -1, -1, -1, -1, -1, -1};  // -1 = absent

  bool has(VertexAttribute a) const noexcept { return offsets[static_cast<std::size_t>(a)] >= 0; }
  std::uint32_t offset(VertexAttribute a) const noexcept {
    return static_cast<std::uint32_t>(offsets[static_cast<std::size_t>(a)]);
  }
  void set(VertexAttribute a, std::int32_t offset) noexcept { offsets[static_cast<std::size_t>(a)] = offset; }

  // Packs the given attributes in the given order, each 4-byte aligned, then adds `padding`
  // bytes (so odd strides can be exercised).
  static VertexLayout interleaved(std::initializer_list<VertexAttribute> attributes, std::uint32_t padding = 0);

  // Empty when the layout is usable, else a sentence naming the attribute, offset and stride:
  // a position is required, every attribute must lie inside the stride, offsets 4-byte aligned.
  std::string problem() const;

  bool operator==(const VertexLayout&) const = default;
};

}  // namespace marrow
