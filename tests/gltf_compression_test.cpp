// Compressed glTF geometry: KHR_draco_mesh_compression and EXT_meshopt_compression decode to
// exactly what the uncompressed file imports (positions, normals, joints, weights, per triangle
// corner, since Draco's mesh coder and meshopt's index coder may reorder points and rotate
// triangles), with meshopt's filters within their quantisation; the writer's --meshopt output
// imports as the model it was written from. The encoders are Debian's libdraco and libmeshoptimizer.
#include <gtest/gtest.h>

#include <meshoptimizer.h>

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <cstring>

#include "compressed_fixtures.hpp"
#include "gltf_fixture.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/io/gltf/detail/glb.hpp"
#include "marrow/io/gltf/gltf_builder.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/gltf/gltf_meshopt_compress.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"

namespace marrow {
namespace {

using test::Fixture;
using test::MeshData;

// A skinned grid (two joints) of n x n vertices with normals, indices, and an animation.
Fixture skinned_grid(int n = 12) {
  Fixture f;
  const auto j0 = f.node("J0"), j1 = f.node("J1", {0, 1, 0}), body = f.node("Body");
  f.child(j0, j1);
  f.scene({j0, body});
  MeshData m;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const float fx = static_cast<float>(x) / static_cast<float>(n - 1), fy = static_cast<float>(y) / static_cast<float>(n - 1);
      m.positions.emplace_back(fx, fy, 0.25f * std::sin(3.f * fx) * fy);
      m.normals.push_back(glm::normalize(glm::vec3(0.1f * fx, 0.2f * fy, 1.f)));
      m.joints.emplace_back(0, 1, 0, 0);
      m.weights.emplace_back(1.f - fy, fy, 0.f, 0.f);
    }
  }
  for (int y = 0; y + 1 < n; ++y) {
    for (int x = 0; x + 1 < n; ++x) {
      const auto i = static_cast<std::uint32_t>(y * n + x), w = static_cast<std::uint32_t>(n);
      m.indices.insert(m.indices.end(), {i, i + 1, i + w, i + w, i + 1, i + w + 1});
    }
  }
  f.doc().nodes[body].mesh = f.mesh(m);
  f.doc().nodes[body].skin = f.skin({j0, j1}, {glm::mat4(1.f), glm::mat4(1.f)});
  const auto anim = f.animation("Wave");
  f.channel(anim, j1, "translation", gltf::SamplerInterpolation::Linear, {0.f, 1.f, 2.f}, {0, 1, 0, 1, 1, 0, 0, 1, 0});
  return f;
}

Model import_asset(const gltf::GltfAsset& asset) {
  const std::vector<std::byte> glb = gltf::write_glb_asset(asset);
  return import_gltf(std::span<const std::byte>(glb));
}

// Each triangle corner's attributes, triangles rotated so their smallest position comes first
// and sorted: equal for the same surface whatever the point order.
struct Corner {
  glm::vec3 position, normal;
  glm::u16vec4 joints;
  glm::vec4 weights;
};
std::vector<std::array<Corner, 3>> triangles(const ModelMeshPart& part) {
  using A = VertexAttribute;
  const auto corner = [&](std::uint32_t v) {
    Corner c{};
    c.position = read_attribute<glm::vec3>(part.vertex_bytes, part.layout, v, A::Position);
    if (part.layout.has(A::Normal)) c.normal = read_attribute<glm::vec3>(part.vertex_bytes, part.layout, v, A::Normal);
    if (part.layout.has(A::Joints0)) c.joints = read_attribute<glm::u16vec4>(part.vertex_bytes, part.layout, v, A::Joints0);
    if (part.layout.has(A::Weights0)) c.weights = read_attribute<glm::vec4>(part.vertex_bytes, part.layout, v, A::Weights0);
    return c;
  };
  // Ordered on a 1e-4 grid, so values a lossy filter moved by a few ulps still sort alike.
  const auto less = [](const glm::vec3& p, const glm::vec3& q) {
    const glm::vec3 a = glm::round(p * 1e4f), b = glm::round(q * 1e4f);
    return std::tie(a.x, a.y, a.z) < std::tie(b.x, b.y, b.z);
  };
  std::vector<std::array<Corner, 3>> out;
  for (std::size_t i = 0; i + 2 < part.indices.size(); i += 3) {
    std::array<Corner, 3> t{corner(part.indices[i]), corner(part.indices[i + 1]), corner(part.indices[i + 2])};
    while (less(t[1].position, t[0].position) || less(t[2].position, t[0].position)) std::rotate(t.begin(), t.begin() + 1, t.end());
    out.push_back(t);
  }
  std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    for (std::size_t c = 0; c < 3; ++c) {
      if (less(a[c].position, b[c].position)) return true;
      if (less(b[c].position, a[c].position)) return false;
    }
    return false;
  });
  return out;
}

