// The glTF JSON reader (gltf_json_document_reader.hpp): buffers, bufferViews with
// EXT_meshopt_compression, accessors and their sparse parts, each range checked against what holds it.
#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gltf_json_document_reader.hpp"
#include "gltf_json_values.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::gltf {

using namespace json_values;

Buffer DocumentReader::read_buffer(object o, const std::string& where) {
  Buffer b;
  b.uri = optional_string(o, "uri", where);
  b.byte_length = as_uint(required(o, "byteLength", where), What(where, "byteLength"));
  b.name = optional_string(o, "name", where);
  if (const std::optional<object> ext = extension(o, "EXT_meshopt_compression", where)) {
    if (std::optional<element> f = member(*ext, "fallback")) {
      b.meshopt_fallback = as_bool(*f, What(where, "EXT_meshopt_compression: fallback"));
    }
  }
  return b;
}

// EXT_meshopt_compression on a bufferView: every parameter the decoder will be given is checked
// here, so a call into meshoptimizer never meets an argument it asserts on.
MeshoptCompression DocumentReader::read_meshopt(object ext, const BufferView& view, const std::string& where) {
  const std::string what = where + ": EXT_meshopt_compression";
  MeshoptCompression m;
  m.buffer = as_index(required(ext, "buffer", what), What(what, "buffer"), counts_.buffers, "buffers");
  if (std::optional<element> e = member(ext, "byteOffset")) m.byte_offset = as_uint(*e, What(what, "byteOffset"));
  m.byte_length = as_uint(required(ext, "byteLength", what), What(what, "byteLength"));
  m.byte_stride = static_cast<std::uint32_t>(as_uint(required(ext, "byteStride", what), What(what, "byteStride"), 256));
  m.count = as_uint(required(ext, "count", what), What(what, "count"));
  const std::string mode = as_string(required(ext, "mode", what), What(what, "mode"));
  if (mode == "ATTRIBUTES") m.mode = MeshoptMode::Attributes;
  else if (mode == "TRIANGLES") m.mode = MeshoptMode::Triangles;
  else if (mode == "INDICES") m.mode = MeshoptMode::Indices;
  else fail(ImportErrorCode::InvalidDocument, what + ": mode \"" + mode + "\" is not ATTRIBUTES, TRIANGLES or INDICES");
  if (std::optional<element> e = member(ext, "filter")) {
    const std::string filter = as_string(*e, What(what, "filter"));
    if (filter == "NONE") m.filter = MeshoptFilter::None;
    else if (filter == "OCTAHEDRAL") m.filter = MeshoptFilter::Octahedral;
    else if (filter == "QUATERNION") m.filter = MeshoptFilter::Quaternion;
    else if (filter == "EXPONENTIAL") m.filter = MeshoptFilter::Exponential;
    else fail(ImportErrorCode::InvalidDocument, what + ": filter \"" + filter + "\" is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL");
  }
  const std::uint32_t stride = m.byte_stride;
  const auto refuse = [&](const std::string& why) {
    fail(ImportErrorCode::InvalidDocument, what + ": " + mode + " with byteStride " + num(stride) + ": " + why);
  };
  if (m.mode == MeshoptMode::Attributes) {
    if (stride == 0 || stride % 4 != 0) refuse("must be a multiple of 4 in 4..256");
  } else {
    if (stride != 2 && stride != 4) refuse("must be 2 or 4");
    if (m.filter != MeshoptFilter::None) refuse("filters apply to ATTRIBUTES only");
    if (m.mode == MeshoptMode::Triangles && m.count % 3 != 0) refuse("count " + num(m.count) + " is not a multiple of 3");
  }
  if (m.filter == MeshoptFilter::Octahedral && stride != 4 && stride != 8) refuse("OCTAHEDRAL needs 4 or 8");
  if (m.filter == MeshoptFilter::Quaternion && stride != 8) refuse("QUATERNION needs 8");
  if (m.count > limits_.max_accessor_elements) {
    fail(ImportErrorCode::LimitExceeded, what + ": count " + num(m.count) + " exceeds limit max_accessor_elements " +
                                             num(limits_.max_accessor_elements));
  }
  // count <= 2^32 elements of at most 256 bytes: the product cannot overflow.
  if (m.count * stride != view.byte_length) {
    fail(ImportErrorCode::InvalidDocument, what + ": count " + num(m.count) + " * byteStride " + num(stride) + " = " +
                                               num(m.count * stride) + " bytes, the bufferView's byteLength is " +
                                               num(view.byte_length));
  }
  const Buffer& source = doc_.buffers[m.buffer];
  if (!detail::range_fits(m.byte_offset, m.byte_length, source.byte_length)) {
    fail(ImportErrorCode::AccessorOutOfBounds, what + ": byteOffset " + num(m.byte_offset) + " + byteLength " +
                                                   num(m.byte_length) + " exceeds buffer " + num(m.buffer) + " (" +
                                                   num(source.byte_length) + " bytes)");
  }
  if (source.meshopt_fallback) {
    fail(ImportErrorCode::InvalidDocument, what + ": compressed bytes in buffer " + num(m.buffer) + ", a fallback buffer");
  }
  return m;
}

