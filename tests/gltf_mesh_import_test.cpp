// glTF import of mesh data: flat normals, strips, sparse morph targets, quantized attributes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "gltf_fixture.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"
#include "reports/pose_report.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/model/animator.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using gltf::AccessorType;
using test::Fixture;
using test::MeshData;
using test::near;

TEST(GltfMesh, G13_PrimitiveWithoutNormalsGetsFlatNormalsAndKeepsFileVertexOrder) {
  Fixture f;
  const auto n = f.node("Tent");
  f.scene({n});
  MeshData m;  // two triangles sharing an edge, folded, plus one vertex no triangle uses
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {9, 9, 9}};
  m.indices = {0, 1, 2, 0, 2, 3};
  m.position_targets = {{{0, 0, 0}, {0, 0, 1}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
  f.doc().nodes[n].mesh = f.mesh(m);
  const Model model = f.import();
  const ModelMeshPart& part = model.meshes[0].parts[0];
  ASSERT_TRUE(part.layout.has(VertexAttribute::Normal));
  EXPECT_EQ(part.vertex_count(), 7u) << "6 split corners + the unused vertex";
  EXPECT_EQ(part.indices.size(), 6u);
  EXPECT_EQ(part.source_vertices, std::vector<std::uint32_t>({0, 1, 2, 0, 2, 3, 4}));
  // Face normals: (0,0,1) for the first triangle, (1,0,0) for the second.
  EXPECT_TRUE(near(read_attribute<glm::vec3>(part.vertex_bytes, part.layout, 0, VertexAttribute::Normal), {0, 0, 1}));
  EXPECT_TRUE(near(read_attribute<glm::vec3>(part.vertex_bytes, part.layout, 3, VertexAttribute::Normal), {1, 0, 0}));
  ASSERT_TRUE(part.morph.has_value());
  EXPECT_TRUE(part.morph->recompute_flat_normals);
  // The pose report gives the file's 5 vertices in the file's order.
  const PoseReport report = pose_at(model, -1, 0.0);
  ASSERT_EQ(report.meshes.size(), 1u);
  EXPECT_EQ(report.meshes[0].positions.size(), 5u);
  EXPECT_TRUE(near(report.meshes[0].positions[4], {9, 9, 9}));
  EXPECT_TRUE(report.meshes[0].normals.empty()) << "the file authored no normals";
  // Morphing lifts vertex 1: the first face's normal is recomputed from the morphed positions.
  MorphTargetData morph = *part.morph;
  std::vector<std::byte> out(morph.base_vertex_bytes.size());
  const float w[] = {1.f};
  blend_morph_targets(morph, w, out);
  EXPECT_TRUE(near(read_attribute<glm::vec3>(out, part.layout, 0, VertexAttribute::Normal), {-0.70710678f, 0, 0.70710678f}));
}

// Fuzz finding: an index count that is not a multiple of 3 reached the flat-normal triangle list
// of a morph carrier, which validate() refuses. The trailing indices are dropped, with a diagnostic.
bool has_diagnostic(const Model& model, const std::string& code) {
  return std::any_of(model.diagnostics.begin(), model.diagnostics.end(), [&](const Diagnostic& d) { return to_string(d.code) == code; });
}

TEST(GltfMesh, IncompleteTriangleIsDroppedWithADiagnostic) {
  for (const bool indexed : {true, false}) {
    for (const bool with_normals : {false, true}) {
      SCOPED_TRACE(std::string(indexed ? "indexed, " : "unindexed, ") + (with_normals ? "normals" : "flat"));
      Fixture f;
      const auto n = f.node("Torn");
      f.scene({n});
      MeshData m;
      m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
      if (with_normals) m.normals.assign(4, glm::vec3(0, 0, 1));
      if (indexed) m.indices = {0, 1, 2, 0, 2};  // unindexed: 4 vertices, the last one left over
      m.position_targets = {{{0, 0, 0}, {0, 0, 1}, {0, 0, 0}, {0, 0, 0}}};
      f.doc().nodes[n].mesh = f.mesh(m);
      const Model model = f.import();
      const ModelMeshPart& part = model.meshes[0].parts[0];
      // Flat shading splits the one whole triangle into its own 3 vertices and lists them.
      EXPECT_EQ(part.indices.size(), indexed || !with_normals ? 3u : 0u);
      ASSERT_TRUE(part.morph.has_value());
      EXPECT_EQ(part.morph->triangle_indices.size(), with_normals ? 0u : 3u);
      EXPECT_TRUE(has_diagnostic(model, "incomplete-triangle-dropped"));
      validate(model);
    }
  }
}

TEST(GltfMesh, ShortStripIsEmptyWithoutAnIncompleteTriangleDiagnostic) {
  Fixture f;
  const auto n = f.node("Short");
  f.scene({n});
  MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}};
  m.normals.assign(2, glm::vec3(0, 0, 1));
  m.mode = 5;
  f.doc().nodes[n].mesh = f.mesh(m);
  const Model model = f.import();
  EXPECT_TRUE(model.meshes[0].parts[0].indices.empty());
  EXPECT_FALSE(has_diagnostic(model, "incomplete-triangle-dropped"));
}

