// The glTF JSON reader (gltf_json_document_reader.hpp): nodes, skins, scenes, images and
// animations (with KHR_animation_pointer).
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

// A list of node indices; an entry out of range reads "node 4: child 9 of 3 nodes".
std::vector<std::uint32_t> DocumentReader::read_node_list(element e, const std::string& where, const char* key,
                                                          const char* item) {
  const array a = as_array(e, where + ": " + key);
  std::vector<std::uint32_t> out;
  out.reserve(a.size());
  for (element v : a) out.push_back(as_index(v, where + ": " + item, counts_.nodes, "nodes"));
  return out;
}

Node DocumentReader::read_node(object o, const std::string& where) {
  Node n;
  n.name = optional_string(o, "name", where);
  if (std::optional<element> e = member(o, "children")) n.children = read_node_list(*e, where, "children", "child");
  if (std::optional<element> e = member(o, "mesh")) n.mesh = as_index(*e, What(where, "mesh"), counts_.meshes, "meshes");
  if (std::optional<element> e = member(o, "skin")) n.skin = as_index(*e, What(where, "skin"), counts_.skins, "skins");
  if (std::optional<element> e = member(o, "camera")) {
    n.camera = as_index(*e, What(where, "camera"), counts_.cameras, "cameras");
  }
  const std::optional<element> matrix = member(o, "matrix");
  const std::optional<element> translation = member(o, "translation");
  const std::optional<element> rotation = member(o, "rotation");
  const std::optional<element> scale = member(o, "scale");
  if (translation) read_float_array(*translation, What(where, "translation"), n.translation);
  if (rotation) read_float_array(*rotation, What(where, "rotation"), n.rotation);
  if (scale) read_float_array(*scale, What(where, "scale"), n.scale);
  if (matrix) {
    read_float_array(*matrix, What(where, "matrix"), n.matrix);
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
  if (std::optional<element> e = member(o, "weights")) n.weights = read_float_list(*e, What(where, "weights"));
  return n;
}

Skin DocumentReader::read_skin(object o, const std::string& where) {
  Skin s;
  s.name = optional_string(o, "name", where);
  if (std::optional<element> e = member(o, "inverseBindMatrices")) {
    s.inverse_bind_matrices = as_index(*e, What(where, "inverseBindMatrices"), counts_.accessors, "accessors");
  }
  if (std::optional<element> e = member(o, "skeleton")) {
    s.skeleton = as_index(*e, What(where, "skeleton"), counts_.nodes, "nodes");
  }
  s.joints = read_node_list(required(o, "joints", where), where, "joints", "joint");
  if (s.joints.empty()) fail(ImportErrorCode::InvalidDocument, where + ": joints must not be empty");
  return s;
}

AnimationSampler DocumentReader::read_sampler(object o, const std::string& where) {
  AnimationSampler s;
  s.input = as_index(required(o, "input", where), What(where, "input"), counts_.accessors, "accessors");
  s.output = as_index(required(o, "output", where), What(where, "output"), counts_.accessors, "accessors");
  if (std::optional<element> e = member(o, "interpolation")) {
    const std::string mode = as_string(*e, What(where, "interpolation"));
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
void DocumentReader::read_animation_pointer(object target, const std::string& where, AnimationChannel& channel) {
  const std::optional<element> extensions = member(target, "extensions");
  if (!extensions) return;
  const std::optional<element> ext = member(as_object(*extensions, What(where, "extensions")), "KHR_animation_pointer");
  if (!ext) return;
  const std::string what = where + ": KHR_animation_pointer";
  const std::string pointer = as_string(required(as_object(*ext, what), "pointer", what), What(what, "pointer"));
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

Animation DocumentReader::read_animation(object o, const std::string& where) {
  Animation a;
  a.name = optional_string(o, "name", where);
  std::uint64_t i = 0;
  for (element e : as_array(required(o, "samplers", where), What(where, "samplers"))) {
    const std::string what = where + " sampler " + num(i);
    a.samplers.push_back(read_sampler(as_object(e, what), what));
    ++i;
  }
  i = 0;
  for (element e : as_array(required(o, "channels", where), What(where, "channels"))) {
    const std::string what = where + " channel " + num(i);
    const object c = as_object(e, what);
    AnimationChannel channel;
    channel.sampler = as_index(required(c, "sampler", what), What(what, "sampler"), a.samplers.size(), "samplers");
    const object target = as_object(required(c, "target", what), What(what, "target"));
    if (std::optional<element> n = member(target, "node")) {
      channel.node = as_index(*n, What(what, "target node"), counts_.nodes, "nodes");
    }
    // Kept as written: paths of extensions (e.g. "pointer") are for the importer to count.
    channel.path = as_string(required(target, "path", What(what, "target")), What(what, "target path"));
    if (channel.path == "pointer") read_animation_pointer(target, what + ": target", channel);
    a.channels.push_back(std::move(channel));
    ++i;
  }
  return a;
}

Scene DocumentReader::read_scene(object o, const std::string& where) {
  Scene s;
  s.name = optional_string(o, "name", where);
  if (std::optional<element> e = member(o, "nodes")) s.nodes = read_node_list(*e, where, "nodes", "node");
  return s;
}

Image DocumentReader::read_image(object o, const std::string& where) {
  Image im;
  im.name = optional_string(o, "name", where);
  im.uri = optional_string(o, "uri", where);
  if (std::optional<element> e = member(o, "bufferView")) {
    im.buffer_view = as_index(*e, What(where, "bufferView"), counts_.buffer_views, "bufferViews");
  }
  im.mime_type = optional_string(o, "mimeType", where);
  return im;
}

}  // namespace marrow::gltf
