// Writing EXT_meshopt_compression (include/marrow/io/gltf/gltf_meshopt_compress.hpp) through Debian's
// libmeshoptimizer encoders.
#include "marrow/io/gltf/gltf_meshopt_compress.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace marrow::gltf {

namespace {

constexpr std::uint32_t kArrayBuffer = 34962;

void pad4(std::vector<std::byte>& bytes) { bytes.resize((bytes.size() + 3) / 4 * 4, std::byte{0}); }

struct ViewUse {
  std::uint32_t element = 0;  // bytes per element; 0: not seen, kMixed: accessors disagree
  bool indices_only = true;   // every accessor on it is a primitive's indices
  bool triangles_only = true; // ... of TRIANGLES primitives
  bool sparse = false;        // sparse data refers to it
};
constexpr std::uint32_t kMixed = 0xffffffffu;

std::vector<ViewUse> view_uses(const Document& doc) {
  std::vector<ViewUse> uses(doc.buffer_views.size());
  std::vector<char> is_index(doc.accessors.size(), 0), is_triangle_index(doc.accessors.size(), 0);
  for (const Mesh& m : doc.meshes) {
    for (const Primitive& p : m.primitives) {
      if (p.indices == kNone) continue;
      is_index[p.indices] = 1;
      if (p.mode == 4) is_triangle_index[p.indices] = 1;
    }
  }
  for (std::size_t a = 0; a < doc.accessors.size(); ++a) {
    const Accessor& acc = doc.accessors[a];
    if (acc.sparse) {
      uses[acc.sparse->indices_buffer_view].sparse = true;
      uses[acc.sparse->values_buffer_view].sparse = true;
    }
    if (acc.buffer_view == kNone) continue;
    ViewUse& u = uses[acc.buffer_view];
    const std::uint32_t element = component_count(acc.type) * component_size(acc.component_type);
    u.element = u.element == 0 || u.element == element ? element : kMixed;
    u.indices_only = u.indices_only && is_index[a] != 0;
    u.triangles_only = u.triangles_only && is_triangle_index[a] != 0 && acc.count % 3 == 0;
  }
  return uses;
}

std::vector<unsigned int> widen_indices(std::span<const std::byte> bytes, std::uint32_t size) {
  std::vector<unsigned int> out(bytes.size() / size);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (size == 2) {
      std::uint16_t v;
      std::memcpy(&v, bytes.data() + i * 2, 2);
      out[i] = v;
    } else {
      std::memcpy(&out[i], bytes.data() + i * 4, 4);
    }
  }
  return out;
}

}  // namespace

GltfAsset compress_meshopt(const GltfAsset& asset) {
  const Document& doc = asset.document;
  if (doc.buffers.size() > 1) throw std::invalid_argument("compress_meshopt: the asset has more than one buffer");
  if (doc.buffers.empty()) return asset;
  const std::span<const std::byte> source = asset.buffer(0);
  const std::vector<ViewUse> uses = view_uses(doc);

  GltfAsset out;
  out.document = doc;
  std::vector<std::byte> bin;
  std::uint64_t fallback_size = 0;
  const auto fallback = static_cast<std::uint32_t>(doc.buffers.size());
  bool any = false;
  for (std::size_t v = 0; v < doc.buffer_views.size(); ++v) {
    BufferView& view = out.document.buffer_views[v];
    const ViewUse& use = uses[v];
    const std::span<const std::byte> bytes = source.subspan(static_cast<std::size_t>(view.byte_offset),
                                                            static_cast<std::size_t>(view.byte_length));
    const std::uint32_t stride = view.byte_stride != 0 ? view.byte_stride : use.element;
    const bool index_view = use.indices_only && (use.element == 2 || use.element == 4) && view.byte_stride == 0;
    const bool attribute_view = !use.indices_only && stride != 0 && stride != kMixed && stride % 4 == 0 && stride <= 252;
    if (use.element == 0 || use.element == kMixed || use.sparse || (!index_view && !attribute_view) ||
        view.byte_length == 0 || view.byte_length % stride != 0) {
      // Kept as it is, in the new buffer 0.
      pad4(bin);
      view.byte_offset = bin.size();
      bin.insert(bin.end(), bytes.begin(), bytes.end());
      continue;
    }
    MeshoptCompression m;
    m.buffer = 0;
    m.byte_stride = stride;
    m.count = view.byte_length / stride;
    std::vector<unsigned char> encoded;
    const auto count = static_cast<std::size_t>(m.count);
    if (index_view) {
      const std::vector<unsigned int> indices = widen_indices(bytes, stride);
      const std::size_t vertices = indices.empty() ? 0 : *std::max_element(indices.begin(), indices.end()) + 1;
      if (use.triangles_only) {
        m.mode = MeshoptMode::Triangles;
        encoded.resize(meshopt_encodeIndexBufferBound(count, vertices));
        encoded.resize(meshopt_encodeIndexBuffer(encoded.data(), encoded.size(), indices.data(), count));
      } else {
        m.mode = MeshoptMode::Indices;
        encoded.resize(meshopt_encodeIndexSequenceBound(count, vertices));
        encoded.resize(meshopt_encodeIndexSequence(encoded.data(), encoded.size(), indices.data(), count));
      }
    } else {
      m.mode = MeshoptMode::Attributes;
      encoded.resize(meshopt_encodeVertexBufferBound(count, stride));
      encoded.resize(meshopt_encodeVertexBuffer(encoded.data(), encoded.size(), bytes.data(), count, stride));
      if (view.target == kArrayBuffer) view.byte_stride = stride;
    }
    pad4(bin);
    m.byte_offset = bin.size();
    m.byte_length = encoded.size();
    const auto* e = reinterpret_cast<const std::byte*>(encoded.data());
    bin.insert(bin.end(), e, e + encoded.size());
    fallback_size = (fallback_size + 3) / 4 * 4;
    view.buffer = fallback;
    view.byte_offset = fallback_size;
    fallback_size += view.byte_length;
    view.meshopt = m;
    any = true;
  }
  if (!any) return asset;
  pad4(bin);
  out.document.buffers[0].byte_length = bin.size();
  out.document.buffers.push_back(Buffer{"", std::max<std::uint64_t>(fallback_size, 4), "", true});
  out.buffers.push_back(std::move(bin));
  out.buffers.emplace_back();
  for (std::vector<std::string>* list : {&out.document.extensions_used, &out.document.extensions_required}) {
    if (std::find(list->begin(), list->end(), "EXT_meshopt_compression") == list->end()) {
      list->push_back("EXT_meshopt_compression");
    }
  }
  return out;
}

}  // namespace marrow::gltf
