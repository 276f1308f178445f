// Accessor data -> floats or unsigned integers. The Document may have been built or edited in
// code, so nothing parse_gltf_json checked is trusted: every index, enum value, offset, stride and
// count is checked again here against the bytes that are really loaded, before reading.
#include "marrow/io/gltf/detail/accessor_reader.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>

#include "accessor_layout.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::gltf {
namespace {

// glTF data is little-endian and is copied as it is.
static_assert(std::endian::native == std::endian::little, "marrow reads glTF buffers on little-endian hosts only");

[[noreturn]] void fail(ImportErrorCode code, const std::string& message) { throw ImportError(code, message); }

std::string num(std::uint64_t v) { return std::to_string(v); }

// memcpy: offsets in files that break the alignment rule are still read correctly.
template <class C>
C load(const std::byte* p) noexcept {
  C v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Calls f with a value of the C++ type of a component type.
template <class F>
void with_component(ComponentType t, F&& f) {
  switch (t) {
    case ComponentType::Byte: f(std::int8_t{}); return;
    case ComponentType::UnsignedByte: f(std::uint8_t{}); return;
    case ComponentType::Short: f(std::int16_t{}); return;
    case ComponentType::UnsignedShort: f(std::uint16_t{}); return;
    case ComponentType::UnsignedInt: f(std::uint32_t{}); return;
    case ComponentType::Float: f(float{}); return;
  }
}

// The bytes of a bufferView inside its loaded buffer.
std::span<const std::byte> view_bytes(const GltfAsset& asset, std::uint32_t view_index, const std::string& what) {
  const Document& d = asset.document;
  if (view_index >= d.buffer_views.size()) {
    fail(ImportErrorCode::IndexOutOfRange,
         what + ": bufferView " + num(view_index) + " of " + num(d.buffer_views.size()) + " bufferViews");
  }
  const BufferView& view = d.buffer_views[view_index];
  const std::string where = "bufferView " + num(view_index);
  const std::size_t loaded = std::min(d.buffers.size(), asset.buffers.size());
  if (view.buffer >= loaded) {
    fail(ImportErrorCode::IndexOutOfRange,
         where + ": buffer " + num(view.buffer) + " of " + num(loaded) + " loaded buffers");
  }
  const std::span<const std::byte> bytes = asset.buffer(view.buffer);
  if (!detail::range_fits(view.byte_offset, view.byte_length, bytes.size())) {
    fail(ImportErrorCode::AccessorOutOfBounds, where + ": byteOffset " + num(view.byte_offset) + " + byteLength " +
                                                   num(view.byte_length) + " exceeds buffer " + num(view.buffer) +
                                                   " (" + num(bytes.size()) + " bytes)");
  }
  return bytes.subspan(static_cast<std::size_t>(view.byte_offset), static_cast<std::size_t>(view.byte_length));
}

// count elements of a layout, stride bytes apart from offset in a bufferView, checked to fit.
const std::byte* elements_start(const GltfAsset& asset, std::uint32_t view_index, std::uint64_t offset,
                                std::uint64_t count, std::uint64_t stride, std::uint64_t element_size,
                                const std::string& what) {
  const std::span<const std::byte> bytes = view_bytes(asset, view_index, what);
  if (!detail::elements_fit(offset, count, stride, element_size, bytes.size())) {
    fail(ImportErrorCode::AccessorOutOfBounds,
         detail::elements_overrun_message(what, offset, count, stride, view_index, bytes.size()));
  }
  return count == 0 ? nullptr : bytes.data() + offset;
}

// Decodes count elements (each column by column, padding skipped) into out.
template <class C, class T, class Convert>
void decode(const std::byte* base, std::uint64_t stride, std::uint64_t count, const detail::ElementLayout& layout,
            T* out, Convert&& convert) {
  const std::uint64_t components = std::uint64_t(layout.columns) * layout.rows;
  if (layout.columns == 1 || layout.column_stride == layout.rows * sizeof(C)) {
    // No column padding: each element is `components` consecutive values (the common case).
    if (stride == components * sizeof(C)) {
      if constexpr (std::is_same_v<C, T>) {
        std::memcpy(out, base, static_cast<std::size_t>(count * components * sizeof(C)));  // tightly packed, same type
        return;
      }
      for (std::uint64_t i = 0; i < count * components; ++i) out[i] = convert(load<C>(base + i * sizeof(C)));
      return;
    }
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::byte* element = base + i * stride;
      for (std::uint64_t c = 0; c < components; ++c) *out++ = convert(load<C>(element + c * sizeof(C)));
    }
    return;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::byte* element = base + i * stride;
    for (std::uint32_t c = 0; c < layout.columns; ++c) {
      const std::byte* column = element + std::size_t(c) * layout.column_stride;
      for (std::uint32_t r = 0; r < layout.rows; ++r) *out++ = convert(load<C>(column + std::size_t(r) * sizeof(C)));
    }
  }
}

// glTF's normalized-integer decoding; other values convert unchanged.
template <class C>
float to_float(C v, bool normalized) noexcept {
  if constexpr (std::is_same_v<C, float>) {
    return v;
  } else {
    if (!normalized) return static_cast<float>(v);
    if constexpr (std::is_same_v<C, std::int8_t>) return std::max(float(v) / 127.f, -1.f);
    if constexpr (std::is_same_v<C, std::uint8_t>) return float(v) / 255.f;
    if constexpr (std::is_same_v<C, std::int16_t>) return std::max(float(v) / 32767.f, -1.f);
    if constexpr (std::is_same_v<C, std::uint16_t>) return float(v) / 65535.f;
    return static_cast<float>(v);  // UnsignedInt is never normalized (refused earlier)
  }
}

// Entry j of tightly packed sparse indices of an unsigned type.
std::uint64_t sparse_index(const std::byte* indices, std::uint64_t j, ComponentType t) noexcept {
  switch (t) {
    case ComponentType::UnsignedByte: return load<std::uint8_t>(indices + j);
    case ComponentType::UnsignedShort: return load<std::uint16_t>(indices + j * 2);
    default: return load<std::uint32_t>(indices + j * 4);
  }
}

// Reads an accessor with convert(component) -> T for each component.
template <class T, class ConvertFor>
void read_accessor(const GltfAsset& asset, std::uint32_t index, const ImportLimits& limits, std::vector<T>& out,
                   ConvertFor&& convert_for) {
  const Document& d = asset.document;
  if (index >= d.accessors.size()) {
    fail(ImportErrorCode::IndexOutOfRange, "accessor " + num(index) + " of " + num(d.accessors.size()) + " accessors");
  }
  const Accessor& a = d.accessors[index];
  const std::string where = "accessor " + num(index);
  if (!detail::is_component_type(static_cast<std::uint32_t>(a.component_type))) {
    fail(ImportErrorCode::InvalidAccessor, where + ": componentType " +
                                               num(static_cast<std::uint32_t>(a.component_type)) +
                                               " is not a glTF component type");
  }
  const detail::ElementLayout layout = detail::element_layout(a.component_type, a.type);
  if (layout.size == 0) {
    fail(ImportErrorCode::InvalidAccessor,
         where + ": type " + num(static_cast<std::uint32_t>(a.type)) + " is not valid");
  }
  const std::uint32_t components = component_count(a.type);

  const std::byte* base = nullptr;
  std::uint64_t stride = layout.size;
  if (a.buffer_view != kNone) {
    if (a.buffer_view < d.buffer_views.size()) {
      const std::uint32_t view_stride = d.buffer_views[a.buffer_view].byte_stride;
      if (view_stride != 0 && view_stride < layout.size) {
        fail(ImportErrorCode::InvalidAccessor, where + ": bufferView " + num(a.buffer_view) + " byteStride " +
                                                   num(view_stride) + " is smaller than one element (" +
                                                   num(layout.size) + " bytes)");
      }
      if (view_stride != 0) stride = view_stride;
    }
    base = elements_start(asset, a.buffer_view, a.byte_offset, a.count, stride, layout.size, where);
  }

  const SparseAccessor* sparse = a.sparse ? &*a.sparse : nullptr;
  const std::byte* sparse_indices = nullptr;
  const std::byte* sparse_values = nullptr;
  const std::string sparse_where = where + ": sparse";
  if (sparse != nullptr) {
    if (sparse->count > a.count) {
      fail(ImportErrorCode::InvalidAccessor,
           sparse_where + ": count " + num(sparse->count) + " exceeds accessor count " + num(a.count));
    }
    const ComponentType t = sparse->indices_component_type;
    if (t != ComponentType::UnsignedByte && t != ComponentType::UnsignedShort && t != ComponentType::UnsignedInt) {
      fail(ImportErrorCode::InvalidAccessor, sparse_where + ": indices componentType " +
                                                 num(static_cast<std::uint32_t>(t)) +
                                                 " is not an unsigned integer type (5121, 5123, 5125)");
    }
    // Sparse data is tightly packed (the spec forbids byteStride on these bufferViews).
    const std::uint32_t index_size = component_size(t);
    sparse_indices = elements_start(asset, sparse->indices_buffer_view, sparse->indices_byte_offset, sparse->count,
                                    index_size, index_size, sparse_where + ": indices");
    sparse_values = elements_start(asset, sparse->values_buffer_view, sparse->values_byte_offset, sparse->count,
                                   layout.size, layout.size, sparse_where + ": values");
  }

  // Limits before allocating (the layout checks above allocate nothing): the element count, then
  // the bytes of the result.
  if (a.count > limits.max_accessor_elements) {
    fail(ImportErrorCode::LimitExceeded, where + ": count " + num(a.count) + " exceeds limit max_accessor_elements " +
                                             num(limits.max_accessor_elements));
  }
  const std::uint64_t bytes_per_element = std::uint64_t(components) * sizeof(T);
  if (a.count > limits.max_total_bytes / bytes_per_element || a.count > out.max_size() / components) {
    fail(ImportErrorCode::LimitExceeded, where + ": count " + num(a.count) + " * " + num(bytes_per_element) +
                                             " decoded bytes exceeds limit max_total_bytes " +
                                             num(limits.max_total_bytes));
  }

  with_component(a.component_type, [&](auto tag) {
    using C = decltype(tag);
    auto convert = convert_for(tag, a.normalized, where);  // refuses a type the caller cannot take
    const auto n = static_cast<std::size_t>(a.count) * components;
    // Tightly packed and aligned values that convert by a plain cast (the result's own type, or
    // unsigned integers that are not normalized: u16 indices, u8 joints): one converting copy,
    // nothing zero-filled first.
    const bool cast_converts = std::is_same_v<C, T> || (std::is_unsigned_v<C> && !a.normalized);
    if (cast_converts && base != nullptr && stride == components * sizeof(C) &&
        layout.column_stride == layout.rows * sizeof(C) && reinterpret_cast<std::uintptr_t>(base) % alignof(C) == 0) {
      const C* first = reinterpret_cast<const C*>(base);
      out.assign(first, first + n);
      base = nullptr;
    } else {
      out.assign(n, T{});  // no bufferView: zeros
    }
    if (base != nullptr) decode<C>(base, stride, a.count, layout, out.data(), convert);
    if (sparse == nullptr) return;
    std::uint64_t previous = 0;
    for (std::uint64_t j = 0; j < sparse->count; ++j) {
      const std::uint64_t target = sparse_index(sparse_indices, j, sparse->indices_component_type);
      if (target >= a.count) {
        fail(ImportErrorCode::InvalidAccessor,
             sparse_where + ": index " + num(target) + " (entry " + num(j) + ") is not below count " + num(a.count));
      }
      if (j > 0 && target <= previous) {
        fail(ImportErrorCode::InvalidAccessor, sparse_where + ": index " + num(target) + " (entry " + num(j) +
                                                   ") does not increase after " + num(previous));
      }
      previous = target;
      decode<C>(sparse_values + j * layout.size, layout.size, 1, layout, out.data() + target * components, convert);
    }
  });
}

}  // namespace