void expect_same_surface(const Model& expected, const Model& actual, float tolerance = 0.f, float normal_tolerance = 0.f) {
  ASSERT_EQ(actual.meshes.size(), expected.meshes.size());
  ASSERT_EQ(actual.meshes[0].parts.size(), expected.meshes[0].parts.size());
  const auto e = triangles(expected.meshes[0].parts[0]);
  const auto a = triangles(actual.meshes[0].parts[0]);
  ASSERT_EQ(a.size(), e.size());
  ASSERT_FALSE(e.empty());
  for (std::size_t t = 0; t < e.size(); ++t) {
    for (int c = 0; c < 3; ++c) {
      const Corner& x = e[t][static_cast<std::size_t>(c)];
      const Corner& y = a[t][static_cast<std::size_t>(c)];
      if (tolerance == 0.f) {
        ASSERT_EQ(y.position, x.position) << "triangle " << t << " corner " << c;
      } else {
        ASSERT_LE(glm::length(y.position - x.position), tolerance) << "triangle " << t << " corner " << c;
      }
      if (normal_tolerance == 0.f) {
        ASSERT_EQ(y.normal, x.normal) << "triangle " << t << " corner " << c;
      } else {
        ASSERT_LE(glm::length(y.normal - x.normal), normal_tolerance) << "triangle " << t << " corner " << c;
      }
      ASSERT_EQ(y.joints, x.joints) << "triangle " << t << " corner " << c;
      ASSERT_EQ(y.weights, x.weights) << "triangle " << t << " corner " << c;
    }
  }
  EXPECT_EQ(actual.skins.size(), expected.skins.size());
  EXPECT_EQ(actual.animations.size(), expected.animations.size());
}

TEST(GltfDraco, EdgebreakerDecodesToTheUncompressedSurface) {
  const gltf::GltfAsset plain = skinned_grid().asset();
  const gltf::GltfAsset draco = test::draco_asset(plain, 0, 0, true);
  ASSERT_TRUE(draco.document.meshes[0].primitives[0].draco.has_value());
  expect_same_surface(import_asset(plain), import_asset(draco));
}

TEST(GltfDraco, SequentialDecodesToTheUncompressedVertices) {
  const gltf::GltfAsset plain = skinned_grid(5).asset();
  const Model expected = import_asset(plain);
  const Model actual = import_asset(test::draco_asset(plain, 0, 0, false));
  expect_same_surface(expected, actual);
  // The sequential coder keeps the point order: the vertex bytes are the same.
  EXPECT_EQ(actual.meshes[0].parts[0].vertex_bytes, expected.meshes[0].parts[0].vertex_bytes);
}

template <class F>
ImportError refusal(F&& f) {
  try {
    f();
  } catch (const ImportError& e) {
    return e;
  }
  ADD_FAILURE() << "no ImportError";
  return ImportError(ImportErrorCode::IoError, "none");
}

TEST(GltfDraco, PointCountOtherThanTheAccessorsIsRefused) {
  gltf::GltfAsset asset = test::draco_asset(skinned_grid(4).asset());
  for (gltf::Attribute& a : asset.document.meshes[0].primitives[0].attributes) asset.document.accessors[a.accessor].count = 15;
  const ImportError e = refusal([&] { import_asset(asset); });
  EXPECT_EQ(e.code(), ImportErrorCode::InvalidCompression) << e.what();
  EXPECT_NE(std::string(e.what()).find("16 points, the accessors declare 15"), std::string::npos) << e.what();
}

TEST(GltfDraco, CorruptStreamIsRefused) {
  gltf::GltfAsset asset = test::draco_asset(skinned_grid(4).asset());
  const gltf::BufferView& view = asset.document.buffer_views[asset.document.meshes[0].primitives[0].draco->buffer_view];
  for (std::uint64_t i = 8; i < view.byte_length; ++i) asset.buffers[0][view.byte_offset + i] = std::byte{0xA5};
  EXPECT_EQ(refusal([&] { import_asset(asset); }).code(), ImportErrorCode::InvalidCompression);
}

