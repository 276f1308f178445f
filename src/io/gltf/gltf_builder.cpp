// GltfBuilder: a document with one binary buffer, grown by appending tightly packed data.
#include "marrow/io/gltf/gltf_builder.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "accessor_layout.hpp"
#include "marrow/io/gltf/detail/glb.hpp"
#include "marrow/io/gltf/detail/gltf_buffers.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

namespace marrow::gltf {
namespace {

GltfAsset empty_asset() {
  GltfAsset asset;
  asset.document.asset.version = "2.0";
  asset.document.asset.generator = "marrow";
  asset.document.buffers.push_back(Buffer{});
  asset.buffers.emplace_back();
  return asset;
}

// One accessor's data ready to append: element bytes laid out with glTF's matrix column padding,
// the element count, and min/max per component (raw values, as the spec defines them).
struct Packed {
  std::vector<std::byte> bytes;
  std::uint64_t count = 0;
  std::vector<double> min, max;
};

template <class C>
Packed pack(std::span<const C> values, ComponentType component, AccessorType type, const char* function) {
  const std::uint32_t components = component_count(type);
  if (values.empty() || components == 0 || values.size() % components != 0) {
    throw std::invalid_argument(std::string(function) + ": " + std::to_string(values.size()) +
                                " values are not a positive whole number of " + accessor_type_name(type) + " elements");
  }
  const detail::ElementLayout layout = detail::element_layout(component, type);
  Packed p;
  p.count = values.size() / components;
  p.bytes.assign(static_cast<std::size_t>(p.count) * layout.size, std::byte{0});
  std::size_t v = 0;
  for (std::size_t i = 0; i < p.count; ++i) {
    for (std::uint32_t c = 0; c < layout.columns; ++c) {
      std::byte* column = p.bytes.data() + i * layout.size + std::size_t(c) * layout.column_stride;
      for (std::uint32_t r = 0; r < layout.rows; ++r) {
        std::memcpy(column + std::size_t(r) * sizeof(C), &values[v++], sizeof(C));
      }
    }
  }
  p.min.assign(values.begin(), values.begin() + components);
  p.max = p.min;
  for (std::size_t i = components; i < values.size(); ++i) {
    const std::size_t k = i % components;
    p.min[k] = std::min(p.min[k], static_cast<double>(values[i]));
    p.max[k] = std::max(p.max[k], static_cast<double>(values[i]));
  }
  return p;
}

}  // namespace

GltfBuilder::GltfBuilder() : asset_(empty_asset()) {}

std::uint32_t GltfBuilder::add_buffer_view(std::span<const std::byte> bytes, std::uint32_t byte_stride,
                                           std::uint32_t target) {
  if (bytes.empty()) throw std::invalid_argument("GltfBuilder::add_buffer_view: no bytes (byteLength must be >= 1)");
  std::vector<std::byte>& bin = asset_.buffers[0];
  bin.resize((bin.size() + 3) / 4 * 4, std::byte{0});  // every view starts 4-byte aligned
  BufferView view;
  view.buffer = 0;
  view.byte_offset = bin.size();
  view.byte_length = bytes.size();
  view.byte_stride = byte_stride;
  view.target = target;
  bin.insert(bin.end(), bytes.begin(), bytes.end());
  asset_.document.buffers[0].byte_length = bin.size();
  asset_.document.buffer_views.push_back(view);
  return static_cast<std::uint32_t>(asset_.document.buffer_views.size() - 1);
}

std::uint32_t GltfBuilder::add_accessor(std::span<const std::byte> bytes, ComponentType component, AccessorType type,
                                        std::uint64_t count, bool normalized, std::vector<double> min,
                                        std::vector<double> max) {
  Accessor a;
  a.buffer_view = add_buffer_view(bytes);
  a.component_type = component;
  a.normalized = normalized;
  a.count = count;
  a.type = type;
  a.min = std::move(min);
  a.max = std::move(max);
  asset_.document.accessors.push_back(std::move(a));
  return static_cast<std::uint32_t>(asset_.document.accessors.size() - 1);
}

std::uint32_t GltfBuilder::add_floats(std::span<const float> values, AccessorType type) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    // JSON cannot hold the min/max of such data, and no glTF value may be NaN or infinite.
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument("GltfBuilder::add_floats: value " + std::to_string(i) + " is not finite");
    }
  }
  Packed p = pack(values, ComponentType::Float, type, "GltfBuilder::add_floats");
  return add_accessor(p.bytes, ComponentType::Float, type, p.count, false, std::move(p.min), std::move(p.max));
}