void read_accessor_floats(const GltfAsset& asset, std::uint32_t accessor, const ImportLimits& limits,
                          std::vector<float>& out) {
  read_accessor(asset, accessor, limits, out, [](auto tag, bool normalized, const std::string& where) {
    using C = decltype(tag);
    if (normalized && (std::is_same_v<C, float> || std::is_same_v<C, std::uint32_t>)) {
      fail(ImportErrorCode::InvalidAccessor, where + ": normalized is not allowed for FLOAT or UNSIGNED_INT");
    }
    return [normalized](C v) { return to_float<C>(v, normalized); };
  });
}

namespace {

// The first element of an accessor whose bytes can be read in place as `type` values: not
// normalized, no sparse data, tightly packed (no byteStride beyond one element), aligned for the
// type, inside its bufferView. nullptr otherwise.
const std::byte* in_place(const GltfAsset& asset, std::uint32_t accessor, ComponentType type, std::uint32_t type_size) {
  const Document& d = asset.document;
  if (accessor >= d.accessors.size()) return nullptr;
  const Accessor& a = d.accessors[accessor];
  if (a.component_type != type || a.normalized || a.sparse || a.buffer_view >= d.buffer_views.size()) return nullptr;
  const detail::ElementLayout layout = detail::element_layout(a.component_type, a.type);
  if (layout.size != component_count(a.type) * type_size) return nullptr;  // padded matrix columns
  const std::uint32_t view_stride = d.buffer_views[a.buffer_view].byte_stride;
  if (view_stride != 0 && view_stride != layout.size) return nullptr;
  const std::byte* base = elements_start(asset, a.buffer_view, a.byte_offset, a.count, layout.size, layout.size,
                                         "accessor " + num(accessor));
  if (base == nullptr || reinterpret_cast<std::uintptr_t>(base) % type_size != 0) return nullptr;
  return base;
}

template <class T>
std::optional<std::span<const T>> values_in_place(const GltfAsset& asset, std::uint32_t accessor, ComponentType type) {
  const std::byte* base = in_place(asset, accessor, type, sizeof(T));
  if (base == nullptr) return std::nullopt;
  const Accessor& a = asset.document.accessors[accessor];
  return std::span<const T>(reinterpret_cast<const T*>(base), static_cast<std::size_t>(a.count) * component_count(a.type));
}

}  // namespace