TEST(GltfMesh, StripsAndFansBecomeTriangleLists) {
  Fixture f;
  const auto a = f.node("Strip"), b = f.node("Fan");
  f.scene({a, b});
  MeshData strip;
  strip.positions = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {2, 0, 0}};
  strip.normals.assign(5, glm::vec3(0, 0, 1));
  strip.mode = 5;
  f.doc().nodes[a].mesh = f.mesh(strip);
  MeshData fan = strip;
  fan.mode = 6;
  f.doc().nodes[b].mesh = f.mesh(fan);
  const Model model = f.import();
  EXPECT_EQ(model.meshes[0].parts[0].mode, PrimitiveMode::Triangles);
  // glTF 2.0 3.7.2.1: p_i = {v_i, v_{i+(1+i%2)}, v_{i+(2-i%2)}}; fans p_i = {v_{i+1}, v_{i+2}, v_0}.
  EXPECT_EQ(model.meshes[0].parts[0].indices, std::vector<std::uint32_t>({0, 1, 2, 1, 3, 2, 2, 3, 4}));
  EXPECT_EQ(model.meshes[1].parts[0].indices, std::vector<std::uint32_t>({1, 2, 0, 2, 3, 0, 3, 4, 0}));
}

TEST(GltfMesh, SparseMorphTargetAccessor) {
  Fixture f;
  const auto n = f.node("Sparse");
  f.scene({n});
  MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.normals.assign(4, glm::vec3(0, 0, 1));
  m.indices = {0, 1, 2, 2, 1, 3};
  f.doc().nodes[n].mesh = f.mesh(m);
  // Target POSITION: no bufferView (zeros) and a sparse entry moving vertex 3 by (0, 0, 2).
  const std::uint32_t indices[] = {3};
  const float values[] = {0, 0, 2};
  gltf::Accessor target;
  target.component_type = gltf::ComponentType::Float;
  target.type = AccessorType::Vec3;
  target.count = 4;
  target.min = {0, 0, 0};
  target.max = {0, 0, 2};
  gltf::SparseAccessor sparse;
  sparse.count = 1;
  sparse.indices_buffer_view = f.builder().add_buffer_view(std::as_bytes(std::span(indices)));
  sparse.indices_component_type = gltf::ComponentType::UnsignedInt;
  sparse.values_buffer_view = f.builder().add_buffer_view(std::as_bytes(std::span(values)));
  target.sparse = sparse;
  f.doc().accessors.push_back(target);
  f.doc().meshes[0].primitives[0].targets.push_back({{"POSITION", static_cast<std::uint32_t>(f.doc().accessors.size() - 1)}});
  f.doc().nodes[n].weights = {0.5f};
  const Model model = f.import();
  const auto posed = test::posed_positions(model, 0);
  EXPECT_TRUE(near(posed[3], {1, 1, 1}));
  EXPECT_TRUE(near(posed[2], {0, 1, 0}));
}