TEST(GltfDraco, DecodedBytesAreChargedToTheBudget) {
  const gltf::GltfAsset asset = test::draco_asset(skinned_grid(12).asset());
  ImportOptions options;
  options.limits.max_total_bytes = asset.buffers[0].size() + 4000;  // the buffer fits, the decoded accessors do not
  const std::vector<std::byte> glb = gltf::write_glb_asset(asset);
  const ImportError e = refusal([&] { import_gltf(std::span<const std::byte>(glb), options); });
  EXPECT_EQ(e.code(), ImportErrorCode::LimitExceeded) << e.what();
  EXPECT_NE(std::string(e.what()).find("KHR_draco_mesh_compression"), std::string::npos) << e.what();
}

TEST(GltfMeshopt, CompressedAssetImportsAsTheUncompressedOne) {
  const gltf::GltfAsset plain = skinned_grid().asset();
  const gltf::GltfAsset compressed = gltf::compress_meshopt(plain);
  int views = 0;
  for (const gltf::BufferView& v : compressed.document.buffer_views) views += v.meshopt ? 1 : 0;
  EXPECT_GE(views, 5);  // positions, normals, joints, weights, indices (and keys)
  ASSERT_EQ(compressed.document.buffers.size(), 2u);
  EXPECT_TRUE(compressed.document.buffers[1].meshopt_fallback);
  EXPECT_LT(compressed.document.buffers[0].byte_length, plain.document.buffers[0].byte_length);
  const Model expected = import_asset(plain);
  const Model actual = import_asset(compressed);
  expect_same_surface(expected, actual);
  // Vertex data is coded losslessly in place: the same bytes in the same order.
  EXPECT_EQ(actual.meshes[0].parts[0].vertex_bytes, expected.meshes[0].parts[0].vertex_bytes);
  ASSERT_EQ(actual.skins.size(), 1u);
  EXPECT_EQ(actual.skins[0].data.animation_clips.size(), expected.skins[0].data.animation_clips.size());
  for (const auto& [name, clip] : expected.skins[0].data.animation_clips) {
    const AnimationClip& other = actual.skins[0].data.animation_clips.at(name);
    ASSERT_EQ(other.tracks.size(), clip.tracks.size());
    for (std::size_t t = 0; t < clip.tracks.size(); ++t) {
      ASSERT_EQ(other.tracks[t].keys.size(), clip.tracks[t].keys.size());
      for (std::size_t k = 0; k < clip.tracks[t].keys.size(); ++k) {
        EXPECT_EQ(other.tracks[t].keys[k].translation, clip.tracks[t].keys[k].translation);
      }
    }
  }
}

