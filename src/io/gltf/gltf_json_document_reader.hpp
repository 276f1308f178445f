#pragma once
// The glTF JSON reader (parse_gltf_json): one pass over simdjson's DOM into a Document. The
// top-level arrays' sizes are read first (Counts) so that every index is checked against the
// array it names as it is met, and every bufferView / accessor range against its buffer: the
// Document that comes out can be indexed without further checks. Private to marrow::io; its
// parts live in gltf_json_reader.cpp and the gltf_json_*_reader.cpp files named below.
#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accessor_layout.hpp"
#include "gltf_json_values.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

namespace marrow::gltf {

class DocumentReader {
 public:
  using element = json_values::element;
  using object = json_values::object;

  DocumentReader(const ImportLimits& limits, std::vector<Diagnostic>& diagnostics)
      : limits_(limits), diagnostics_(diagnostics) {}

  // Reads the whole document (once per reader).
  Document read(element root_element);

 private:
  // The sizes of the top-level arrays, known before any object is read.
  struct Counts {
    std::uint64_t buffers = 0, buffer_views = 0, accessors = 0, meshes = 0, materials = 0, nodes = 0, skins = 0,
                  cameras = 0, scenes = 0, textures = 0, images = 0, animations = 0;
  };

  // The top-level arrays (gltf_json_reader.cpp).
  template <class F>
  void for_each(object root, std::string_view key, F&& f);
  static std::string singular_of(std::string_view key);
  std::uint64_t count_of(object root, std::string_view key);
  void read_counts(object root);
  void read_asset(object root);
  void read_extension_lists(object root);
  static std::optional<object> extension(object o, std::string_view name, const std::string& where);
  void check_animation_keys();
  void note_strides_on_non_vertex_data();
  // Buffers, bufferViews (EXT_meshopt_compression), accessors and sparse (gltf_json_buffer_reader.cpp).
  Buffer read_buffer(object o, const std::string& where);
  MeshoptCompression read_meshopt(object ext, const BufferView& view, const std::string& where);
  BufferView read_buffer_view(object o, const std::string& where);
  static AccessorType accessor_type_of(element e, const json_values::What& what);
  void note_unaligned(const std::string& what, std::uint64_t absolute_offset, std::uint32_t component);
  Accessor read_accessor(object o, const std::string& where);
  std::uint32_t sparse_view(object o, const std::string& what);
  SparseAccessor read_sparse(element e, const std::string& where, const Accessor& a,
                             const detail::ElementLayout& layout);
  void check_sparse_range(const std::string& what, std::uint32_t view_index, std::uint64_t offset,
                          std::uint64_t count, std::uint32_t element_size);
  // Materials, meshes, primitives, morph targets and KHR_draco_mesh_compression (gltf_json_mesh_reader.cpp).
  Material read_material(object o, const std::string& where);
  std::vector<Attribute> read_attributes(element e, const json_values::What& what, const std::string& where);
  Primitive read_primitive(object o, const std::string& where);
  DracoCompression read_draco(object ext, const std::string& what);
  Mesh read_mesh(object o, const std::string& where);
  void read_target_names(object o, const std::string& where, Mesh& m);
  // Nodes, skins, scenes, images and animations (gltf_json_scene_reader.cpp).
  std::vector<std::uint32_t> read_node_list(element e, const std::string& where, const char* key, const char* item);
  Node read_node(object o, const std::string& where);
  Skin read_skin(object o, const std::string& where);
  AnimationSampler read_sampler(object o, const std::string& where);
  void read_animation_pointer(object target, const std::string& where, AnimationChannel& channel);
  Animation read_animation(object o, const std::string& where);
  Scene read_scene(object o, const std::string& where);
  Image read_image(object o, const std::string& where);
  // VRM's humanoid map, read without ever refusing the file (gltf_json_vrm_reader.cpp).
  void read_vrm_humanoid(object root);
  void read_vrm_entry(object entry, std::string bone, const std::string& where, VrmHumanoid& out);
  void ignore_vrm_entry(const std::string& why);

  const ImportLimits& limits_;
  std::vector<Diagnostic>& diagnostics_;
  Counts counts_;
  Document doc_;
};

}  // namespace marrow::gltf
