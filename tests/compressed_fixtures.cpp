#include "compressed_fixtures.hpp"

#include <draco/compression/encode.h>
#include <draco/mesh/mesh.h>
#include <meshoptimizer.h>

#include <cmath>

#include <cstring>
#include <stdexcept>
#include <string>

#include "gltf_fixture.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"

namespace marrow::test {

namespace {

int add_attribute(draco::Mesh& mesh, draco::GeometryAttribute::Type type, draco::DataType data_type, int components,
                  std::size_t component_bytes, const std::vector<std::byte>& values, std::uint32_t points) {
  draco::GeometryAttribute ga;
  ga.Init(type, nullptr, static_cast<std::uint8_t>(components), data_type, false,
          static_cast<std::int64_t>(static_cast<std::size_t>(components) * component_bytes), 0);
  const int id = mesh.AddAttribute(ga, true, points);
  draco::PointAttribute* att = mesh.attribute(id);
  for (std::uint32_t p = 0; p < points; ++p) {
    att->SetAttributeValue(draco::AttributeValueIndex(p), values.data() + p * static_cast<std::size_t>(components) * component_bytes);
  }
  return id;
}

template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& v) {
  std::vector<std::byte> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

}  // namespace

gltf::GltfAsset draco_asset(const gltf::GltfAsset& plain, std::uint32_t mesh_index, std::uint32_t primitive_index,
                            bool edgebreaker) {
  gltf::GltfAsset asset = plain;
  gltf::Document& doc = asset.document;
  gltf::Primitive& prim = doc.meshes.at(mesh_index).primitives.at(primitive_index);
  const ImportLimits limits;
  const std::uint32_t position = prim.find("POSITION");
  if (position == gltf::kNone || prim.indices == gltf::kNone) throw std::invalid_argument("draco_asset: needs POSITION and indices");
  const auto points = static_cast<std::uint32_t>(doc.accessors[position].count);
  draco::Mesh mesh;
  mesh.set_num_points(points);
  std::vector<std::uint32_t> indices;
  gltf::read_accessor_uints(asset, prim.indices, limits, indices);
  for (std::size_t i = 0; i + 2 < indices.size(); i += 3) {
    mesh.AddFace({draco::PointIndex(indices[i]), draco::PointIndex(indices[i + 1]), draco::PointIndex(indices[i + 2])});
  }
  gltf::DracoCompression draco;
  std::vector<std::uint32_t> compressed{prim.indices};
  for (const char* semantic : {"POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0"}) {
    const std::uint32_t accessor = prim.find(semantic);
    if (accessor == gltf::kNone) continue;
    const gltf::Accessor& a = doc.accessors[accessor];
    const int components = static_cast<int>(gltf::component_count(a.type));
    int id = -1;
    if (std::string(semantic) == "JOINTS_0") {
      std::vector<std::uint32_t> j;
      gltf::read_accessor_uints(asset, accessor, limits, j);
      std::vector<std::uint16_t> j16(j.begin(), j.end());
      id = add_attribute(mesh, draco::GeometryAttribute::GENERIC, draco::DT_UINT16, components, 2, bytes_of(j16), points);
    } else {
      std::vector<float> f;
      gltf::read_accessor_floats(asset, accessor, limits, f);
      const auto type = std::string(semantic) == "POSITION" ? draco::GeometryAttribute::POSITION
                        : std::string(semantic) == "NORMAL" ? draco::GeometryAttribute::NORMAL
                                                            : draco::GeometryAttribute::GENERIC;
      id = add_attribute(mesh, type, draco::DT_FLOAT32, components, 4, bytes_of(f), points);
    }
    draco.attributes.push_back(gltf::DracoAttribute{semantic, mesh.attribute(id)->unique_id()});
    compressed.push_back(accessor);
  }
  draco::Encoder encoder;
  encoder.SetEncodingMethod(edgebreaker ? draco::MESH_EDGEBREAKER_ENCODING : draco::MESH_SEQUENTIAL_ENCODING);
  draco::EncoderBuffer out;
  const draco::Status status = encoder.EncodeMeshToBuffer(mesh, &out);
  if (!status.ok()) throw std::runtime_error("draco_asset: " + status.error_msg_string());

  std::vector<std::byte>& bin = asset.buffers.at(0);
  bin.resize((bin.size() + 3) / 4 * 4);
  const std::uint64_t offset = bin.size();
  const auto* data = reinterpret_cast<const std::byte*>(out.data());
  bin.insert(bin.end(), data, data + out.size());
  bin.resize((bin.size() + 3) / 4 * 4);
  doc.buffers[0].byte_length = bin.size();
  doc.buffer_views.push_back(gltf::BufferView{0, offset, out.size(), 0, 0, "draco", std::nullopt});
  draco.buffer_view = static_cast<std::uint32_t>(doc.buffer_views.size() - 1);
  for (std::uint32_t a : compressed) {
    doc.accessors[a].buffer_view = gltf::kNone;
    doc.accessors[a].byte_offset = 0;
  }
  prim.draco = draco;
  for (std::vector<std::string>* list : {&doc.extensions_used, &doc.extensions_required}) {
    list->push_back("KHR_draco_mesh_compression");
  }
  return asset;
}

std::vector<std::vector<std::byte>> compressed_fuzz_seeds(const std::string& target) {
  std::vector<std::vector<std::byte>> out;
  const auto header = [](std::initializer_list<std::uint32_t> values) {
    std::vector<std::byte> h;
    for (std::uint32_t v : values) h.push_back(static_cast<std::byte>(v & 0xffu));
    return h;
  };
  if (target == "draco") {
    for (int n : {2, 3, 6}) {
      for (bool edgebreaker : {true, false}) {
        Fixture f;
        const auto body = f.node("Body"), j0 = f.node("J0"), j1 = f.node("J1", {0, 1, 0});
        f.child(j0, j1);
        f.scene({body, j0});
        MeshData m;
        for (int y = 0; y < n; ++y) {
          for (int x = 0; x < n; ++x) {
            m.positions.emplace_back(static_cast<float>(x), static_cast<float>(y), 0.f);
            m.normals.emplace_back(0.f, 0.f, 1.f);
            m.joints.emplace_back(0, 1, 0, 0);
            m.weights.emplace_back(0.5f, 0.5f, 0.f, 0.f);
          }
        }
        for (int y = 0; y + 1 < n; ++y) {
          for (int x = 0; x + 1 < n; ++x) {
            const auto i = static_cast<std::uint32_t>(y * n + x), w = static_cast<std::uint32_t>(n);
            m.indices.insert(m.indices.end(), {i, i + 1, i + w, i + w, i + 1, i + w + 1});
          }
        }
        f.doc().nodes[body].mesh = f.mesh(m);
        f.doc().nodes[body].skin = f.skin({j0, j1}, {});
        const gltf::GltfAsset asset = draco_asset(f.asset(), 0, 0, edgebreaker);
        const gltf::BufferView& view = asset.document.buffer_views[asset.document.meshes[0].primitives[0].draco->buffer_view];
        const auto points = static_cast<std::uint32_t>(n * n), triangles = static_cast<std::uint32_t>(m.indices.size() / 3);
        // flags: u32 indices (2), NORMAL (4), skinned (8)
        std::vector<std::byte> input = header({points, points >> 8, triangles, triangles >> 8, 2 | 4 | 8});
        const std::byte* stream = asset.buffers[0].data() + view.byte_offset;
        input.insert(input.end(), stream, stream + view.byte_length);
        out.push_back(std::move(input));
      }
    }
  } else if (target == "meshopt") {
    const std::size_t n = 64;
    const std::uint32_t n32 = 64;
    std::vector<float> floats(n * 4);
    for (std::size_t i = 0; i < floats.size(); ++i) floats[i] = std::sin(static_cast<float>(i) * 0.1f);
    const auto vertex_stream = [&](const void* data, std::size_t stride) {
      std::vector<unsigned char> e(meshopt_encodeVertexBufferBound(n, stride));
      e.resize(meshopt_encodeVertexBuffer(e.data(), e.size(), data, n, stride));
      return e;
    };
    const auto add = [&](std::vector<std::byte> input, const std::vector<unsigned char>& stream) {
      const auto* p = reinterpret_cast<const std::byte*>(stream.data());
      input.insert(input.end(), p, p + stream.size());
      out.push_back(std::move(input));
    };
    // ATTRIBUTES: stride 12 (byte 1 = 2 -> 4 * 3), 16 floats-as-is; EXPONENTIAL 12; OCTAHEDRAL 4 and 8; QUATERNION 8.
    add(header({0, 2, n32, 0}), vertex_stream(floats.data(), 12));
    add(header({0, 3, n32, 0}), vertex_stream(floats.data(), 16));
    std::vector<std::uint32_t> exp(n * 3);
    meshopt_encodeFilterExp(exp.data(), n, 12, 20, floats.data());
    add(header({0 | 3 << 2, 2, n32, 0}), vertex_stream(exp.data(), 12));
    std::vector<std::int8_t> oct8(n * 4);
    meshopt_encodeFilterOct(oct8.data(), n, 4, 8, floats.data());
    add(header({0 | 1 << 2, 0, n32, 0}), vertex_stream(oct8.data(), 4));
    std::vector<std::int16_t> oct16(n * 4), quat(n * 4);
    meshopt_encodeFilterOct(oct16.data(), n, 8, 12, floats.data());
    add(header({0 | 1 << 2, 1, n32, 0}), vertex_stream(oct16.data(), 8));
    std::vector<float> quats(n * 4);
    for (std::size_t i = 0; i < n; ++i) {
      const float a = static_cast<float>(i) * 0.05f;
      quats[i * 4 + 0] = std::sin(a);
      quats[i * 4 + 3] = std::cos(a);
    }
    meshopt_encodeFilterQuat(quat.data(), n, 8, 12, quats.data());
    add(header({0 | 2 << 2, 1, n32, 0}), vertex_stream(quat.data(), 8));
    // TRIANGLES and INDICES over the 4 fixed vertices.
    std::vector<unsigned int> indices;
    for (std::size_t t = 0; t < 20; ++t) indices.insert(indices.end(), {0u, 1u, 2u, 2u, 1u, 3u});
    std::vector<unsigned char> tri(meshopt_encodeIndexBufferBound(indices.size(), 4));
    tri.resize(meshopt_encodeIndexBuffer(tri.data(), tri.size(), indices.data(), indices.size()));
    const auto count = static_cast<std::uint32_t>(indices.size());
    add(header({1, 1, count, count >> 8}), tri);
    add(header({1, 0, count, count >> 8}), tri);
    std::vector<unsigned char> seq(meshopt_encodeIndexSequenceBound(indices.size(), 4));
    seq.resize(meshopt_encodeIndexSequence(seq.data(), seq.size(), indices.data(), indices.size()));
    add(header({2, 1, count, count >> 8}), seq);
  }
  return out;
}

}  // namespace marrow::test