// Positions through the EXPONENTIAL filter and normals through the OCTAHEDRAL one (as
// gltfpack writes them), encoded here with meshoptimizer's filter and vertex encoders.
TEST(GltfMeshopt, ExponentialAndOctahedralFiltersDecodeWithinTheirPrecision) {
  Fixture f = skinned_grid();
  gltf::GltfAsset plain = f.asset();
  gltf::GltfAsset asset = plain;
  gltf::Document& doc = asset.document;
  const gltf::Primitive& prim = doc.meshes[0].primitives[0];
  std::vector<float> positions, normals;
  gltf::read_accessor_floats(asset, prim.find("POSITION"), ImportLimits{}, positions);
  gltf::read_accessor_floats(asset, prim.find("NORMAL"), ImportLimits{}, normals);
  const std::size_t n = positions.size() / 3;
  std::vector<std::byte>& bin = asset.buffers[0];
  const auto append = [&](const std::vector<unsigned char>& bytes) {
    bin.resize((bin.size() + 3) / 4 * 4);
    const std::uint64_t at = bin.size();
    const auto* p = reinterpret_cast<const std::byte*>(bytes.data());
    bin.insert(bin.end(), p, p + bytes.size());
    return at;
  };
  const auto encode = [&](const void* filtered, std::size_t stride) {
    std::vector<unsigned char> out(meshopt_encodeVertexBufferBound(n, stride));
    out.resize(meshopt_encodeVertexBuffer(out.data(), out.size(), filtered, n, stride));
    return out;
  };
  // Positions: 3 x 32-bit exponent-mantissa values (24-bit mantissas).
  std::vector<std::uint32_t> exp(n * 3);
  meshopt_encodeFilterExp(exp.data(), n, 12, 24, positions.data());
  const std::vector<unsigned char> exp_stream = encode(exp.data(), 12);
  // Normals: 4 x int8 octahedral (w unused), read as normalized BYTE VEC3 with stride 4.
  std::vector<float> normals4;
  for (std::size_t v = 0; v < n; ++v) normals4.insert(normals4.end(), {normals[v * 3], normals[v * 3 + 1], normals[v * 3 + 2], 0.f});
  std::vector<std::int8_t> oct(n * 4);
  meshopt_encodeFilterOct(oct.data(), n, 4, 8, normals4.data());
  const std::vector<unsigned char> oct_stream = encode(oct.data(), 4);

  const auto fallback = static_cast<std::uint32_t>(doc.buffers.size());
  const std::uint64_t exp_at = append(exp_stream), oct_at = append(oct_stream);
  doc.buffers[0].byte_length = (bin.size() + 3) / 4 * 4;
  bin.resize(doc.buffers[0].byte_length);
  doc.buffers.push_back(gltf::Buffer{"", n * 16, "", true});
  asset.buffers.emplace_back();
  const auto view = [&](std::uint64_t offset, std::uint64_t at, std::size_t bytes, std::uint32_t stride, gltf::MeshoptFilter filter) {
    gltf::MeshoptCompression m{0, at, bytes, stride, n, gltf::MeshoptMode::Attributes, filter};
    doc.buffer_views.push_back(gltf::BufferView{fallback, offset, n * stride, stride, 34962, "", m});
    return static_cast<std::uint32_t>(doc.buffer_views.size() - 1);
  };
  gltf::Accessor& pa = doc.accessors[prim.find("POSITION")];
  pa.buffer_view = view(0, exp_at, exp_stream.size(), 12, gltf::MeshoptFilter::Exponential);
  pa.byte_offset = 0;
  gltf::Accessor& na = doc.accessors[prim.find("NORMAL")];
  na.buffer_view = view(n * 12, oct_at, oct_stream.size(), 4, gltf::MeshoptFilter::Octahedral);
  na.byte_offset = 0;
  na.component_type = gltf::ComponentType::Byte;
  na.normalized = true;
  doc.extensions_used.push_back("EXT_meshopt_compression");
  doc.extensions_required.push_back("EXT_meshopt_compression");
  doc.extensions_used.push_back("KHR_mesh_quantization");
  doc.extensions_required.push_back("KHR_mesh_quantization");
  // Positions in [0, 1] with 24-bit mantissas (one exponent per vector): within 1e-6; int8
  // octahedral normals within about 1/127 per component.
  expect_same_surface(import_asset(plain), import_asset(asset), 1e-6f, 0.03f);
}

TEST(GltfMeshopt, CorruptStreamIsRefused) {
  gltf::GltfAsset asset = gltf::compress_meshopt(skinned_grid(4).asset());
  for (const gltf::BufferView& v : asset.document.buffer_views) {
    if (!v.meshopt || v.meshopt->mode != gltf::MeshoptMode::Attributes) continue;
    for (std::uint64_t i = 0; i < v.meshopt->byte_length; ++i) asset.buffers[0][v.meshopt->byte_offset + i] = std::byte{0xFF};
    break;
  }
  const ImportError e = refusal([&] { import_asset(asset); });
  EXPECT_EQ(e.code(), ImportErrorCode::InvalidCompression) << e.what();
}

TEST(GltfMeshopt, DecodedSizeOtherThanTheViewIsRefusedBeforeDecoding) {
  gltf::GltfAsset asset = gltf::compress_meshopt(skinned_grid(4).asset());
  for (gltf::BufferView& v : asset.document.buffer_views) {
    if (v.meshopt) {
      v.meshopt->count += 1;
      break;
    }
  }
  const ImportError e = refusal([&] { import_asset(asset); });
  EXPECT_EQ(e.code(), ImportErrorCode::InvalidDocument) << e.what();
  EXPECT_NE(std::string(e.what()).find("EXT_meshopt_compression: count"), std::string::npos) << e.what();
}

TEST(GltfMeshopt, WrittenGlbAndGltfImportAsTheModel) {
  const Model model = import_asset(skinned_grid().asset());
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("marrow_meshopt_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  for (const char* name : {"grid.glb", "grid.gltf"}) {
    write_gltf(model, dir / name, GltfWriteOptions{true});
    const Model back = import_gltf(dir / name);
    expect_same_surface(model, back);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace marrow
