// glTF JSON -> Document with simdjson's DOM API. Every property is type-checked, every index is
// checked against the array it names and every bufferView / accessor range against its buffer, so
// the Document that comes out can be indexed without further checks.
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "accessor_layout.hpp"
#include "gltf_json_values.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"
#include "marrow/io/file_bytes.hpp"

namespace marrow::gltf {
namespace {

using namespace json_values;

// The sizes of the top-level arrays, known before any object is read so that every index can be
// checked as it is met.
struct Counts {
  std::uint64_t buffers = 0, buffer_views = 0, accessors = 0, meshes = 0, materials = 0, nodes = 0, skins = 0,
                cameras = 0, scenes = 0, textures = 0, images = 0, animations = 0;
};

class DocumentReader {
 public:
  DocumentReader(const ImportLimits& limits, std::vector<Diagnostic>& diagnostics)
      : limits_(limits), diagnostics_(diagnostics) {}

  Document read(element root_element) {
    const object root = as_object(root_element, "the glTF JSON root");
    read_asset(root);
    read_extension_lists(root);
    read_counts(root);
    for_each(root, "buffers", [&](object o, const std::string& w) { doc_.buffers.push_back(read_buffer(o, w)); });
    for_each(root, "bufferViews",
             [&](object o, const std::string& w) { doc_.buffer_views.push_back(read_buffer_view(o, w)); });
    for_each(root, "accessors", [&](object o, const std::string& w) { doc_.accessors.push_back(read_accessor(o, w)); });
    for_each(root, "materials", [&](object o, const std::string& w) { doc_.materials.push_back(read_material(o, w)); });
    for_each(root, "meshes", [&](object o, const std::string& w) { doc_.meshes.push_back(read_mesh(o, w)); });
    for_each(root, "nodes", [&](object o, const std::string& w) { doc_.nodes.push_back(read_node(o, w)); });
    for_each(root, "skins", [&](object o, const std::string& w) { doc_.skins.push_back(read_skin(o, w)); });
    for_each(root, "animations",
             [&](object o, const std::string& w) { doc_.animations.push_back(read_animation(o, w)); });
    for_each(root, "scenes", [&](object o, const std::string& w) { doc_.scenes.push_back(read_scene(o, w)); });
    for_each(root, "images", [&](object o, const std::string& w) { doc_.images.push_back(read_image(o, w)); });
    for_each(root, "textures", [](object, const std::string&) {});
    for_each(root, "cameras", [](object, const std::string&) {});
    if (std::optional<element> e = member(root, "scene")) doc_.scene = as_index(*e, "scene", counts_.scenes, "scenes");
    doc_.texture_count = static_cast<std::uint32_t>(counts_.textures);
    doc_.camera_count = static_cast<std::uint32_t>(counts_.cameras);
    check_animation_keys();
    note_strides_on_non_vertex_data();
    return std::move(doc_);
  }

 private:
  // Calls f(object, "node 4") for every element of a top-level array.
  template <class F>
  void for_each(object root, std::string_view key, F&& f) {
    const std::optional<element> e = member(root, key);
    if (!e) return;
    const std::string singular = singular_of(key);
    std::uint64_t i = 0;
    for (element item : as_array(*e, std::string(key))) {
      const std::string where = singular + " " + num(i);
      f(as_object(item, where), where);
      ++i;
    }
  }

  static std::string singular_of(std::string_view key) {
    if (key == "bufferViews") return "bufferView";
    if (key == "meshes") return "mesh";
    std::string s(key);
    s.pop_back();  // buffers -> buffer, nodes -> node, ...
    return s;
  }

  std::uint64_t count_of(object root, std::string_view key) {
    const std::optional<element> e = member(root, key);
    if (!e) return 0;
    const std::uint64_t n = as_array(*e, std::string(key)).size();
    // Indices are 32-bit with 0xffffffff reserved for "none".
    if (n >= kNone) fail(ImportErrorCode::LimitExceeded, std::string(key) + ": " + num(n) + " entries are too many");
    return n;
  }