BufferView DocumentReader::read_buffer_view(object o, const std::string& where) {
  BufferView v;
  v.buffer = as_index(required(o, "buffer", where), What(where, "buffer"), counts_.buffers, "buffers");
  if (std::optional<element> e = member(o, "byteOffset")) v.byte_offset = as_uint(*e, What(where, "byteOffset"));
  v.byte_length = as_uint(required(o, "byteLength", where), What(where, "byteLength"));
  if (std::optional<element> e = member(o, "byteStride")) {
    const std::uint64_t stride = as_uint(*e, What(where, "byteStride"));
    if (stride < 4 || stride > 252 || stride % 4 != 0) {
      fail(ImportErrorCode::InvalidAccessor,
           where + ": byteStride " + num(stride) + " is not a multiple of 4 in 4..252");
    }
    v.byte_stride = static_cast<std::uint32_t>(stride);
  }
  if (std::optional<element> e = member(o, "target")) {
    const std::uint64_t target = as_uint(*e, What(where, "target"));
    if (target == 34962 || target == 34963) {
      v.target = static_cast<std::uint32_t>(target);
    } else {
      // Only a hint for GPU upload; an unknown value changes nothing marrow reads.
      add_diagnostic(diagnostics_, DiagnosticCode::BufferViewTargetUnknown,
                     where + ": target " + num(target) + " is not 34962 or 34963; ignored");
    }
  }
  v.name = optional_string(o, "name", where);
  if (const std::optional<object> ext = extension(o, "EXT_meshopt_compression", where)) {
    v.meshopt = read_meshopt(*ext, v, where);
  }
  const Buffer& buffer = doc_.buffers[v.buffer];
  if (!detail::range_fits(v.byte_offset, v.byte_length, buffer.byte_length)) {
    fail(ImportErrorCode::AccessorOutOfBounds, where + ": byteOffset " + num(v.byte_offset) + " + byteLength " +
                                                   num(v.byte_length) + " exceeds buffer " + num(v.buffer) + " (" +
                                                   num(buffer.byte_length) + " bytes)");
  }
  return v;
}