TEST(GltfMesh, QuantizedAttributesAreDecoded) {
  Fixture f;
  const auto n = f.node("Quantized");
  f.scene({n});
  f.doc().extensions_used = {"KHR_mesh_quantization"};
  f.doc().extensions_required = {"KHR_mesh_quantization"};
  const std::int16_t positions[] = {0, 0, 0, 32767, 0, 0, 0, -32767, 0};  // normalized: 1 and -1
  const std::int8_t normals[] = {0, 0, 127, 0, 0, 127, 0, 0, 127};
  gltf::Primitive prim;
  prim.attributes = {{"POSITION", f.builder().add_int16(positions, AccessorType::Vec3, true)},
                     {"NORMAL", f.builder().add_int8(normals, AccessorType::Vec3, true)}};
  f.doc().meshes.push_back(gltf::Mesh{"", {prim}, {}, {}});
  f.doc().nodes[n].mesh = 0;
  const Model model = f.import();
  const ModelMeshPart& part = model.meshes[0].parts[0];
  EXPECT_TRUE(near(read_attribute<glm::vec3>(part.vertex_bytes, part.layout, 1, VertexAttribute::Position), {1, 0, 0}));
  EXPECT_TRUE(near(read_attribute<glm::vec3>(part.vertex_bytes, part.layout, 2, VertexAttribute::Position), {0, -1, 0}));
  EXPECT_TRUE(near(read_attribute<glm::vec3>(part.vertex_bytes, part.layout, 0, VertexAttribute::Normal), {0, 0, 1}));
}