  void read_counts(object root) {
    counts_.buffers = count_of(root, "buffers");
    counts_.buffer_views = count_of(root, "bufferViews");
    counts_.accessors = count_of(root, "accessors");
    counts_.meshes = count_of(root, "meshes");
    counts_.materials = count_of(root, "materials");
    counts_.nodes = count_of(root, "nodes");
    counts_.skins = count_of(root, "skins");
    counts_.cameras = count_of(root, "cameras");
    counts_.scenes = count_of(root, "scenes");
    counts_.textures = count_of(root, "textures");
    counts_.images = count_of(root, "images");
    counts_.animations = count_of(root, "animations");
    if (counts_.nodes > limits_.max_nodes) {
      fail(ImportErrorCode::LimitExceeded,
           "nodes: " + num(counts_.nodes) + " nodes exceed limit max_nodes " + num(limits_.max_nodes));
    }
  }

  void read_asset(object root) {
    const object asset = as_object(required(root, "asset", "glTF"), "asset");
    doc_.asset.version = as_string(required(asset, "version", "asset"), "asset: version");
    std::uint64_t major = 0, minor = 0;
    if (!parse_version(doc_.asset.version, major, minor) || major != 2) {
      fail(ImportErrorCode::InvalidDocument, "asset: version \"" + doc_.asset.version + "\" is not 2.x");
    }
    doc_.asset.min_version = optional_string(asset, "minVersion", "asset");
    if (!doc_.asset.min_version.empty()) {
      if (!parse_version(doc_.asset.min_version, major, minor)) {
        fail(ImportErrorCode::InvalidDocument,
             "asset: minVersion \"" + doc_.asset.min_version + "\" is not a version like 2.0");
      }
      // A file that needs a newer glTF than 2.0 uses features marrow does not know.
      if (major != 2 || minor != 0) {
        fail(ImportErrorCode::VersionMismatch,
             "asset: minVersion " + doc_.asset.min_version + " is newer than glTF 2.0, which marrow reads");
      }
    }
    doc_.asset.generator = optional_string(asset, "generator", "asset");
  }

  void read_extension_lists(object root) {
    if (std::optional<element> e = member(root, "extensionsUsed")) {
      doc_.extensions_used = read_string_list(*e, "extensionsUsed");
    }
    if (std::optional<element> e = member(root, "extensionsRequired")) {
      doc_.extensions_required = read_string_list(*e, "extensionsRequired");
    }
    // Refused before anything else: a file that needs an extension may not be readable without it.
    for (const std::string& name : doc_.extensions_required) {
      if (!is_supported_required_extension(name)) {
        fail(ImportErrorCode::UnsupportedExtension, "extensionsRequired: " + name + " is not supported");
      }
    }
  }

  Buffer read_buffer(object o, const std::string& where) {
    Buffer b;
    b.uri = optional_string(o, "uri", where);
    b.byte_length = as_uint(required(o, "byteLength", where), where + ": byteLength");
    b.name = optional_string(o, "name", where);
    if (const std::optional<object> ext = extension(o, "EXT_meshopt_compression", where)) {
      if (std::optional<element> f = member(*ext, "fallback")) {
        b.meshopt_fallback = as_bool(*f, where + ": EXT_meshopt_compression: fallback");
      }
    }
    return b;
  }

  // o.extensions.<name>, when present (an object).
  static std::optional<object> extension(object o, std::string_view name, const std::string& where) {
    const std::optional<element> extensions = member(o, "extensions");
    if (!extensions) return std::nullopt;
    const std::optional<element> e = member(as_object(*extensions, where + ": extensions"), name);
    if (!e) return std::nullopt;
    return as_object(*e, where + ": " + std::string(name));
  }