std::optional<std::span<const float>> accessor_floats_in_place(const GltfAsset& asset, std::uint32_t accessor) {
  return values_in_place<float>(asset, accessor, ComponentType::Float);
}

std::optional<std::span<const std::uint16_t>> accessor_uint16s_in_place(const GltfAsset& asset, std::uint32_t accessor) {
  return values_in_place<std::uint16_t>(asset, accessor, ComponentType::UnsignedShort);
}

std::optional<std::span<const std::uint8_t>> accessor_uint8s_in_place(const GltfAsset& asset, std::uint32_t accessor) {
  return values_in_place<std::uint8_t>(asset, accessor, ComponentType::UnsignedByte);
}

void read_accessor_uints(const GltfAsset& asset, std::uint32_t accessor, const ImportLimits& limits,
                         std::vector<std::uint32_t>& out) {
  read_accessor(asset, accessor, limits, out, [](auto tag, bool normalized, const std::string& where) {
    using C = decltype(tag);
    if (std::is_same_v<C, float>) {
      fail(ImportErrorCode::InvalidAccessor, where + ": FLOAT data where integers are needed");
    }
    if (normalized) fail(ImportErrorCode::InvalidAccessor, where + ": normalized data where integers are needed");
    return [&](C v) -> std::uint32_t {
      if constexpr (std::is_signed_v<C>) {
        if (v < 0) {
          fail(ImportErrorCode::InvalidAccessor,
               where + ": the value " + std::to_string(static_cast<long long>(v)) + " is negative");
        }
      }
      return static_cast<std::uint32_t>(v);
    };
  });
}

namespace {

// The decoded size of an accessor (count * components * 4 bytes), 0 for an index the reader
// will refuse anyway.
std::uint64_t decoded_bytes(const GltfAsset& asset, std::uint32_t accessor) {
  if (accessor >= asset.document.accessors.size()) return 0;
  const Accessor& a = asset.document.accessors[accessor];
  const std::uint64_t per_element = std::uint64_t(component_count(a.type)) * 4;
  return a.count > ~std::uint64_t{0} / std::max<std::uint64_t>(per_element, 1) ? ~std::uint64_t{0} : a.count * per_element;
}

}  // namespace

void read_accessor_floats(const GltfAsset& asset, std::uint32_t accessor, ImportBudget& budget, std::vector<float>& out) {
  budget.charge(decoded_bytes(asset, accessor), "accessor " + std::to_string(accessor));
  read_accessor_floats(asset, accessor, budget.limits(), out);
}

void read_accessor_uints(const GltfAsset& asset, std::uint32_t accessor, ImportBudget& budget,
                         std::vector<std::uint32_t>& out) {
  budget.charge(decoded_bytes(asset, accessor), "accessor " + std::to_string(accessor));
  read_accessor_uints(asset, accessor, budget.limits(), out);
}

}  // namespace marrow::gltf
