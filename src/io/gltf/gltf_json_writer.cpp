// Document -> compact glTF JSON. Properties equal to their spec default are omitted, floats are
// written in their shortest form that reads back to the same float, so parsing the output gives
// the same Document. Values are written as they are, even invalid ones: tests break documents on
// purpose and need them serialised faithfully.
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "marrow/io/gltf/detail/gltf_json.hpp"
#include "marrow/io/json_writer.hpp"

namespace marrow::gltf {
namespace {

// The one JSON writer (io/json_writer.hpp: shortest round-trip floats, non-finite refused) with
// "key":value conveniences for glTF's properties.
class JsonWriter : public marrow::JsonWriter {
 public:
  void field(std::string_view k, std::string_view s) { key(k).string(s); }
  void field(std::string_view k, const std::string& s) { field(k, std::string_view(s)); }
  void field(std::string_view k, const char* s) { field(k, std::string_view(s)); }
  void field_uint(std::string_view k, std::uint64_t v) { key(k).uint(v); }
  void field_bool(std::string_view k, bool b) { key(k).boolean(b); }
  template <class Range>
  void field_numbers(std::string_view k, const Range& values) {
    key(k).begin_array();
    for (auto v : values) number(v, k);
    end_array();
  }
  template <class Range>
  void field_uints(std::string_view k, const Range& values) {
    key(k).begin_array();
    for (auto v : values) uint(v);
    end_array();
  }
  void field_strings(std::string_view k, const std::vector<std::string>& values) {
    key(k).begin_array();
    for (const std::string& v : values) string(v);
    end_array();
  }
};

void write_name(JsonWriter& w, const std::string& name) {
  if (!name.empty()) w.field("name", name);
}

void write_index(JsonWriter& w, std::string_view key, std::uint32_t index) {
  if (index != kNone) w.field_uint(key, index);
}

void write_attributes(JsonWriter& w, const std::vector<Attribute>& attributes) {
  w.begin_object();
  for (const Attribute& a : attributes) w.field_uint(a.semantic, a.accessor);
  w.end_object();
}

void write_node(JsonWriter& w, const Node& n) {
  static constexpr std::array<float, 3> kZero3{0, 0, 0};
  static constexpr std::array<float, 4> kIdentityRotation{0, 0, 0, 1};
  static constexpr std::array<float, 3> kOne3{1, 1, 1};
  w.begin_object();
  write_name(w, n.name);
  if (!n.children.empty()) w.field_uints("children", n.children);
  write_index(w, "mesh", n.mesh);
  write_index(w, "skin", n.skin);
  write_index(w, "camera", n.camera);
  if (n.has_matrix) {
    w.field_numbers("matrix", n.matrix);
  } else {
    if (n.translation != kZero3) w.field_numbers("translation", n.translation);
    if (n.rotation != kIdentityRotation) w.field_numbers("rotation", n.rotation);
    if (n.scale != kOne3) w.field_numbers("scale", n.scale);
  }
  if (!n.weights.empty()) w.field_numbers("weights", n.weights);
  w.end_object();
}

void write_mesh(JsonWriter& w, const Mesh& m) {
  w.begin_object();
  write_name(w, m.name);
  w.key("primitives");
  w.begin_array();
  for (const Primitive& p : m.primitives) {
    w.begin_object();
    w.key("attributes");
    write_attributes(w, p.attributes);
    write_index(w, "indices", p.indices);
    write_index(w, "material", p.material);
    if (p.mode != 4) w.field_uint("mode", p.mode);
    if (!p.targets.empty()) {
      w.key("targets");
      w.begin_array();
      for (const std::vector<Attribute>& t : p.targets) write_attributes(w, t);
      w.end_array();
    }
    if (p.draco) {
      w.key("extensions");
      w.begin_object();
      w.key("KHR_draco_mesh_compression");
      w.begin_object();
      w.field_uint("bufferView", p.draco->buffer_view);
      w.key("attributes");
      w.begin_object();
      for (const DracoAttribute& a : p.draco->attributes) w.field_uint(a.semantic, a.id);
      w.end_object();
      w.end_object();
      w.end_object();
    }
    w.end_object();
  }
  w.end_array();
  if (!m.weights.empty()) w.field_numbers("weights", m.weights);
  if (!m.target_names.empty()) {
    w.key("extras");
    w.begin_object();
    w.field_strings("targetNames", m.target_names);
    w.end_object();
  }
  w.end_object();
}

void write_material(JsonWriter& w, const Material& m) {
  static constexpr std::array<float, 4> kWhite{1, 1, 1, 1};
  w.begin_object();
  write_name(w, m.name);
  if (m.base_color_factor != kWhite) {
    w.key("pbrMetallicRoughness");
    w.begin_object();
    w.field_numbers("baseColorFactor", m.base_color_factor);
    w.end_object();
  }
  if (m.double_sided) w.field_bool("doubleSided", true);
  if (m.alpha_mode != "OPAQUE") w.field("alphaMode", m.alpha_mode);
  w.end_object();
}

void write_skin(JsonWriter& w, const Skin& s) {
  w.begin_object();
  write_name(w, s.name);
  write_index(w, "inverseBindMatrices", s.inverse_bind_matrices);
  write_index(w, "skeleton", s.skeleton);
  w.field_uints("joints", s.joints);
  w.end_object();
}

const char* interpolation_name(SamplerInterpolation i) {
  switch (i) {
    case SamplerInterpolation::Linear: return "LINEAR";
    case SamplerInterpolation::Step: return "STEP";
    case SamplerInterpolation::CubicSpline: return "CUBICSPLINE";
  }
  return "LINEAR";
}

void write_animation(JsonWriter& w, const Animation& a) {
  w.begin_object();
  write_name(w, a.name);
  w.key("channels");
  w.begin_array();
  for (const AnimationChannel& c : a.channels) {
    w.begin_object();
    w.field_uint("sampler", c.sampler);
    w.key("target");
    w.begin_object();
    write_index(w, "node", c.node);
    if (c.mesh != kNone || !c.pointer.empty()) {  // KHR_animation_pointer
      w.field("path", "pointer");
      w.key("extensions");
      w.begin_object();
      w.key("KHR_animation_pointer");
      w.begin_object();
      w.field("pointer", c.mesh != kNone ? "/meshes/" + std::to_string(c.mesh) + "/weights" : c.pointer);
      w.end_object();
      w.end_object();
    } else {
      w.field("path", c.path);
    }
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.key("samplers");
  w.begin_array();
  for (const AnimationSampler& s : a.samplers) {
    w.begin_object();
    w.field_uint("input", s.input);
    w.field_uint("output", s.output);
    if (s.interpolation != SamplerInterpolation::Linear) w.field("interpolation", interpolation_name(s.interpolation));
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_accessor(JsonWriter& w, const Accessor& a) {
  w.begin_object();
  write_index(w, "bufferView", a.buffer_view);
  if (a.byte_offset != 0) w.field_uint("byteOffset", a.byte_offset);
  w.field_uint("componentType", static_cast<std::uint32_t>(a.component_type));
  if (a.normalized) w.field_bool("normalized", true);
  w.field_uint("count", a.count);
  w.field("type", accessor_type_name(a.type));
  if (!a.min.empty()) w.field_numbers("min", a.min);
  if (!a.max.empty()) w.field_numbers("max", a.max);
  if (a.sparse) {
    const SparseAccessor& s = *a.sparse;
    w.key("sparse");
    w.begin_object();
    w.field_uint("count", s.count);
    w.key("indices");
    w.begin_object();
    w.field_uint("bufferView", s.indices_buffer_view);
    if (s.indices_byte_offset != 0) w.field_uint("byteOffset", s.indices_byte_offset);
    w.field_uint("componentType", static_cast<std::uint32_t>(s.indices_component_type));
    w.end_object();
    w.key("values");
    w.begin_object();
    w.field_uint("bufferView", s.values_buffer_view);
    if (s.values_byte_offset != 0) w.field_uint("byteOffset", s.values_byte_offset);
    w.end_object();
    w.end_object();
  }
  write_name(w, a.name);
  w.end_object();
}

void write_buffer_view(JsonWriter& w, const BufferView& v) {
  w.begin_object();
  w.field_uint("buffer", v.buffer);
  if (v.byte_offset != 0) w.field_uint("byteOffset", v.byte_offset);
  w.field_uint("byteLength", v.byte_length);
  if (v.byte_stride != 0) w.field_uint("byteStride", v.byte_stride);
  if (v.target != 0) w.field_uint("target", v.target);
  write_name(w, v.name);
  if (v.meshopt) {
    static constexpr const char* kModes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
    static constexpr const char* kFilters[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};
    const MeshoptCompression& m = *v.meshopt;
    w.key("extensions");
    w.begin_object();
    w.key("EXT_meshopt_compression");
    w.begin_object();
    w.field_uint("buffer", m.buffer);
    if (m.byte_offset != 0) w.field_uint("byteOffset", m.byte_offset);
    w.field_uint("byteLength", m.byte_length);
    w.field_uint("byteStride", m.byte_stride);
    w.field_uint("count", m.count);
    w.field("mode", kModes[static_cast<int>(m.mode)]);
    if (m.filter != MeshoptFilter::None) w.field("filter", kFilters[static_cast<int>(m.filter)]);
    w.end_object();
    w.end_object();
  }
  w.end_object();
}

void write_buffer(JsonWriter& w, const Buffer& b) {
  w.begin_object();
  if (!b.uri.empty()) w.field("uri", b.uri);
  w.field_uint("byteLength", b.byte_length);
  write_name(w, b.name);
  if (b.meshopt_fallback) {
    w.key("extensions");
    w.begin_object();
    w.key("EXT_meshopt_compression");
    w.begin_object();
    w.field_bool("fallback", true);
    w.end_object();
    w.end_object();
  }
  w.end_object();
}

void write_image(JsonWriter& w, const Image& im) {
  w.begin_object();
  write_name(w, im.name);
  if (!im.uri.empty()) w.field("uri", im.uri);
  write_index(w, "bufferView", im.buffer_view);
  if (!im.mime_type.empty()) w.field("mimeType", im.mime_type);
  w.end_object();
}

void write_scene(JsonWriter& w, const Scene& s) {
  w.begin_object();
  write_name(w, s.name);
  if (!s.nodes.empty()) w.field_uints("nodes", s.nodes);
  w.end_object();
}

// A top-level array, omitted when empty (the spec wants at least one item when present).
template <class T, class F>
void write_list(JsonWriter& w, std::string_view key, const std::vector<T>& items, F&& write_item) {
  if (items.empty()) return;
  w.key(key);
  w.begin_array();
  for (const T& item : items) write_item(w, item);
  w.end_array();
}

// VRM's humanoid map where the reader found it: VRMC_vrm's object of bones, or 0.x's array.
void write_vrm_humanoid(JsonWriter& w, const VrmHumanoid& h) {
  w.key("extensions");
  w.begin_object();
  w.key(h.version == 0 ? "VRM" : "VRMC_vrm");
  w.begin_object();
  w.key("humanoid");
  w.begin_object();
  w.key("humanBones");
  if (h.version == 0) {
    w.begin_array();
    for (const VrmHumanBone& b : h.bones) {
      w.begin_object();
      w.field("bone", b.bone);
      w.field_uint("node", b.node);
      w.end_object();
    }
    w.end_array();
  } else {
    w.begin_object();
    for (const VrmHumanBone& b : h.bones) {
      w.key(b.bone);
      w.begin_object();
      w.field_uint("node", b.node);
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
  w.end_object();
  w.end_object();
}

}  // namespace

std::string serialize_gltf_json(const Document& d) {
  JsonWriter w;
  w.begin_object();
  w.key("asset");
  w.begin_object();
  w.field("version", d.asset.version);
  if (!d.asset.min_version.empty()) w.field("minVersion", d.asset.min_version);
  if (!d.asset.generator.empty()) w.field("generator", d.asset.generator);
  w.end_object();
  if (!d.extensions_used.empty()) w.field_strings("extensionsUsed", d.extensions_used);
  if (!d.extensions_required.empty()) w.field_strings("extensionsRequired", d.extensions_required);
  write_index(w, "scene", d.scene);
  write_list(w, "scenes", d.scenes, write_scene);
  write_list(w, "nodes", d.nodes, write_node);
  write_list(w, "meshes", d.meshes, write_mesh);
  write_list(w, "materials", d.materials, write_material);
  write_list(w, "skins", d.skins, write_skin);
  write_list(w, "animations", d.animations, write_animation);
  write_list(w, "accessors", d.accessors, write_accessor);
  write_list(w, "bufferViews", d.buffer_views, write_buffer_view);
  write_list(w, "buffers", d.buffers, write_buffer);
  write_list(w, "images", d.images, write_image);
  // Textures and cameras are only counted when read; empty textures and minimal cameras keep the
  // counts (and so every index into them) valid.
  if (d.texture_count > 0) {
    w.key("textures");
    w.begin_array();
    for (std::uint32_t i = 0; i < d.texture_count; ++i) {
      w.begin_object();
      w.end_object();
    }
    w.end_array();
  }
  if (d.camera_count > 0) {
    w.key("cameras");
    w.begin_array();
    for (std::uint32_t i = 0; i < d.camera_count; ++i) {
      w.begin_object();
      w.field("type", "perspective");
      w.key("perspective");
      w.begin_object();
      w.key("yfov");
      w.number(0.8f, "camera yfov");
      w.key("znear");
      w.number(0.01f, "camera znear");
      w.end_object();
      w.end_object();
    }
    w.end_array();
  }
  if (d.vrm_humanoid) write_vrm_humanoid(w, *d.vrm_humanoid);
  w.end_object();
  return w.take();
}

}  // namespace marrow::gltf