TEST(GltfMesh, G19_JointsAsBytesAndWeightsAsUnorm) {
  Fixture f;
  const auto j0 = f.node("J0"), j1 = f.node("J1", {0, 1, 0}), body = f.node("Body");
  f.child(j0, j1);
  f.scene({j0, body});
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::uint8_t joints[] = {1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
  const std::uint8_t weights[] = {255, 0, 0, 0, 128, 127, 0, 0, 200, 0, 0, 0};  // the last sums to 200/255
  gltf::Primitive prim;
  prim.attributes = {{"POSITION", f.builder().add_floats(positions, AccessorType::Vec3)},
                     {"JOINTS_0", f.builder().add_uint8(joints, AccessorType::Vec4)},
                     {"WEIGHTS_0", f.builder().add_uint8(weights, AccessorType::Vec4, true)}};
  f.doc().meshes.push_back(gltf::Mesh{"", {prim}, {}, {}});
  f.doc().nodes[body].mesh = 0;
  f.doc().nodes[body].skin = f.skin({j0, j1}, {glm::mat4(1.f), glm::inverse(test::node_world(f.doc(), j1))});
  const Model model = f.import();
  const ModelMeshPart& part = model.meshes[0].parts[0];
  const glm::vec4 w1 = read_attribute<glm::vec4>(part.vertex_bytes, part.layout, 1, VertexAttribute::Weights0);
  EXPECT_NEAR(w1.x, 128.f / 255.f, 1e-6f);
  EXPECT_NEAR(w1.y, 127.f / 255.f, 1e-6f);
  const glm::vec4 w2 = read_attribute<glm::vec4>(part.vertex_bytes, part.layout, 2, VertexAttribute::Weights0);
  EXPECT_FLOAT_EQ(w2.x, 1.f) << "renormalised";
  ASSERT_NE(find_diagnostic(model.diagnostics, "skin-weights-renormalized"), nullptr);
  EXPECT_EQ(read_attribute<glm::u16vec4>(part.vertex_bytes, part.layout, 0, VertexAttribute::Joints0), glm::u16vec4(1, 0, 0, 0));
}

// Float weights are read in place and renormalised as they are written into the vertices, also
// when a primitive without normals is split into one vertex per triangle corner.
TEST(GltfMesh, G19_FloatWeightsRenormalisedIntoSplitVertices) {
  Fixture f;
  const auto j0 = f.node("J0"), j1 = f.node("J1", {0, 1, 0}), body = f.node("Body");
  f.child(j0, j1);
  f.scene({j0, body});
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const std::uint8_t joints[] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
  const float weights[] = {1, 1, 0, 0, 0, 0, 0, 0, 0.25f, 0.75f, 0, 0, 0.5f, 0, 0, 0};  // sums 2, 0, 1, 0.5
  const std::uint16_t indices[] = {0, 1, 2, 2, 1, 3};
  gltf::Primitive prim;
  prim.attributes = {{"POSITION", f.builder().add_floats(positions, AccessorType::Vec3)},
                     {"JOINTS_0", f.builder().add_uint8(joints, AccessorType::Vec4)},
                     {"WEIGHTS_0", f.builder().add_floats(weights, AccessorType::Vec4)}};
  prim.indices = f.builder().add_uint16(indices, AccessorType::Scalar);
  f.doc().meshes.push_back(gltf::Mesh{"", {prim}, {}, {}});
  f.doc().nodes[body].mesh = 0;
  f.doc().nodes[body].skin = f.skin({j0, j1}, {glm::mat4(1.f), glm::inverse(test::node_world(f.doc(), j1))});
  const Model model = f.import();
  const ModelMeshPart& part = model.meshes[0].parts[0];
  ASSERT_EQ(part.source_vertices.size(), 6u) << "split: one vertex per corner";
  const glm::vec4 expected[] = {{0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}, {0.25f, 0.75f, 0, 0}, {1, 0, 0, 0}};
  for (std::uint32_t v = 0; v < 6; ++v) {
    const glm::vec4 w = read_attribute<glm::vec4>(part.vertex_bytes, part.layout, v, VertexAttribute::Weights0);
    EXPECT_EQ(w, expected[part.source_vertices[v]]) << "vertex " << v << " (file vertex " << part.source_vertices[v] << ")";
  }
  const Diagnostic* renormalised = find_diagnostic(model.diagnostics, "skin-weights-renormalized");
  ASSERT_NE(renormalised, nullptr);
  EXPECT_NE(renormalised->message.find("2 vertices"), std::string::npos) << renormalised->message;
  // The vertex whose weights sum to 0 rides on its first joint, counted on its own (S1).
  const Diagnostic* zero = find_diagnostic(model.diagnostics, "skin-weights-zero");
  ASSERT_NE(zero, nullptr);
  EXPECT_NE(zero->message.find("1 vertices"), std::string::npos) << zero->message;
}

TEST(GltfMesh, MissingOrForeignImagesNeverFailAnImport) {
  Fixture f;
  const auto n = f.node("Textured");
  f.scene({n});
  MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  f.doc().nodes[n].mesh = f.mesh(m);
  f.doc().images.push_back(gltf::Image{"missing", "does-not-exist.png", gltf::kNone, ""});
  f.doc().images.push_back(gltf::Image{"remote", "https://example.com/skin.png", gltf::kNone, ""});
  f.doc().images.push_back(gltf::Image{"garbage", "data:image/png;base64,!!!!", gltf::kNone, ""});
  const Model model = f.import();
  EXPECT_EQ(model.meshes.size(), 1u);
}

TEST(GltfMesh, AttributeCountMismatchIsRefused) {
  Fixture f;
  const auto n = f.node("Bad");
  f.scene({n});
  MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}};
  f.doc().nodes[n].mesh = f.mesh(m);
  try {
    f.import();
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::InvalidMesh);
    EXPECT_NE(std::string(e.what()).find("mesh 0 primitive 0: NORMAL has 2 elements, POSITION has 3"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace marrow
