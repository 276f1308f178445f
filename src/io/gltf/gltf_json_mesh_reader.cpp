// The glTF JSON reader (gltf_json_document_reader.hpp): materials, meshes, primitives with their
// morph targets and KHR_draco_mesh_compression.
#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "gltf_json_document_reader.hpp"
#include "gltf_json_values.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::gltf {

using namespace json_values;

Material DocumentReader::read_material(object o, const std::string& where) {
  Material m;
  m.name = optional_string(o, "name", where);
  if (std::optional<element> e = member(o, "pbrMetallicRoughness")) {
    const std::string what = where + ": pbrMetallicRoughness";
    const object pbr = as_object(*e, what);
    if (std::optional<element> f = member(pbr, "baseColorFactor")) {
      read_float_array(*f, What(what, "baseColorFactor"), m.base_color_factor);
    }
  }
  if (std::optional<element> e = member(o, "doubleSided")) m.double_sided = as_bool(*e, What(where, "doubleSided"));
  if (std::optional<element> e = member(o, "alphaMode")) {
    const std::string mode = as_string(*e, What(where, "alphaMode"));
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
std::vector<Attribute> DocumentReader::read_attributes(element e, const What& what, const std::string& where) {
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

Primitive DocumentReader::read_primitive(object o, const std::string& where) {
  Primitive p;
  p.attributes = read_attributes(required(o, "attributes", where), What(where, "attributes"), where);
  if (std::optional<element> e = member(o, "indices")) {
    p.indices = as_index(*e, What(where, "indices"), counts_.accessors, "accessors");
  }
  if (std::optional<element> e = member(o, "material")) {
    p.material = as_index(*e, What(where, "material"), counts_.materials, "materials");
  }
  if (std::optional<element> e = member(o, "mode")) {
    const std::uint64_t mode = as_uint(*e, What(where, "mode"));
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

DracoCompression DocumentReader::read_draco(object ext, const std::string& what) {
  DracoCompression d;
  d.buffer_view = as_index(required(ext, "bufferView", what), What(what, "bufferView"), counts_.buffer_views, "bufferViews");
  const std::string attributes_what = what + ": attributes";
  const object attributes = as_object(required(ext, "attributes", what), attributes_what);
  for (auto [key, value] : attributes) {
    const std::string id_what = attributes_what + ": " + std::string(key);
    d.attributes.push_back(DracoAttribute{std::string(key),
                                          static_cast<std::uint32_t>(as_uint(value, id_what, 0xfffffffeu))});
  }
  return d;
}

Mesh DocumentReader::read_mesh(object o, const std::string& where) {
  Mesh m;
  m.name = optional_string(o, "name", where);
  const array primitives = as_array(required(o, "primitives", where), What(where, "primitives"));
  if (primitives.size() == 0) fail(ImportErrorCode::InvalidDocument, where + ": primitives must not be empty");
  std::uint64_t i = 0;
  for (element e : primitives) {
    const std::string what = where + " primitive " + num(i);
    m.primitives.push_back(read_primitive(as_object(e, what), what));
    ++i;
  }
  if (std::optional<element> e = member(o, "weights")) m.weights = read_float_list(*e, What(where, "weights"));
  read_target_names(o, where, m);
  return m;
}

// extras.targetNames is a common convention, not part of the schema: a malformed one is skipped.
void DocumentReader::read_target_names(object o, const std::string& where, Mesh& m) {
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

}  // namespace marrow::gltf
