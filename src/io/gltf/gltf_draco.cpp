// KHR_draco_mesh_compression through Debian's libdraco (src/io/gltf/gltf_draco.hpp). Draco's decoder
// reads only inside the buffer it is given; everything it returns (point and face counts, the
// point-to-value map, indices) is checked against the accessors before it is copied.
#include "gltf_draco.hpp"

#include <draco/compression/decode.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "accessor_layout.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::gltf {

namespace {

[[noreturn]] void fail(ImportErrorCode code, const std::string& message) { throw ImportError(code, message); }

std::string num(std::uint64_t v) { return std::to_string(v); }

// One accessor to fill from the decoded mesh.
struct Output {
  std::uint32_t accessor = 0;
  std::uint32_t draco_id = 0;
  std::string semantic;    // "" for the indices
  std::uint64_t offset = 0;  // in the new buffer
  std::uint64_t bytes = 0;
};

template <class T>
bool convert_values(const draco::PointAttribute& att, std::uint32_t components, std::uint32_t points, std::byte* out) {
  T value[4];
  for (std::uint32_t p = 0; p < points; ++p) {
    const draco::AttributeValueIndex index = att.mapped_index(draco::PointIndex(p));
    if (index.value() >= att.size()) return false;
    if (!att.ConvertValue<T>(index, static_cast<std::int8_t>(components), value)) return false;
    std::memcpy(out + std::size_t{p} * components * sizeof(T), value, components * sizeof(T));
  }
  return true;
}

bool write_values(const draco::PointAttribute& att, ComponentType type, std::uint32_t components, std::uint32_t points,
                  std::byte* out) {
  switch (type) {
    case ComponentType::Byte: return convert_values<std::int8_t>(att, components, points, out);
    case ComponentType::UnsignedByte: return convert_values<std::uint8_t>(att, components, points, out);
    case ComponentType::Short: return convert_values<std::int16_t>(att, components, points, out);
    case ComponentType::UnsignedShort: return convert_values<std::uint16_t>(att, components, points, out);
    case ComponentType::UnsignedInt: return convert_values<std::uint32_t>(att, components, points, out);
    case ComponentType::Float: return convert_values<float>(att, components, points, out);
  }
  return false;
}

template <class T>
void write_indices(const draco::Mesh& mesh, std::byte* out) {
  for (std::uint32_t f = 0; f < mesh.num_faces(); ++f) {
    const draco::Mesh::Face& face = mesh.face(draco::FaceIndex(f));
    for (int c = 0; c < 3; ++c) {
      const T v = static_cast<T>(face[static_cast<std::size_t>(c)].value());
      std::memcpy(out + (std::size_t{f} * 3 + static_cast<std::size_t>(c)) * sizeof(T), &v, sizeof(T));
    }
  }
}

// What will be written, and where in the new buffer (each accessor 4-byte aligned): the indices
// first, then each attribute Draco holds, all of one point count.
struct Plan {
  std::vector<Output> outputs;
  std::uint64_t total = 0;   // bytes of the new buffer
  std::uint64_t points = 0;  // the attributes' element count
};

Plan plan_outputs(const Document& doc, const Primitive& prim, const DracoCompression& draco, const std::string& where) {
  Plan plan;
  const auto add = [&](std::uint32_t accessor, std::uint32_t id, const std::string& semantic) {
    const Accessor& a = doc.accessors[accessor];
    if (a.sparse) fail(ImportErrorCode::InvalidDocument, where + ": accessor " + num(accessor) + " is sparse");
    if (semantic.empty() && (a.type != AccessorType::Scalar || a.component_type == ComponentType::Float ||
                             a.component_type == ComponentType::Byte || a.component_type == ComponentType::Short)) {
      fail(ImportErrorCode::InvalidDocument, where + ": indices accessor " + num(accessor) + " is not unsigned integer SCALAR");
    }
    if (!semantic.empty() && component_count(a.type) > 4) {
      fail(ImportErrorCode::InvalidDocument, where + ": attribute " + semantic + " is a matrix type");
    }
    // At most 16 bytes an element here; a count beyond 2^40 is refused before it can overflow.
    if (a.count > (std::uint64_t{1} << 40)) {
      fail(ImportErrorCode::LimitExceeded, where + ": accessor " + num(accessor) + " count " + num(a.count) + " is too large");
    }
    const std::uint64_t bytes = a.count * component_count(a.type) * component_size(a.component_type);
    plan.total = (plan.total + 3) / 4 * 4;
    plan.outputs.push_back(Output{accessor, id, semantic, plan.total, bytes});
    plan.total += bytes;
  };
  add(prim.indices, 0, "");
  bool have_points = false;
  for (const DracoAttribute& d : draco.attributes) {
    const std::uint32_t accessor = prim.find(d.semantic);
    if (accessor == kNone) {
      fail(ImportErrorCode::InvalidDocument, where + ": attribute " + d.semantic + " is not an attribute of the primitive");
    }
    if (have_points && doc.accessors[accessor].count != plan.points) {
      fail(ImportErrorCode::InvalidDocument, where + ": attribute " + d.semantic + " has " +
                                                 num(doc.accessors[accessor].count) + " elements, others have " + num(plan.points));
    }
    plan.points = doc.accessors[accessor].count;
    have_points = true;
    add(accessor, d.id, d.semantic);
  }
  if (!have_points) fail(ImportErrorCode::InvalidDocument, where + ": names no attributes");
  return plan;
}

// Draco decodes the bufferView's bytes (checked to lie inside their buffer).
std::unique_ptr<draco::Mesh> decode_stream(const GltfAsset& asset, const DracoCompression& draco, const std::string& where) {
  const BufferView& view = asset.document.buffer_views[draco.buffer_view];
  if (view.buffer >= asset.buffers.size()) fail(ImportErrorCode::IndexOutOfRange, where + ": buffer " + num(view.buffer) + " is not loaded");
  const std::span<const std::byte> buffer = asset.buffer(view.buffer);
  if (!detail::range_fits(view.byte_offset, view.byte_length, buffer.size())) {
    fail(ImportErrorCode::AccessorOutOfBounds, where + ": bufferView " + num(draco.buffer_view) + " exceeds buffer " +
                                                   num(view.buffer) + " (" + num(buffer.size()) + " bytes)");
  }
  draco::DecoderBuffer stream;
  stream.Init(reinterpret_cast<const char*>(buffer.data() + view.byte_offset), static_cast<std::size_t>(view.byte_length));
  draco::Decoder decoder;
  auto decoded = decoder.DecodeMeshFromBuffer(&stream);
  if (!decoded.ok()) {
    fail(ImportErrorCode::InvalidCompression, where + ": the " + num(view.byte_length) + "-byte stream does not decode: " +
                                                  decoded.status().error_msg_string());
  }
  return std::move(decoded).value();
}

// The decoded mesh has the accessors' point and index counts, and every index is below the point
// count and fits the indices' component type.
void check_decoded(const draco::Mesh& mesh, const Accessor& indices, std::uint64_t points, const std::string& where) {
  if (mesh.num_points() != points) {
    fail(ImportErrorCode::InvalidCompression, where + ": decodes to " + num(mesh.num_points()) +
                                                  " points, the accessors declare " + num(points));
  }
  if (std::uint64_t{mesh.num_faces()} * 3 != indices.count) {
    fail(ImportErrorCode::InvalidCompression, where + ": decodes to " + num(mesh.num_faces()) + " triangles (" +
                                                  num(std::uint64_t{mesh.num_faces()} * 3) + " indices), the indices accessor declares " +
                                                  num(indices.count));
  }
  const std::uint64_t index_max = indices.component_type == ComponentType::UnsignedByte    ? 0xffu
                                  : indices.component_type == ComponentType::UnsignedShort ? 0xffffu
                                                                                           : 0xffffffffu;
  for (std::uint32_t f = 0; f < mesh.num_faces(); ++f) {
    const draco::Mesh::Face& face = mesh.face(draco::FaceIndex(f));
    for (int c = 0; c < 3; ++c) {
      const std::uint64_t v = face[static_cast<std::size_t>(c)].value();
      if (v >= points || v > index_max) {
        fail(ImportErrorCode::InvalidCompression, where + ": triangle " + num(f) + " index " + num(v) +
                                                      (v >= points ? " is not below the " + num(points) + " points"
                                                                   : " does not fit the indices' component type"));
      }
    }
  }
}

// One attribute's decoded values in its accessor's component type, after checking that the
// stream has it for every point in glTF's terms.
void write_attribute_values(const draco::Mesh& mesh, const Output& o, const Accessor& a, std::uint64_t points,
                            const std::string& where, std::byte* out) {
  const draco::PointAttribute* att = mesh.GetAttributeByUniqueId(o.draco_id);
  if (att == nullptr) {
    fail(ImportErrorCode::InvalidCompression, where + ": attribute " + o.semantic + ": the stream has no attribute with id " +
                                                  num(o.draco_id));
  }
  if (!att->is_mapping_identity() && att->indices_map_size() < points) {
    fail(ImportErrorCode::InvalidCompression, where + ": attribute " + o.semantic + " maps " +
                                                  num(att->indices_map_size()) + " of the " + num(points) + " points");
  }
  // glTF's component types only: Draco's converters read a bool attribute's bytes as bool
  // (any byte value may be there) and narrow doubles without a range check.
  switch (att->data_type()) {
    case draco::DT_INT8: case draco::DT_UINT8: case draco::DT_INT16: case draco::DT_UINT16:
    case draco::DT_INT32: case draco::DT_UINT32: case draco::DT_FLOAT32: break;
    default:
      fail(ImportErrorCode::InvalidCompression, where + ": attribute " + o.semantic + " has Draco data type " +
                                                    num(static_cast<std::uint64_t>(att->data_type())) +
                                                    ", not one glTF stores");
  }
  const std::uint32_t components = component_count(a.type);
  if (att->num_components() != components) {
    fail(ImportErrorCode::InvalidCompression, where + ": attribute " + o.semantic + " decodes to " +
                                                  num(att->num_components()) + " components, its accessor is " +
                                                  accessor_type_name(a.type));
  }
  if (!write_values(*att, a.component_type, components, static_cast<std::uint32_t>(points), out)) {
    fail(ImportErrorCode::InvalidCompression, where + ": attribute " + o.semantic +
                                                  ": a decoded value does not fit the accessor's component type");
  }
}

// New accessors over the new buffer; the declared ones stay as they are for anything else that
// refers to them.
void point_at_new_buffer(GltfAsset& asset, std::uint32_t mesh_index, std::uint32_t primitive_index, const Plan& plan,
                         std::vector<std::byte> bytes, const std::string& where) {
  Document& doc = asset.document;
  const auto buffer_index = static_cast<std::uint32_t>(doc.buffers.size());
  doc.buffers.push_back(Buffer{"", plan.total, where, false});
  asset.buffers.push_back(std::move(bytes));
  Primitive& out_prim = doc.meshes[mesh_index].primitives[primitive_index];
  for (const Output& o : plan.outputs) {
    doc.buffer_views.push_back(BufferView{buffer_index, o.offset, o.bytes, 0, 0, {}, std::nullopt});
    Accessor a = doc.accessors[o.accessor];
    a.buffer_view = static_cast<std::uint32_t>(doc.buffer_views.size() - 1);
    a.byte_offset = 0;
    doc.accessors.push_back(std::move(a));
    const auto accessor = static_cast<std::uint32_t>(doc.accessors.size() - 1);
    if (o.semantic.empty()) {
      out_prim.indices = accessor;
    } else {
      for (Attribute& attribute : out_prim.attributes) {
        if (attribute.semantic == o.semantic) attribute.accessor = accessor;
      }
    }
  }
  out_prim.draco.reset();
}

void decode_primitive(GltfAsset& asset, std::uint32_t mesh_index, std::uint32_t primitive_index, ImportBudget& budget) {
  const Document& doc = asset.document;
  const std::string where = "mesh " + num(mesh_index) + " primitive " + num(primitive_index) + ": KHR_draco_mesh_compression";
  const DracoCompression draco = *doc.meshes[mesh_index].primitives[primitive_index].draco;
  const Primitive& prim = doc.meshes[mesh_index].primitives[primitive_index];
  if (prim.mode != 4) fail(ImportErrorCode::InvalidDocument, where + ": mode " + num(prim.mode) + ", Draco primitives must be TRIANGLES (4)");
  if (prim.indices == kNone) fail(ImportErrorCode::InvalidDocument, where + ": the primitive has no indices accessor");
  const Plan plan = plan_outputs(doc, prim, draco, where);
  // The accessors' bytes, and as much again for the mesh Draco decodes them from.
  budget.charge(plan.total, where + ": decoded accessors");
  budget.charge(plan.total, where + ": Draco's decoded mesh");

  const std::unique_ptr<draco::Mesh> mesh = decode_stream(asset, draco, where);
  const Accessor& indices = doc.accessors[prim.indices];
  check_decoded(*mesh, indices, plan.points, where);
  std::vector<std::byte> bytes(static_cast<std::size_t>(plan.total));
  for (const Output& o : plan.outputs) {
    std::byte* out = bytes.data() + o.offset;
    if (!o.semantic.empty()) {
      write_attribute_values(*mesh, o, doc.accessors[o.accessor], plan.points, where, out);
    } else if (indices.component_type == ComponentType::UnsignedByte) {
      write_indices<std::uint8_t>(*mesh, out);
    } else if (indices.component_type == ComponentType::UnsignedShort) {
      write_indices<std::uint16_t>(*mesh, out);
    } else {
      write_indices<std::uint32_t>(*mesh, out);
    }
  }
  point_at_new_buffer(asset, mesh_index, primitive_index, plan, std::move(bytes), where);
}

}  // namespace

void decode_draco_primitives(GltfAsset& asset, ImportBudget& budget) {
  for (std::uint32_t m = 0; m < asset.document.meshes.size(); ++m) {
    for (std::uint32_t p = 0; p < asset.document.meshes[m].primitives.size(); ++p) {
      if (asset.document.meshes[m].primitives[p].draco) decode_primitive(asset, m, p, budget);
    }
  }
}

}  // namespace marrow::gltf
