// glTF JSON -> Document (gltf_json_document_reader.hpp): the parser, the document's top-level
// arrays and the checks that need all of them.
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gltf_json_document_reader.hpp"
#include "gltf_json_values.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/file_bytes.hpp"

namespace marrow::gltf {

using namespace json_values;

// Calls f(object, "node 4") for every element of a top-level array.
template <class F>
void DocumentReader::for_each(object root, std::string_view key, F&& f) {
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

Document DocumentReader::read(element root_element) {
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
  read_vrm_humanoid(root);
  doc_.texture_count = static_cast<std::uint32_t>(counts_.textures);
  doc_.camera_count = static_cast<std::uint32_t>(counts_.cameras);
  check_animation_keys();
  note_strides_on_non_vertex_data();
  return std::move(doc_);
}

std::string DocumentReader::singular_of(std::string_view key) {
  if (key == "bufferViews") return "bufferView";
  if (key == "meshes") return "mesh";
  std::string s(key);
  s.pop_back();  // buffers -> buffer, nodes -> node, ...
  return s;
}

std::uint64_t DocumentReader::count_of(object root, std::string_view key) {
  const std::optional<element> e = member(root, key);
  if (!e) return 0;
  const std::uint64_t n = as_array(*e, std::string(key)).size();
  // Indices are 32-bit with 0xffffffff reserved for "none".
  if (n >= kNone) fail(ImportErrorCode::LimitExceeded, std::string(key) + ": " + num(n) + " entries are too many");
  return n;
}

void DocumentReader::read_counts(object root) {
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

void DocumentReader::read_asset(object root) {
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

void DocumentReader::read_extension_lists(object root) {
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

// o.extensions.<name>, when present (an object).
std::optional<object> DocumentReader::extension(object o, std::string_view name, const std::string& where) {
  const std::optional<element> extensions = member(o, "extensions");
  if (!extensions) return std::nullopt;
  const std::optional<element> e = member(as_object(*extensions, What(where, "extensions")), name);
  if (!e) return std::nullopt;
  return as_object(*e, where + ": " + std::string(name));
}

void DocumentReader::check_animation_keys() {
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
void DocumentReader::note_strides_on_non_vertex_data() {
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
