// EXT_meshopt_compression through Debian's libmeshoptimizer. Its decoders are written for
// untrusted input (they never read or write outside the spans they are given); what they assert
// on (strides, index sizes, counts) was refused by the JSON reader, and is checked again here.
#include "gltf_meshopt.hpp"

#include <meshoptimizer.h>

#include <string>
#include <vector>

#include "accessor_layout.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::gltf {

namespace {

const char* mode_name(MeshoptMode mode) {
  switch (mode) {
    case MeshoptMode::Attributes: return "ATTRIBUTES";
    case MeshoptMode::Triangles: return "TRIANGLES";
    case MeshoptMode::Indices: return "INDICES";
  }
  return "?";
}

[[noreturn]] void fail(ImportErrorCode code, const std::string& message) { throw ImportError(code, message); }

bool parameters_valid(const MeshoptCompression& m) {
  const std::uint32_t s = m.byte_stride;
  switch (m.mode) {
    case MeshoptMode::Attributes:
      if (s == 0 || s > 256 || s % 4 != 0) return false;
      break;
    case MeshoptMode::Triangles:
      if ((s != 2 && s != 4) || m.count % 3 != 0 || m.filter != MeshoptFilter::None) return false;
      break;
    case MeshoptMode::Indices:
      if ((s != 2 && s != 4) || m.filter != MeshoptFilter::None) return false;
      break;
  }
  if (m.filter == MeshoptFilter::Octahedral && s != 4 && s != 8) return false;
  if (m.filter == MeshoptFilter::Quaternion && s != 8) return false;
  return true;
}

}  // namespace

void decode_meshopt_views(GltfAsset& asset, ImportBudget& budget) {
  Document& doc = asset.document;
  for (std::size_t v = 0; v < doc.buffer_views.size(); ++v) {
    if (!doc.buffer_views[v].meshopt) continue;
    const MeshoptCompression m = *doc.buffer_views[v].meshopt;
    const std::string where = "bufferView " + std::to_string(v) + ": EXT_meshopt_compression " + mode_name(m.mode);
    if (!parameters_valid(m) || m.count > budget.limits().max_accessor_elements) {
      fail(ImportErrorCode::InvalidDocument, where + ": byteStride " + std::to_string(m.byte_stride) + " and count " +
                                                 std::to_string(m.count) + " are not a valid combination");
    }
    const std::uint64_t size = m.count * m.byte_stride;
    if (size != doc.buffer_views[v].byte_length) {
      fail(ImportErrorCode::InvalidDocument, where + ": decodes to " + std::to_string(size) +
                                                 " bytes, the bufferView's byteLength is " +
                                                 std::to_string(doc.buffer_views[v].byte_length));
    }
    if (m.buffer >= asset.buffers.size()) {
      fail(ImportErrorCode::IndexOutOfRange, where + ": buffer " + std::to_string(m.buffer) + " is not loaded");
    }
    const std::span<const std::byte> source = asset.buffer(m.buffer);
    if (!detail::range_fits(m.byte_offset, m.byte_length, source.size())) {
      fail(ImportErrorCode::AccessorOutOfBounds, where + ": byteOffset " + std::to_string(m.byte_offset) +
                                                     " + byteLength " + std::to_string(m.byte_length) +
                                                     " exceeds buffer " + std::to_string(m.buffer) + " (" +
                                                     std::to_string(source.size()) + " bytes)");
    }
    budget.charge(size, where);
    std::vector<std::byte> decoded(static_cast<std::size_t>(size));
    if (m.count > 0) {
      const auto* in = reinterpret_cast<const unsigned char*>(source.data() + m.byte_offset);
      const auto in_size = static_cast<std::size_t>(m.byte_length);
      const auto count = static_cast<std::size_t>(m.count);
      int status = 0;
      switch (m.mode) {
        case MeshoptMode::Attributes:
          status = meshopt_decodeVertexBuffer(decoded.data(), count, m.byte_stride, in, in_size);
          break;
        case MeshoptMode::Triangles:
          status = meshopt_decodeIndexBuffer(decoded.data(), count, m.byte_stride, in, in_size);
          break;
        case MeshoptMode::Indices:
          status = meshopt_decodeIndexSequence(decoded.data(), count, m.byte_stride, in, in_size);
          break;
      }
      if (status != 0) {
        fail(ImportErrorCode::InvalidCompression, where + ": the " + std::to_string(m.byte_length) +
                                                      "-byte stream does not decode to " + std::to_string(m.count) +
                                                      " elements of " + std::to_string(m.byte_stride) +
                                                      " bytes (meshoptimizer error " + std::to_string(status) + ")");
      }
      switch (m.filter) {
        case MeshoptFilter::None: break;
        case MeshoptFilter::Octahedral: meshopt_decodeFilterOct(decoded.data(), count, m.byte_stride); break;
        case MeshoptFilter::Quaternion: meshopt_decodeFilterQuat(decoded.data(), count, m.byte_stride); break;
        case MeshoptFilter::Exponential: meshopt_decodeFilterExp(decoded.data(), count, m.byte_stride); break;
      }
    }
    // The view now reads the decoded bytes from a buffer of their own.
    doc.buffers.push_back(Buffer{"", size, "EXT_meshopt_compression bufferView " + std::to_string(v), false});
    asset.buffers.push_back(std::move(decoded));
    BufferView& view = doc.buffer_views[v];
    view.buffer = static_cast<std::uint32_t>(doc.buffers.size() - 1);
    view.byte_offset = 0;
    view.meshopt.reset();
  }
}

}  // namespace marrow::gltf
