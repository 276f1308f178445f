#include "marrow/core/vertex_layout.hpp"

namespace marrow {

const char* attribute_name(VertexAttribute a) noexcept {
  switch (a) {
    case VertexAttribute::Position: return "position";
    case VertexAttribute::Normal: return "normal";
    case VertexAttribute::Tangent: return "tangent";
    case VertexAttribute::TexCoord0: return "texcoord0";
    case VertexAttribute::TexCoord1: return "texcoord1";
    case VertexAttribute::Color0: return "color0";
    case VertexAttribute::Joints0: return "joints0";
    case VertexAttribute::Weights0: return "weights0";
  }
  return "unknown";
}

VertexLayout VertexLayout::interleaved(std::initializer_list<VertexAttribute> attributes, std::uint32_t padding,
                                       std::uint32_t influences) {
  VertexLayout layout;
  layout.influences = influences;
  std::uint32_t at = 0;
  for (VertexAttribute a : attributes) {
    layout.set(a, static_cast<std::int32_t>(at));
    at += layout.size(a);
  }
  layout.stride = at + padding;
  return layout;
}

std::string VertexLayout::problem() const {
  if (stride == 0) return "vertex layout: stride is 0";
  if (!has(VertexAttribute::Position)) return "vertex layout: no position attribute";
  if (influences < 1 || influences > kMaxInfluences) {
    return "vertex layout: influences " + std::to_string(influences) + " is outside 1.." + std::to_string(kMaxInfluences);
  }
  for (std::size_t i = 0; i < kVertexAttributeCount; ++i) {
    const auto a = static_cast<VertexAttribute>(i);
    if (offsets[i] < -1) {
      return std::string("vertex layout: ") + attribute_name(a) + " offset " + std::to_string(offsets[i]) +
             " is negative";
    }
    if (!has(a)) continue;
    const std::uint64_t end = static_cast<std::uint64_t>(offsets[i]) + size(a);
    if (end > stride) {
      return std::string("vertex layout: ") + attribute_name(a) + " at offset " + std::to_string(offsets[i]) +
             " (" + std::to_string(size(a)) + " bytes) exceeds stride " + std::to_string(stride);
    }
    if (offsets[i] % 4 != 0) {
      return std::string("vertex layout: ") + attribute_name(a) + " offset " + std::to_string(offsets[i]) +
             " is not 4-byte aligned";
    }
  }
  return {};
}

}  // namespace marrow