std::uint32_t GltfBuilder::add_uint8(std::span<const std::uint8_t> values, AccessorType type, bool normalized) {
  Packed p = pack(values, ComponentType::UnsignedByte, type, "GltfBuilder::add_uint8");
  return add_accessor(p.bytes, ComponentType::UnsignedByte, type, p.count, normalized, std::move(p.min),
                      std::move(p.max));
}

std::uint32_t GltfBuilder::add_uint16(std::span<const std::uint16_t> values, AccessorType type, bool normalized) {
  Packed p = pack(values, ComponentType::UnsignedShort, type, "GltfBuilder::add_uint16");
  return add_accessor(p.bytes, ComponentType::UnsignedShort, type, p.count, normalized, std::move(p.min),
                      std::move(p.max));
}

std::uint32_t GltfBuilder::add_uint32(std::span<const std::uint32_t> values, AccessorType type) {
  Packed p = pack(values, ComponentType::UnsignedInt, type, "GltfBuilder::add_uint32");
  return add_accessor(p.bytes, ComponentType::UnsignedInt, type, p.count, false, std::move(p.min), std::move(p.max));
}

std::uint32_t GltfBuilder::add_int8(std::span<const std::int8_t> values, AccessorType type, bool normalized) {
  Packed p = pack(values, ComponentType::Byte, type, "GltfBuilder::add_int8");
  return add_accessor(p.bytes, ComponentType::Byte, type, p.count, normalized, std::move(p.min), std::move(p.max));
}

std::uint32_t GltfBuilder::add_int16(std::span<const std::int16_t> values, AccessorType type, bool normalized) {
  Packed p = pack(values, ComponentType::Short, type, "GltfBuilder::add_int16");
  return add_accessor(p.bytes, ComponentType::Short, type, p.count, normalized, std::move(p.min), std::move(p.max));
}

GltfAsset GltfBuilder::finish() {
  GltfAsset out = std::move(asset_);
  if (out.buffers[0].empty()) {
    // No data was added: a buffer of byteLength 0 is not valid glTF, so there is none.
    out.document.buffers.erase(out.document.buffers.begin());
    out.buffers.erase(out.buffers.begin());
  } else {
    out.document.buffers[0].uri.clear();
    out.document.buffers[0].byte_length = out.buffers[0].size();
  }
  asset_ = empty_asset();  // the builder starts over
  return out;
}

std::vector<std::byte> write_glb_asset(const GltfAsset& asset) {
  // Buffer 0 becomes the BIN chunk; any further buffers are embedded as data: URIs.
  Document document = asset.document;
  std::span<const std::byte> bin;
  for (std::size_t i = 0; i < document.buffers.size() && i < asset.buffers.size(); ++i) {
    if (i == 0) {
      document.buffers[0].uri.clear();
      bin = asset.buffer(0);
    } else if (document.buffers[i].meshopt_fallback) {
      document.buffers[i].uri.clear();  // EXT_meshopt_compression: no bytes of its own
    } else {
      document.buffers[i].uri = "data:application/octet-stream;base64," + encode_base64(asset.buffers[i]);
    }
  }
  return write_glb(serialize_gltf_json(document), bin);
}

std::string write_gltf_embedded(const GltfAsset& asset) {
  Document document = asset.document;
  for (std::size_t i = 0; i < document.buffers.size() && i < asset.buffers.size(); ++i) {
    if (document.buffers[i].meshopt_fallback) continue;  // EXT_meshopt_compression: no bytes of its own
    document.buffers[i].uri = "data:application/octet-stream;base64," + encode_base64(asset.buffer(i));
  }
  return serialize_gltf_json(document);
}

}  // namespace marrow::gltf