  // EXT_meshopt_compression on a bufferView: every parameter the decoder will be given is checked
  // here, so a call into meshoptimizer never meets an argument it asserts on.
  MeshoptCompression read_meshopt(object ext, const BufferView& view, const std::string& where) {
    const std::string what = where + ": EXT_meshopt_compression";
    MeshoptCompression m;
    m.buffer = as_index(required(ext, "buffer", what), what + ": buffer", counts_.buffers, "buffers");
    if (std::optional<element> e = member(ext, "byteOffset")) m.byte_offset = as_uint(*e, what + ": byteOffset");
    m.byte_length = as_uint(required(ext, "byteLength", what), what + ": byteLength");
    m.byte_stride = static_cast<std::uint32_t>(as_uint(required(ext, "byteStride", what), what + ": byteStride", 256));
    m.count = as_uint(required(ext, "count", what), what + ": count");
    const std::string mode = as_string(required(ext, "mode", what), what + ": mode");
    if (mode == "ATTRIBUTES") m.mode = MeshoptMode::Attributes;
    else if (mode == "TRIANGLES") m.mode = MeshoptMode::Triangles;
    else if (mode == "INDICES") m.mode = MeshoptMode::Indices;
    else fail(ImportErrorCode::InvalidDocument, what + ": mode \"" + mode + "\" is not ATTRIBUTES, TRIANGLES or INDICES");
    if (std::optional<element> e = member(ext, "filter")) {
      const std::string filter = as_string(*e, what + ": filter");
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

  BufferView read_buffer_view(object o, const std::string& where) {
    BufferView v;
    v.buffer = as_index(required(o, "buffer", where), where + ": buffer", counts_.buffers, "buffers");
    if (std::optional<element> e = member(o, "byteOffset")) v.byte_offset = as_uint(*e, where + ": byteOffset");
    v.byte_length = as_uint(required(o, "byteLength", where), where + ": byteLength");
    if (std::optional<element> e = member(o, "byteStride")) {
      const std::uint64_t stride = as_uint(*e, where + ": byteStride");
      if (stride < 4 || stride > 252 || stride % 4 != 0) {
        fail(ImportErrorCode::InvalidAccessor,
             where + ": byteStride " + num(stride) + " is not a multiple of 4 in 4..252");
      }
      v.byte_stride = static_cast<std::uint32_t>(stride);
    }
    if (std::optional<element> e = member(o, "target")) {
      const std::uint64_t target = as_uint(*e, where + ": target");
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

  static AccessorType accessor_type_of(element e, const std::string& what) {
    const std::string s = as_string(e, what);
    for (AccessorType t : {AccessorType::Scalar, AccessorType::Vec2, AccessorType::Vec3, AccessorType::Vec4,
                           AccessorType::Mat2, AccessorType::Mat3, AccessorType::Mat4}) {
      if (s == accessor_type_name(t)) return t;
    }
    fail(ImportErrorCode::InvalidAccessor,
         what + " " + describe(e) + " is not SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
  }

  void note_unaligned(const std::string& what, std::uint64_t absolute_offset, std::uint32_t component) {
    if (absolute_offset % component != 0) {
      add_diagnostic(diagnostics_, DiagnosticCode::AccessorUnaligned,
                     what + " starts at byte " + num(absolute_offset) + " of its buffer, not a multiple of the " +
                         num(component) + "-byte component size; read unaligned");
    }
  }

  Accessor read_accessor(object o, const std::string& where) {
    Accessor a;
    if (std::optional<element> e = member(o, "bufferView")) {
      a.buffer_view = as_index(*e, where + ": bufferView", counts_.buffer_views, "bufferViews");
      if (std::optional<element> off = member(o, "byteOffset")) a.byte_offset = as_uint(*off, where + ": byteOffset");
    }
    a.component_type = component_type_of(required(o, "componentType", where), where + ": componentType", false);
    if (std::optional<element> e = member(o, "normalized")) a.normalized = as_bool(*e, where + ": normalized");
    if (a.normalized && (a.component_type == ComponentType::Float || a.component_type == ComponentType::UnsignedInt)) {
      fail(ImportErrorCode::InvalidAccessor,
           where + ": normalized is not allowed for " + component_type_name(a.component_type) + " components");
    }
    a.count = as_uint(required(o, "count", where), where + ": count");
    if (a.count > limits_.max_accessor_elements) {
      fail(ImportErrorCode::LimitExceeded, where + ": count " + num(a.count) + " exceeds limit max_accessor_elements " +
                                               num(limits_.max_accessor_elements));
    }
    a.type = accessor_type_of(required(o, "type", where), where + ": type");
    a.name = optional_string(o, "name", where);

    const std::uint32_t components = component_count(a.type);
    std::optional<element> min = member(o, "min");
    std::optional<element> max = member(o, "max");
    if (min) a.min = read_double_list(*min, where + ": min");
    if (max) a.max = read_double_list(*max, where + ": max");
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
  std::uint32_t sparse_view(object o, const std::string& what) {
    const std::uint32_t index =
        as_index(required(o, "bufferView", what), what + ": bufferView", counts_.buffer_views, "bufferViews");
    const BufferView& view = doc_.buffer_views[index];
    if (view.byte_stride != 0) {
      fail(ImportErrorCode::InvalidAccessor, what + ": bufferView " + num(index) + " has byteStride " +
                                                 num(view.byte_stride) + " (sparse data must be tightly packed)");
    }
    return index;
  }

  SparseAccessor read_sparse(element e, const std::string& where, const Accessor& a,
                             const detail::ElementLayout& layout) {
    const std::string what = where + ": sparse";
    const object o = as_object(e, what);
    SparseAccessor s;
    s.count = as_uint(required(o, "count", what), what + ": count");
    if (s.count == 0 || s.count > a.count) {
      fail(ImportErrorCode::InvalidAccessor,
           what + ": count " + num(s.count) + " is not in 1..accessor count " + num(a.count));
    }

    const std::string indices_what = what + ": indices";
    const object indices = as_object(required(o, "indices", what), indices_what);
    s.indices_buffer_view = sparse_view(indices, indices_what);
    if (std::optional<element> off = member(indices, "byteOffset")) {
      s.indices_byte_offset = as_uint(*off, indices_what + ": byteOffset");
    }
    s.indices_component_type =
        component_type_of(required(indices, "componentType", indices_what), indices_what + ": componentType", true);
    const std::uint32_t index_size = component_size(s.indices_component_type);
    check_sparse_range(indices_what, s.indices_buffer_view, s.indices_byte_offset, s.count, index_size);

    const std::string values_what = what + ": values";
    const object values = as_object(required(o, "values", what), values_what);
    s.values_buffer_view = sparse_view(values, values_what);
    if (std::optional<element> off = member(values, "byteOffset")) {
      s.values_byte_offset = as_uint(*off, values_what + ": byteOffset");
    }
    check_sparse_range(values_what, s.values_buffer_view, s.values_byte_offset, s.count, layout.size);
    note_unaligned(indices_what, doc_.buffer_views[s.indices_buffer_view].byte_offset + s.indices_byte_offset,
                   index_size);
    note_unaligned(values_what, doc_.buffer_views[s.values_buffer_view].byte_offset + s.values_byte_offset,
                   layout.component_size);
    return s;
  }

  void check_sparse_range(const std::string& what, std::uint32_t view_index, std::uint64_t offset, std::uint64_t count,
                          std::uint32_t element_size) {
    const BufferView& view = doc_.buffer_views[view_index];
    if (!detail::elements_fit(offset, count, element_size, element_size, view.byte_length)) {
      fail(ImportErrorCode::AccessorOutOfBounds,
           detail::elements_overrun_message(what, offset, count, element_size, view_index, view.byte_length));
    }
  }

  Material read_material(object o, const std::string& where) {
    Material m;
    m.name = optional_string(o, "name", where);
    if (std::optional<element> e = member(o, "pbrMetallicRoughness")) {
      const std::string what = where + ": pbrMetallicRoughness";
      const object pbr = as_object(*e, what);
      if (std::optional<element> f = member(pbr, "baseColorFactor")) {
        read_float_array(*f, what + ": baseColorFactor", m.base_color_factor);
      }
    }
    if (std::optional<element> e = member(o, "doubleSided")) m.double_sided = as_bool(*e, where + ": doubleSided");
    if (std::optional<element> e = member(o, "alphaMode")) {
      const std::string mode = as_string(*e, where + ": alphaMode");
      if (mode == "OPAQUE" || mode == "MASK" || mode == "BLEND") {
        m.alpha_mode = mode;
      } else {
        // Drawing state only; an unknown mode does not change what marrow animates.
        add_diagnostic(diagnostics_, DiagnosticCode::MaterialAlphaModeUnknown,
                       where + ": alphaMode \"" + mode + "\" is not OPAQUE, MASK or BLEND; OPAQUE used");
      }
    }
    return m;
  }

  // An attributes object ("POSITION": accessor, ...); what names the object for a type error,
  // where prefixes each attribute's messages.
  std::vector<Attribute> read_attributes(element e, const std::string& what, const std::string& where) {
    const object o = as_object(e, what);
    std::vector<Attribute> out;
    std::unordered_set<std::string_view> seen;
    for (auto [key, value] : o) {
      if (!seen.insert(key).second) {
        fail(ImportErrorCode::InvalidDocument, where + ": attribute " + std::string(key) + " appears twice");
      }
      const std::string attribute_what = where + ": attribute " + std::string(key) + " accessor";
      out.push_back(Attribute{std::string(key), as_index(value, attribute_what, counts_.accessors, "accessors")});
    }
    return out;
  }

  Primitive read_primitive(object o, const std::string& where) {
    Primitive p;
    p.attributes = read_attributes(required(o, "attributes", where), where + ": attributes", where);
    if (std::optional<element> e = member(o, "indices")) {
      p.indices = as_index(*e, where + ": indices", counts_.accessors, "accessors");
    }
    if (std::optional<element> e = member(o, "material")) {
      p.material = as_index(*e, where + ": material", counts_.materials, "materials");
    }
    if (std::optional<element> e = member(o, "mode")) {
      const std::uint64_t mode = as_uint(*e, where + ": mode");
      if (mode > 6) fail(ImportErrorCode::InvalidDocument, where + ": mode " + num(mode) + " is not in 0..6");
      p.mode = static_cast<std::uint32_t>(mode);
    }
    if (const std::optional<object> ext = extension(o, "KHR_draco_mesh_compression", where)) {
      p.draco = read_draco(*ext, where + ": KHR_draco_mesh_compression");
    }
    if (std::optional<element> e = member(o, "targets")) {
      const std::string what = where + ": targets";
      std::uint64_t t = 0;
      for (element target : as_array(*e, what)) {
        const std::string target_where = where + " target " + num(t);
        p.targets.push_back(read_attributes(target, target_where, target_where));
        ++t;
      }
    }
    return p;
  }

  DracoCompression read_draco(object ext, const std::string& what) {
    DracoCompression d;
    d.buffer_view = as_index(required(ext, "bufferView", what), what + ": bufferView", counts_.buffer_views, "bufferViews");
    const std::string attributes_what = what + ": attributes";
    const object attributes = as_object(required(ext, "attributes", what), attributes_what);
    for (auto [key, value] : attributes) {
      const std::string id_what = attributes_what + ": " + std::string(key);
      d.attributes.push_back(DracoAttribute{std::string(key),
                                            static_cast<std::uint32_t>(as_uint(value, id_what, 0xfffffffeu))});
    }
    return d;
  }

  Mesh read_mesh(object o, const std::string& where) {
    Mesh m;
    m.name = optional_string(o, "name", where);
    const array primitives = as_array(required(o, "primitives", where), where + ": primitives");
    if (primitives.size() == 0) fail(ImportErrorCode::InvalidDocument, where + ": primitives must not be empty");
    std::uint64_t i = 0;
    for (element e : primitives) {
      const std::string what = where + " primitive " + num(i);
      m.primitives.push_back(read_primitive(as_object(e, what), what));
      ++i;
    }
    if (std::optional<element> e = member(o, "weights")) m.weights = read_float_list(*e, where + ": weights");
    read_target_names(o, where, m);
    return m;
  }

  // extras.targetNames is a common convention, not part of the schema: a malformed one is skipped.
  void read_target_names(object o, const std::string& where, Mesh& m) {
    const std::optional<element> extras = member(o, "extras");
    object extras_object;
    if (!extras || extras->get_object().get(extras_object) != simdjson::SUCCESS) return;
    const std::optional<element> names = member(extras_object, "targetNames");
    if (!names) return;
    array list;
    bool ok = names->get_array().get(list) == simdjson::SUCCESS;
    std::vector<std::string> out;
    if (ok) {
      for (element n : list) {
        std::string_view s;
        if (n.get_string().get(s) != simdjson::SUCCESS) {
          ok = false;
          break;
        }
        out.emplace_back(s);
      }
    }
    if (!ok) {
      add_diagnostic(diagnostics_, DiagnosticCode::MeshTargetNamesIgnored,
                     where + ": extras.targetNames is not an array of strings; ignored");
      return;
    }
    m.target_names = std::move(out);
  }

  // A list of node indices; an entry out of range reads "node 4: child 9 of 3 nodes".
  std::vector<std::uint32_t> read_node_list(element e, const std::string& where, const char* key, const char* item) {
    const array a = as_array(e, where + ": " + key);
    std::vector<std::uint32_t> out;
    out.reserve(a.size());
    for (element v : a) out.push_back(as_index(v, where + ": " + item, counts_.nodes, "nodes"));
    return out;
  }

  Node read_node(object o, const std::string& where) {
    Node n;
    n.name = optional_string(o, "name", where);
    if (std::optional<element> e = member(o, "children")) n.children = read_node_list(*e, where, "children", "child");
    if (std::optional<element> e = member(o, "mesh")) n.mesh = as_index(*e, where + ": mesh", counts_.meshes, "meshes");
    if (std::optional<element> e = member(o, "skin")) n.skin = as_index(*e, where + ": skin", counts_.skins, "skins");
    if (std::optional<element> e = member(o, "camera")) {
      n.camera = as_index(*e, where + ": camera", counts_.cameras, "cameras");
    }
    const std::optional<element> matrix = member(o, "matrix");
    const std::optional<element> translation = member(o, "translation");
    const std::optional<element> rotation = member(o, "rotation");
    const std::optional<element> scale = member(o, "scale");
    if (translation) read_float_array(*translation, where + ": translation", n.translation);
    if (rotation) read_float_array(*rotation, where + ": rotation", n.rotation);
    if (scale) read_float_array(*scale, where + ": scale", n.scale);
    if (matrix) {
      read_float_array(*matrix, where + ": matrix", n.matrix);
      n.has_matrix = true;
      if (translation || rotation || scale) {
        // The spec forbids both; the matrix is the complete transform, so it wins.
        add_diagnostic(diagnostics_, DiagnosticCode::NodeMatrixAndTrs,
                       where + ": has both matrix and translation/rotation/scale; the matrix is used");
        n.translation = {0, 0, 0};
        n.rotation = {0, 0, 0, 1};
        n.scale = {1, 1, 1};
      }
    }
    if (std::optional<element> e = member(o, "weights")) n.weights = read_float_list(*e, where + ": weights");
    return n;
  }

  Skin read_skin(object o, const std::string& where) {
    Skin s;
    s.name = optional_string(o, "name", where);
    if (std::optional<element> e = member(o, "inverseBindMatrices")) {
      s.inverse_bind_matrices = as_index(*e, where + ": inverseBindMatrices", counts_.accessors, "accessors");
    }
    if (std::optional<element> e = member(o, "skeleton")) {
      s.skeleton = as_index(*e, where + ": skeleton", counts_.nodes, "nodes");
    }
    s.joints = read_node_list(required(o, "joints", where), where, "joints", "joint");
    if (s.joints.empty()) fail(ImportErrorCode::InvalidDocument, where + ": joints must not be empty");
    return s;
  }

  AnimationSampler read_sampler(object o, const std::string& where) {
    AnimationSampler s;
    s.input = as_index(required(o, "input", where), where + ": input", counts_.accessors, "accessors");
    s.output = as_index(required(o, "output", where), where + ": output", counts_.accessors, "accessors");
    if (std::optional<element> e = member(o, "interpolation")) {
      const std::string mode = as_string(*e, where + ": interpolation");
      if (mode == "LINEAR") {
        s.interpolation = SamplerInterpolation::Linear;
      } else if (mode == "STEP") {
        s.interpolation = SamplerInterpolation::Step;
      } else if (mode == "CUBICSPLINE") {
        s.interpolation = SamplerInterpolation::CubicSpline;
      } else {
        fail(ImportErrorCode::InvalidDocument,
             where + ": interpolation \"" + mode + "\" is not LINEAR, STEP or CUBICSPLINE");
      }
    }
    return s;
  }

  // KHR_animation_pointer: a pointer that names a node's TRS or weights, or a mesh's weights,
  // becomes that standard target; its index is checked like any other.
  void read_animation_pointer(object target, const std::string& where, AnimationChannel& channel) {
    const std::optional<element> extensions = member(target, "extensions");
    if (!extensions) return;
    const std::optional<element> ext = member(as_object(*extensions, where + ": extensions"), "KHR_animation_pointer");
    if (!ext) return;
    const std::string what = where + ": KHR_animation_pointer";
    const std::string pointer = as_string(required(as_object(*ext, what), "pointer", what), what + ": pointer");
    channel.pointer = pointer;
    // "/<collection>/<index>/<property>", the index plain decimal digits.
    const auto second = pointer.find('/', 1), third = second == std::string::npos ? second : pointer.find('/', second + 1);
    if (pointer.empty() || pointer[0] != '/' || third == std::string::npos) return;
    const std::string collection = pointer.substr(1, second - 1), digits = pointer.substr(second + 1, third - second - 1);
    const std::string property = pointer.substr(third + 1);
    if (digits.empty() || digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string::npos) return;
    const std::uint64_t index = std::stoull(digits);
    if (collection == "nodes" && (property == "translation" || property == "rotation" || property == "scale" ||
                                  property == "weights")) {
      if (index >= counts_.nodes) {
        fail(ImportErrorCode::IndexOutOfRange, what + ": pointer '" + pointer + "' names node " + num(index) + " of " +
                                                   num(counts_.nodes) + " nodes");
      }
      channel.node = static_cast<std::uint32_t>(index);
      channel.path = property;
      channel.pointer.clear();
    } else if (collection == "meshes" && property == "weights") {
      if (index >= counts_.meshes) {
        fail(ImportErrorCode::IndexOutOfRange, what + ": pointer '" + pointer + "' names mesh " + num(index) + " of " +
                                                   num(counts_.meshes) + " meshes");
      }
      channel.mesh = static_cast<std::uint32_t>(index);
      channel.path = "weights";
      channel.pointer.clear();
    }
  }

  Animation read_animation(object o, const std::string& where) {
    Animation a;
    a.name = optional_string(o, "name", where);
    std::uint64_t i = 0;
    for (element e : as_array(required(o, "samplers", where), where + ": samplers")) {
      const std::string what = where + " sampler " + num(i);
      a.samplers.push_back(read_sampler(as_object(e, what), what));
      ++i;
    }
    i = 0;
    for (element e : as_array(required(o, "channels", where), where + ": channels")) {
      const std::string what = where + " channel " + num(i);
      const object c = as_object(e, what);
      AnimationChannel channel;
      channel.sampler = as_index(required(c, "sampler", what), what + ": sampler", a.samplers.size(), "samplers");
      const object target = as_object(required(c, "target", what), what + ": target");
      if (std::optional<element> n = member(target, "node")) {
        channel.node = as_index(*n, what + ": target node", counts_.nodes, "nodes");
      }
      // Kept as written: paths of extensions (e.g. "pointer") are for the importer to count.
      channel.path = as_string(required(target, "path", what + ": target"), what + ": target path");
      if (channel.path == "pointer") read_animation_pointer(target, what + ": target", channel);
      a.channels.push_back(std::move(channel));
      ++i;
    }
    return a;
  }

  Scene read_scene(object o, const std::string& where) {
    Scene s;
    s.name = optional_string(o, "name", where);
    if (std::optional<element> e = member(o, "nodes")) s.nodes = read_node_list(*e, where, "nodes", "node");
    return s;
  }

  Image read_image(object o, const std::string& where) {
    Image im;
    im.name = optional_string(o, "name", where);
    im.uri = optional_string(o, "uri", where);
    if (std::optional<element> e = member(o, "bufferView")) {
      im.buffer_view = as_index(*e, where + ": bufferView", counts_.buffer_views, "bufferViews");
    }
    im.mime_type = optional_string(o, "mimeType", where);
    return im;
  }

  void check_animation_keys() {
    ImportBudget keys(limits_);  // only the keys the samplers declare; the import charges its own
    for (const Animation& a : doc_.animations) {
      for (const AnimationSampler& s : a.samplers) {
        const std::uint64_t count = doc_.accessors[s.input].count;
        keys.charge_keys(count, "animation sampler inputs");
      }
    }
  }

  // The spec allows byteStride only for vertex attributes; exporters (Fox.gltf) also put it on
  // animation and skin data. The stride is honoured; the file is told about it.
  void note_strides_on_non_vertex_data() {
    auto note = [&](std::uint32_t accessor, const std::string& use) {
      const Accessor& a = doc_.accessors[accessor];
      if (a.buffer_view == kNone || doc_.buffer_views[a.buffer_view].byte_stride == 0) return;
      add_diagnostic(diagnostics_, DiagnosticCode::ByteStrideOnNonVertexData,
                     "accessor " + num(accessor) + " (" + use + ") is in bufferView " + num(a.buffer_view) +
                         " with byteStride " + num(doc_.buffer_views[a.buffer_view].byte_stride) +
                         ", which the spec allows only for vertex attributes; the stride is used");
    };
    for (std::size_t i = 0; i < doc_.animations.size(); ++i) {
      for (std::size_t s = 0; s < doc_.animations[i].samplers.size(); ++s) {
        const std::string use = "animation " + num(i) + " sampler " + num(s);
        note(doc_.animations[i].samplers[s].input, use + " input");
        note(doc_.animations[i].samplers[s].output, use + " output");
      }
    }
    for (std::size_t i = 0; i < doc_.skins.size(); ++i) {
      if (doc_.skins[i].inverse_bind_matrices != kNone) {
        note(doc_.skins[i].inverse_bind_matrices, "skin " + num(i) + " inverseBindMatrices");
      }
    }
    for (std::size_t m = 0; m < doc_.meshes.size(); ++m) {
      for (std::size_t p = 0; p < doc_.meshes[m].primitives.size(); ++p) {
        if (doc_.meshes[m].primitives[p].indices != kNone) {
          note(doc_.meshes[m].primitives[p].indices, "mesh " + num(m) + " primitive " + num(p) + " indices");
        }
      }
    }
  }

  const ImportLimits& limits_;
  std::vector<Diagnostic>& diagnostics_;
  Counts counts_;
  Document doc_;
};

}  // namespace

bool is_supported_required_extension(std::string_view name) noexcept {
  return name == "KHR_mesh_quantization" || name == "KHR_texture_transform" || name.starts_with("KHR_materials_") ||
         name == "KHR_lights_punctual" || name == "KHR_texture_basisu" || name == "EXT_texture_webp" ||
         name == "EXT_texture_avif" || name == "KHR_animation_pointer" || name == "EXT_meshopt_compression" ||
         name == "KHR_draco_mesh_compression";
}

Document parse_gltf_json(std::string_view json, const ImportLimits& limits, std::vector<Diagnostic>& diagnostics) {
  check_file_size(json.size(), limits, "JSON");
  // simdjson counts the document itself as one level: "[1]" needs depth 2. It keeps its own
  // stack of max_depth entries, so a depth bomb is refused without recursion.
  const std::size_t simdjson_depth = std::size_t(limits.max_json_depth) + 1;
  // One parser per thread, kept between imports, so loading files one after another does not
  // allocate, fault in and release its buffers (about 14 bytes per JSON byte) every time. Only
  // small documents use it (CesiumMan's 688 KB of base64 is one): a larger one gets its own
  // parser, released after its import, so a thread never holds more than about 15 MB for this.
  constexpr std::size_t kKeptParserBytes = std::size_t{1} << 20;
  thread_local simdjson::dom::parser kept;
  simdjson::dom::parser own;
  const bool keep = json.size() <= kKeptParserBytes;
  simdjson::dom::parser& parser = keep ? kept : own;
  if ((parser.capacity() < json.size() || parser.max_depth() != simdjson_depth) &&
      parser.allocate(std::max(json.size(), keep ? parser.capacity() : std::size_t{0}), simdjson_depth) !=
          simdjson::SUCCESS) {
    fail(ImportErrorCode::LimitExceeded, "JSON: cannot allocate a parser for " + num(json.size()) + " bytes");
  }
  // The spec forbids a byte order mark, but some editors add one; it is not part of the JSON.
  if (json.starts_with("\xEF\xBB\xBF")) json.remove_prefix(3);
  const simdjson::padded_string padded(json);
  element root;
  const simdjson::error_code error = parser.parse(padded).get(root);
  if (error == simdjson::DEPTH_ERROR) {
    fail(ImportErrorCode::InvalidJson, "JSON: nested deeper than limit max_json_depth " + num(limits.max_json_depth));
  }
  if (error != simdjson::SUCCESS) {
    fail(ImportErrorCode::InvalidJson, std::string("JSON: ") + simdjson::error_message(error));
  }
  DocumentReader reader(limits, diagnostics);
  return reader.read(root);
}

}  // namespace marrow::gltf
