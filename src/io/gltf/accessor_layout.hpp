#pragma once
// Byte layout of one accessor element, shared by the JSON validator, the accessor reader and the
// builder. glTF pads matrix columns to 4 bytes: mat2 of 1-byte components, mat3 of 1- or 2-byte
// components; every other element is its components packed.
#include <cstdint>
#include <string>

#include "marrow/io/gltf/detail/gltf_document.hpp"

namespace marrow::gltf::detail {

struct ElementLayout {
  std::uint32_t component_size = 0;  // 0: the component type or type is not a glTF value
  std::uint32_t columns = 1;         // 1 for scalars and vectors
  std::uint32_t rows = 1;            // components per column
  std::uint32_t column_stride = 0;   // bytes from one column to the next (padded)
  std::uint32_t size = 0;            // bytes of one element, padding included
};

inline ElementLayout element_layout(ComponentType component, AccessorType type) noexcept {
  ElementLayout l;
  l.component_size = component_size(component);
  const std::uint32_t count = component_count(type);
  if (l.component_size == 0 || count == 0) return ElementLayout{};
  switch (type) {
    case AccessorType::Mat2:
      l.columns = 2;
      l.rows = 2;
      break;
    case AccessorType::Mat3:
      l.columns = 3;
      l.rows = 3;
      break;
    case AccessorType::Mat4:
      l.columns = 4;
      l.rows = 4;
      break;
    default:
      l.columns = 1;
      l.rows = count;
      break;
  }
  const std::uint32_t column_bytes = l.rows * l.component_size;
  l.column_stride = l.columns == 1 ? column_bytes : (column_bytes + 3u) / 4u * 4u;
  l.size = l.column_stride * l.columns;
  return l;
}

// True when a component type value is one of glTF's six.
inline bool is_component_type(std::uint32_t value) noexcept {
  return value == 5120 || value == 5121 || value == 5122 || value == 5123 || value == 5125 || value == 5126;
}

// offset + length <= size without overflow.
inline bool range_fits(std::uint64_t offset, std::uint64_t length, std::uint64_t size) noexcept {
  return offset <= size && length <= size - offset;
}

// offset + (count - 1) * stride + element_size <= length without overflow: count elements, stride
// bytes apart, fit in length bytes. No elements always fit (nothing is read).
inline bool elements_fit(std::uint64_t offset, std::uint64_t count, std::uint64_t stride, std::uint64_t element_size,
                         std::uint64_t length) noexcept {
  if (count == 0) return true;
  if (!range_fits(offset, element_size, length)) return false;
  const std::uint64_t room = length - offset - element_size;
  return stride == 0 || count - 1 <= room / stride;
}

// The message for elements that overrun their bufferView, the same from the validator and reader:
// "accessor 12: byteOffset 4096 + count 300 * stride 12 exceeds bufferView 3 (2048 bytes)".
inline std::string elements_overrun_message(const std::string& what, std::uint64_t offset, std::uint64_t count,
                                            std::uint64_t stride, std::uint32_t view, std::uint64_t view_length) {
  return what + ": byteOffset " + std::to_string(offset) + " + count " + std::to_string(count) + " * stride " +
         std::to_string(stride) + " exceeds bufferView " + std::to_string(view) + " (" + std::to_string(view_length) +
         " bytes)";
}

}  // namespace marrow::gltf::detail