AccessorType DocumentReader::accessor_type_of(element e, const What& what) {
  const std::string s = as_string(e, what);
  for (AccessorType t : {AccessorType::Scalar, AccessorType::Vec2, AccessorType::Vec3, AccessorType::Vec4,
                         AccessorType::Mat2, AccessorType::Mat3, AccessorType::Mat4}) {
    if (s == accessor_type_name(t)) return t;
  }
  fail(ImportErrorCode::InvalidAccessor,
       what + " " + describe(e) + " is not SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
}

void DocumentReader::note_unaligned(const std::string& what, std::uint64_t absolute_offset, std::uint32_t component) {
  if (absolute_offset % component != 0) {
    add_diagnostic(diagnostics_, DiagnosticCode::AccessorUnaligned,
                   what + " starts at byte " + num(absolute_offset) + " of its buffer, not a multiple of the " +
                       num(component) + "-byte component size; read unaligned");
  }
}

Accessor DocumentReader::read_accessor(object o, const std::string& where) {
  Accessor a;
  if (std::optional<element> e = member(o, "bufferView")) {
    a.buffer_view = as_index(*e, What(where, "bufferView"), counts_.buffer_views, "bufferViews");
    if (std::optional<element> off = member(o, "byteOffset")) a.byte_offset = as_uint(*off, What(where, "byteOffset"));
  }
  a.component_type = component_type_of(required(o, "componentType", where), What(where, "componentType"), false);
  if (std::optional<element> e = member(o, "normalized")) a.normalized = as_bool(*e, What(where, "normalized"));
  if (a.normalized && (a.component_type == ComponentType::Float || a.component_type == ComponentType::UnsignedInt)) {
    fail(ImportErrorCode::InvalidAccessor,
         where + ": normalized is not allowed for " + component_type_name(a.component_type) + " components");
  }
  a.count = as_uint(required(o, "count", where), What(where, "count"));
  if (a.count > limits_.max_accessor_elements) {
    fail(ImportErrorCode::LimitExceeded, where + ": count " + num(a.count) + " exceeds limit max_accessor_elements " +
                                             num(limits_.max_accessor_elements));
  }
  a.type = accessor_type_of(required(o, "type", where), What(where, "type"));
  a.name = optional_string(o, "name", where);

  const std::uint32_t components = component_count(a.type);
  std::optional<element> min = member(o, "min");
  std::optional<element> max = member(o, "max");
  if (min) a.min = read_double_list(*min, What(where, "min"));
  if (max) a.max = read_double_list(*max, What(where, "max"));
  if ((min && a.min.size() != components) || (max && a.max.size() != components)) {
    // Bounds are informational to marrow; wrong lengths are dropped rather than trusted.
    add_diagnostic(diagnostics_, DiagnosticCode::AccessorMinMaxIgnored,
                   where + ": min/max do not have " + num(components) + " values for " + accessor_type_name(a.type));
    a.min.clear();
    a.max.clear();
  }

  const detail::ElementLayout layout = detail::element_layout(a.component_type, a.type);
  if (a.buffer_view != kNone) {
    const BufferView& view = doc_.buffer_views[a.buffer_view];
    if (view.byte_stride != 0 && view.byte_stride < layout.size) {
      fail(ImportErrorCode::InvalidAccessor,
           where + ": bufferView " + num(a.buffer_view) + " byteStride " + num(view.byte_stride) +
               " is smaller than one " + accessor_type_name(a.type) + " " + component_type_name(a.component_type) +
               " element (" + num(layout.size) + " bytes)");
    }
    const std::uint64_t stride = view.byte_stride != 0 ? view.byte_stride : layout.size;
    if (!detail::elements_fit(a.byte_offset, a.count, stride, layout.size, view.byte_length)) {
      fail(ImportErrorCode::AccessorOutOfBounds,
           detail::elements_overrun_message(where, a.byte_offset, a.count, stride, a.buffer_view, view.byte_length));
    }
    note_unaligned(where, view.byte_offset + a.byte_offset, layout.component_size);
  }
  if (std::optional<element> e = member(o, "sparse")) a.sparse = read_sparse(*e, where, a, layout);
  return a;
}

// A bufferView holding sparse data: the spec wants it tightly packed, so a stride is refused.
std::uint32_t DocumentReader::sparse_view(object o, const std::string& what) {
  const std::uint32_t index =
      as_index(required(o, "bufferView", what), What(what, "bufferView"), counts_.buffer_views, "bufferViews");
  const BufferView& view = doc_.buffer_views[index];
  if (view.byte_stride != 0) {
    fail(ImportErrorCode::InvalidAccessor, what + ": bufferView " + num(index) + " has byteStride " +
                                               num(view.byte_stride) + " (sparse data must be tightly packed)");
  }
  return index;
}

SparseAccessor DocumentReader::read_sparse(element e, const std::string& where, const Accessor& a,
                                           const detail::ElementLayout& layout) {
  const std::string what = where + ": sparse";
  const object o = as_object(e, what);
  SparseAccessor s;
  s.count = as_uint(required(o, "count", what), What(what, "count"));
  if (s.count == 0 || s.count > a.count) {
    fail(ImportErrorCode::InvalidAccessor,
         what + ": count " + num(s.count) + " is not in 1..accessor count " + num(a.count));
  }

  const std::string indices_what = what + ": indices";
  const object indices = as_object(required(o, "indices", what), indices_what);
  s.indices_buffer_view = sparse_view(indices, indices_what);
  if (std::optional<element> off = member(indices, "byteOffset")) {
    s.indices_byte_offset = as_uint(*off, What(indices_what, "byteOffset"));
  }
  s.indices_component_type =
      component_type_of(required(indices, "componentType", indices_what), What(indices_what, "componentType"), true);
  const std::uint32_t index_size = component_size(s.indices_component_type);
  check_sparse_range(indices_what, s.indices_buffer_view, s.indices_byte_offset, s.count, index_size);

  const std::string values_what = what + ": values";
  const object values = as_object(required(o, "values", what), values_what);
  s.values_buffer_view = sparse_view(values, values_what);
  if (std::optional<element> off = member(values, "byteOffset")) {
    s.values_byte_offset = as_uint(*off, What(values_what, "byteOffset"));
  }
  check_sparse_range(values_what, s.values_buffer_view, s.values_byte_offset, s.count, layout.size);
  note_unaligned(indices_what, doc_.buffer_views[s.indices_buffer_view].byte_offset + s.indices_byte_offset,
                 index_size);
  note_unaligned(values_what, doc_.buffer_views[s.values_buffer_view].byte_offset + s.values_byte_offset,
                 layout.component_size);
  return s;
}

void DocumentReader::check_sparse_range(const std::string& what, std::uint32_t view_index, std::uint64_t offset,
                                        std::uint64_t count, std::uint32_t element_size) {
  const BufferView& view = doc_.buffer_views[view_index];
  if (!detail::elements_fit(offset, count, element_size, element_size, view.byte_length)) {
    fail(ImportErrorCode::AccessorOutOfBounds,
         detail::elements_overrun_message(what, offset, count, element_size, view_index, view.byte_length));
  }
}

}  // namespace marrow::gltf
