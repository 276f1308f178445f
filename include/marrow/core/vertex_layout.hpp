#pragma once
// Where each attribute sits inside one interleaved vertex. Formats are fixed per attribute
// (below); only offsets and the stride vary, so every layout with a normal or tangent slot is
// handled by the same code (morphing, skinning, flat normals) whatever its stride. The skin
// attributes hold as many groups of four influences as the layout says (S1).
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
  Joints0,    // uint16 x4 per influence set (JOINTS_0, JOINTS_1, ... back to back), palette indices
  Weights0,   // float x4 per influence set (WEIGHTS_0, WEIGHTS_1, ...)
};

inline constexpr std::size_t kVertexAttributeCount = 8;

// Influences per vertex a layout may hold (64 sets of four): far past any authored rig, small
// enough that a vertex's skin bytes (6 per influence) can never overflow a stride.
inline constexpr std::uint32_t kMaxInfluences = 256;

// Size in bytes of one attribute's fixed format (one set of four for Joints0 and Weights0).
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
  // Skin influences per vertex, 1..kMaxInfluences (S1). Joints0 and Weights0 hold
  // influence_sets() groups of four; the first `influences` (joint, weight) pairs are skinned,
  // the slots after them (up to the end of the last group) are not read and are written as zero.
  std::uint32_t influences = 4;

  std::uint32_t influence_sets() const noexcept { return (influences + 3) / 4; }
  // Bytes of attribute a: attribute_size(a), times influence_sets() for Joints0 and Weights0.
  std::uint32_t size(VertexAttribute a) const noexcept {
    const bool skin = a == VertexAttribute::Joints0 || a == VertexAttribute::Weights0;
    return attribute_size(a) * (skin ? influence_sets() : 1u);
  }

  bool has(VertexAttribute a) const noexcept { return offsets[static_cast<std::size_t>(a)] >= 0; }
  std::uint32_t offset(VertexAttribute a) const noexcept {
    return static_cast<std::uint32_t>(offsets[static_cast<std::size_t>(a)]);
  }
  void set(VertexAttribute a, std::int32_t offset) noexcept { offsets[static_cast<std::size_t>(a)] = offset; }

  // Packs the given attributes in the given order, each 4-byte aligned, then adds `padding`
  // bytes (so odd strides can be exercised); the skin attributes sized for `influences`.
  static VertexLayout interleaved(std::initializer_list<VertexAttribute> attributes, std::uint32_t padding = 0,
                                  std::uint32_t influences = 4);

  // Empty when the layout is usable, else a sentence naming the attribute, offset and stride:
  // a position is required, every attribute must lie inside the stride, offsets 4-byte aligned,
  // influences within 1..kMaxInfluences.
  std::string problem() const;

  bool operator==(const VertexLayout&) const = default;
};

}  // namespace marrow
