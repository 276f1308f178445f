#pragma once
// Reading and writing one attribute of one vertex in interleaved bytes (unaligned-safe), and
// strided views of one attribute across all vertices. Formats are those of VertexAttribute.
#include <cstddef>
#include <cstring>
#include <span>

#include "marrow/core/strided_span.hpp"
#include "marrow/core/vertex_layout.hpp"

namespace marrow {

template <class T>
T read_attribute(std::span<const std::byte> bytes, const VertexLayout& layout, std::size_t vertex, VertexAttribute a) {
  T out;
  std::memcpy(&out, bytes.data() + vertex * layout.stride + layout.offset(a), sizeof(T));
  return out;
}

template <class T>
void write_attribute(std::span<std::byte> bytes, const VertexLayout& layout, std::size_t vertex, VertexAttribute a,
                     const T& value) {
  std::memcpy(bytes.data() + vertex * layout.stride + layout.offset(a), &value, sizeof(T));
}

// A view of attribute a across every whole vertex in bytes. The layout must have a.
template <class T>
StridedSpan<const T> attribute_view(std::span<const std::byte> bytes, const VertexLayout& layout, VertexAttribute a) {
  return StridedSpan<const T>(bytes.data() + layout.offset(a), bytes.size() / layout.stride, layout.stride);
}
template <class T>
StridedSpan<T> attribute_view(std::span<std::byte> bytes, const VertexLayout& layout, VertexAttribute a) {
  return StridedSpan<T>(bytes.data() + layout.offset(a), bytes.size() / layout.stride, layout.stride);
}

}  // namespace marrow
