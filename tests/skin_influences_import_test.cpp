// S1 through the importers and writers: a glTF primitive's every JOINTS_n/WEIGHTS_n set and
// every Assimp bone weight reach the skinning job; posed vertices equal a double-precision
// reference (sum over all influences of w_i * palette[j_i] * v) at several times of an
// animation; ImportOptions::max_influences keeps the largest N, renormalised, counting the
// vertices it changed; the glTF writer and the native format keep every set; bad sets are
// refused or repaired with a message naming the mesh, primitive, set and vertex.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "gltf_fixture.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/asset/asset_loader.hpp"
#include "collada_skin_text.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::Fixture;
using test::MeshData;

// A vertex's influences as the file states them: joint (index into the file's skin joints or
// the Collada joint names) and weight.
struct FileInfluences {
  std::vector<std::vector<std::pair<int, float>>> vertices;
};

FileInfluences random_influences(std::size_t vertices, int per_vertex, int joints, std::mt19937& rng) {
  std::uniform_real_distribution<float> w(0.02f, 1.f);
  std::vector<int> order(static_cast<std::size_t>(joints));
  std::iota(order.begin(), order.end(), 0);
  FileInfluences out;
  for (std::size_t v = 0; v < vertices; ++v) {
    std::shuffle(order.begin(), order.end(), rng);  // distinct joints per vertex
    std::vector<std::pair<int, float>> list;
    float sum = 0.f;
    for (int i = 0; i < per_vertex; ++i) {
      list.emplace_back(order[static_cast<std::size_t>(i)], w(rng));
      sum += list.back().second;
    }
    for (auto& [j, weight] : list) weight /= sum;
    out.vertices.push_back(list);
  }
  return out;
}

constexpr int kJoints = 14;

// A glTF with a chain of kJoints joints (each turned and moved over two seconds) and a mesh of
// `vertices` vertices, each with `per_vertex` influences in ceil(per_vertex / 4) sets.
struct GltfRig {
  Fixture fixture;
  std::vector<std::uint32_t> joint_nodes;
  std::vector<glm::mat4> inverse_binds;
  std::vector<glm::vec3> positions;
  FileInfluences influences;
};

GltfRig make_gltf_rig(int per_vertex, std::size_t vertices, std::mt19937& rng) {
  GltfRig r;
  Fixture& f = r.fixture;
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int j = 0; j < kJoints; ++j) {
    r.joint_nodes.push_back(f.node("J" + std::to_string(j), j == 0 ? glm::vec3(0.f) : glm::vec3(0.f, 0.3f, 0.f)));
    if (j > 0) f.child(r.joint_nodes[static_cast<std::size_t>(j - 1)], r.joint_nodes.back());
    r.inverse_binds.push_back(glm::translate(glm::mat4(1.f), glm::vec3(0.f, -0.3f * static_cast<float>(j), 0.f)));
  }
  const auto body = f.node("Body");
  f.scene({r.joint_nodes[0], body});
  r.influences = random_influences(vertices, per_vertex, kJoints, rng);
  MeshData m;
  const int sets = (per_vertex + 3) / 4;
  m.more_joints.resize(static_cast<std::size_t>(sets - 1));
  m.more_weights.resize(static_cast<std::size_t>(sets - 1));
  for (std::size_t v = 0; v < vertices; ++v) {
    r.positions.emplace_back(u(rng), 2.f + 2.f * u(rng), u(rng));
    m.positions.push_back(r.positions.back());
    m.normals.push_back(glm::vec3(0, 0, 1));
    for (int set = 0; set < sets; ++set) {
      glm::u16vec4 j(0);
      glm::vec4 w(0.f);
      for (int c = 0; c < 4; ++c) {
        const auto i = static_cast<std::size_t>(4 * set + c);
        if (i >= r.influences.vertices[v].size()) continue;
        j[c] = static_cast<std::uint16_t>(r.influences.vertices[v][i].first);
        w[c] = r.influences.vertices[v][i].second;
      }
      if (set == 0) {
        m.joints.push_back(j);
        m.weights.push_back(w);
      } else {
        m.more_joints[static_cast<std::size_t>(set - 1)].push_back(j);
        m.more_weights[static_cast<std::size_t>(set - 1)].push_back(w);
      }
    }
  }
  f.doc().nodes[body].mesh = f.mesh(m);
  f.doc().nodes[body].skin = f.skin(r.joint_nodes, r.inverse_binds);
  const auto anim = f.animation("Sway");
  for (int j = 1; j < kJoints; ++j) {
    const glm::quat a = glm::angleAxis(0.3f * static_cast<float>(j % 3 + 1), glm::normalize(glm::vec3(1, static_cast<float>(j), 2)));
    const float s = j % 2 ? 0.1f : -0.1f;
    f.channel(anim, r.joint_nodes[static_cast<std::size_t>(j)], "rotation", gltf::SamplerInterpolation::Linear,
              {0.f, 2.f}, {0, 0, 0, 1, a.x, a.y, a.z, a.w});
    f.channel(anim, r.joint_nodes[static_cast<std::size_t>(j)], "translation", gltf::SamplerInterpolation::Linear,
              {0.f, 2.f}, {0, 0.3f, 0, s, 0.3f, -s});
  }
  return r;
}

// Positions of mesh 0 part 0 through the Animator at `seconds` of animation 0, in the file's
// vertex order.
std::vector<glm::vec3> posed(const Model& model, Animator& animator, double seconds) {
  animator.update(ticks_from_seconds(seconds), false, false);
  const ModelMeshPart& part = model.meshes[0].parts[0];
  std::vector<glm::vec3> p(part.vertex_count());
  animator.pose_part(0, 0, p);
  if (part.source_vertices.empty()) return p;
  std::vector<glm::vec3> out(part.source_vertex_count);
  for (std::size_t v = 0; v < p.size(); ++v) out[part.source_vertices[v]] = p[v];
  return out;
}

// sum_i w_i * W_joint(j_i) * IBM(j_i) * v in double precision, the weights renormalised as the
// importers do; W_joint from the animator's scene-node transforms.
glm::dvec3 reference_position(const Model& model, const Animator& animator, const std::vector<int>& joint_bones,
                              const std::vector<glm::mat4>& inverse_binds, const std::vector<std::pair<int, float>>& list,
                              const glm::vec3& position) {
  double sum = 0.0;
  for (const auto& [j, w] : list) sum += w;
  glm::dvec3 out(0.0);
  for (const auto& [j, w] : list) {
    const glm::dmat4 world(animator.absolute_bone_transforms()[static_cast<std::size_t>(joint_bones[static_cast<std::size_t>(j)])]);
    out += (static_cast<double>(w) / sum) * glm::dvec3(world * glm::dmat4(inverse_binds[static_cast<std::size_t>(j)]) *
                                                       glm::dvec4(glm::dvec3(position), 1.0));
  }
  (void)model;
  return out;
}

void expect_matches_reference(const Model& model, const GltfRig& rig) {
  std::vector<int> joint_bones;
  for (std::uint32_t node : rig.joint_nodes) joint_bones.push_back(model.source.node_to_bone[node]);
  Animator animator(model);
  animator.play(0);
  for (const double t : {0.0, 0.5, 1.3, 2.0}) {
    const std::vector<glm::vec3> got = posed(model, animator, t);
    for (std::size_t v = 0; v < got.size(); ++v) {
      const glm::dvec3 want = reference_position(model, animator, joint_bones, rig.inverse_binds, rig.influences.vertices[v],
                                                 rig.positions[v]);
      ASSERT_NEAR(got[v].x, want.x, 2e-5) << "t " << t << " vertex " << v;
      ASSERT_NEAR(got[v].y, want.y, 2e-5) << "t " << t << " vertex " << v;
      ASSERT_NEAR(got[v].z, want.z, 2e-5) << "t " << t << " vertex " << v;
    }
  }
  // The animation moves the vertices (the reference is not trivially the rest pose).
  const std::vector<glm::vec3> rest = posed(model, animator, 0.0), moved = posed(model, animator, 2.0);
  EXPECT_GT(glm::length(rest[0] - moved[0]), 0.05f);
}

TEST(SkinInfluences, S1_GltfWithEightAndTwelveInfluencesIsSkinnedByAllOfThem) {
  std::mt19937 rng(401);
  for (const int per_vertex : {8, 12}) {
    SCOPED_TRACE(::testing::Message() << per_vertex << " influences");
    GltfRig rig = make_gltf_rig(per_vertex, 61, rng);
    const Model model = rig.fixture.import();
    const ModelMeshPart& part = model.meshes[0].parts[0];
    EXPECT_EQ(part.layout.influences, static_cast<std::uint32_t>(per_vertex));
    EXPECT_EQ(part.layout.size(VertexAttribute::Joints0), 2u * static_cast<std::uint32_t>(per_vertex));
    expect_matches_reference(model, rig);
    // Cutting the file's sets to JOINTS_0/WEIGHTS_0 (what marrow read before S1) lands elsewhere.
    Model first_set = model;
    first_set.meshes[0].parts[0].layout.influences = 4;
    Animator full(model), cut(first_set);
    full.play(0);
    cut.play(0);
    EXPECT_GT(glm::length(posed(model, full, 1.0)[0] - posed(first_set, cut, 1.0)[0]), 1e-3f);
  }
}

TEST(SkinInfluences, S1_TheGltfWriterAndTheNativeFormatKeepEverySet) {
  std::mt19937 rng(403);
  GltfRig rig = make_gltf_rig(12, 23, rng);
  const Model model = rig.fixture.import();
  // glTF out and in again: JOINTS_0..2 / WEIGHTS_0..2.
  const gltf::GltfAsset asset = model_to_gltf(model);
  const gltf::Primitive& prim = asset.document.meshes[0].primitives[0];
  for (const char* semantic : {"JOINTS_0", "JOINTS_1", "JOINTS_2", "WEIGHTS_0", "WEIGHTS_1", "WEIGHTS_2"}) {
    EXPECT_NE(prim.find(semantic), gltf::kNone) << semantic;
  }
  EXPECT_EQ(prim.find("JOINTS_3"), gltf::kNone);
  const Model again = import_gltf(asset);
  EXPECT_EQ(again.meshes[0].parts[0].layout.influences, 12u);
  expect_matches_reference(again, rig);
  // Native out and in: the layout's influence count and the bytes.
  const Model native = read_native(write_native(model));
  EXPECT_EQ(native.meshes[0].parts[0].layout, model.meshes[0].parts[0].layout);
  EXPECT_EQ(native.meshes[0].parts[0].vertex_bytes, model.meshes[0].parts[0].vertex_bytes);
  expect_matches_reference(native, rig);
  // Six influences kept of twelve: two sets written, the slots past the sixth as zeros.
  ImportOptions six;
  six.max_influences = 6;
  const Model reduced = rig.fixture.import(six);
  const gltf::GltfAsset written = model_to_gltf(reduced);
  EXPECT_NE(written.document.meshes[0].primitives[0].find("WEIGHTS_1"), gltf::kNone);
  EXPECT_EQ(written.document.meshes[0].primitives[0].find("WEIGHTS_2"), gltf::kNone);
  const Model reduced_again = import_gltf(written);
  EXPECT_EQ(reduced_again.meshes[0].parts[0].layout.influences, 8u) << "two sets";
  Animator a(reduced), b(reduced_again);
  a.play(0);
  b.play(0);
  const std::vector<glm::vec3> pa = posed(reduced, a, 1.1), pb = posed(reduced_again, b, 1.1);
  for (std::size_t v = 0; v < pa.size(); ++v) EXPECT_TRUE(test::near(pa[v], pb[v], 1e-6f)) << v;
}

TEST(SkinInfluences, S1_MaxInfluencesKeepsTheLargestRenormalisedAndCountsTheVertices) {
  std::mt19937 rng(405);
  GltfRig rig = make_gltf_rig(12, 40, rng);
  ImportOptions options;
  options.max_influences = 4;
  const Model model = rig.fixture.import(options);
  const ModelMeshPart& part = model.meshes[0].parts[0];
  ASSERT_EQ(part.layout.influences, 4u);
  const Diagnostic* note = find_diagnostic(model.diagnostics, "skin-influences-reduced");
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(note->count, 40);
  EXPECT_NE(note->message.find("mesh 0 primitive 0"), std::string::npos) << note->message;
  EXPECT_NE(note->message.find("JOINTS_0..JOINTS_2"), std::string::npos) << note->message;
  const Skin& skin = model.skins[0];
  for (std::size_t v = 0; v < part.vertex_count(); ++v) {
    std::vector<std::pair<int, float>> file = rig.influences.vertices[v];
    std::stable_sort(file.begin(), file.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    float kept = 0.f;
    for (int i = 0; i < 4; ++i) kept += file[static_cast<std::size_t>(i)].second;
    const auto j = read_attribute<glm::u16vec4>(part.vertex_bytes, part.layout, v, VertexAttribute::Joints0);
    const auto w = read_attribute<glm::vec4>(part.vertex_bytes, part.layout, v, VertexAttribute::Weights0);
    for (int i = 0; i < 4; ++i) {
      const int node = skin.palette_to_scene[j[i]];
      EXPECT_EQ(model.nodes[static_cast<std::size_t>(node)].name, "J" + std::to_string(file[static_cast<std::size_t>(i)].first));
      EXPECT_NEAR(w[i], file[static_cast<std::size_t>(i)].second / kept, 1e-5f) << "vertex " << v;
    }
  }
  // N at or above the file's count changes nothing; with fewer nonzero weights than N nothing
  // is counted.
  options.max_influences = 12;
  const Model all = rig.fixture.import(options);
  EXPECT_EQ(all.meshes[0].parts[0].layout.influences, 12u);
  EXPECT_EQ(find_diagnostic(all.diagnostics, "skin-influences-reduced"), nullptr);
}

// The import of f refused with `code` and a message holding every part.
void expect_refused(Fixture& f, ImportErrorCode code, std::initializer_list<std::string> parts) {
  try {
    f.import();
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    return;
  }
  ADD_FAILURE() << "accepted";
}

// The model's diagnostic `code`, counting `count`, its message holding every part.
void expect_diagnostic(const Model& model, const char* code, int count, std::initializer_list<std::string> parts) {
  const Diagnostic* d = find_diagnostic(model.diagnostics, code);
  ASSERT_NE(d, nullptr) << code;
  EXPECT_EQ(d->count, count) << code;
  for (const std::string& p : parts) EXPECT_NE(d->message.find(p), std::string::npos) << d->message;
}

// The primitive's attribute `semantic` read from `accessor` instead.
void use_accessor(gltf::Primitive& prim, const std::string& semantic, std::uint32_t accessor) {
  for (gltf::Attribute& a : prim.attributes) {
    if (a.semantic == semantic) a.accessor = accessor;
  }
}

TEST(SkinInfluences, S1_BadSetsAreRefusedOrRepairedNamingMeshPrimitiveSetAndVertex) {
  std::mt19937 rng(407);
  {  // WEIGHTS_2 missing while JOINTS_2 is there.
    GltfRig rig = make_gltf_rig(12, 5, rng);
    auto& attributes = rig.fixture.doc().meshes[0].primitives[0].attributes;
    std::erase_if(attributes, [](const gltf::Attribute& a) { return a.semantic == "WEIGHTS_2"; });
    expect_refused(rig.fixture, ImportErrorCode::InvalidMesh, {"mesh 0 primitive 0", "3 JOINTS sets", "2 WEIGHTS sets"});
  }
  {  // A joint index past the skin in the third set.
    GltfRig rig = make_gltf_rig(12, 5, rng);
    gltf::Primitive& prim = rig.fixture.doc().meshes[0].primitives[0];
    std::vector<std::uint16_t> bad(5 * 4, 1);
    bad[3 * 4 + 2] = 99;
    use_accessor(prim, "JOINTS_2", rig.fixture.builder().add_uint16(bad, gltf::AccessorType::Vec4));
    expect_refused(rig.fixture, ImportErrorCode::InvalidMesh, {"mesh 0 primitive 0", "vertex 3 JOINTS_2 value 99", "14 joints"});
  }
  {  // Negative weights are set to 0 (a diagnostic names the first); a vertex whose weights sum
     // to zero rides on its first joint.
    GltfRig rig = make_gltf_rig(8, 5, rng);
    gltf::Primitive& prim = rig.fixture.doc().meshes[0].primitives[0];
    std::vector<float> w1(5 * 4, 0.1f);
    w1[2 * 4 + 1] = -0.25f;
    std::vector<float> w0(5 * 4, 0.1f);
    for (int c = 0; c < 4; ++c) {
      w0[4 * 4 + static_cast<std::size_t>(c)] = 0.f;
      w1[4 * 4 + static_cast<std::size_t>(c)] = 0.f;
    }
    use_accessor(prim, "WEIGHTS_0", rig.fixture.builder().add_floats(w0, gltf::AccessorType::Vec4));
    use_accessor(prim, "WEIGHTS_1", rig.fixture.builder().add_floats(w1, gltf::AccessorType::Vec4));
    const Model model = rig.fixture.import();
    expect_diagnostic(model, "skin-weights-negative", 1, {"mesh 0 primitive 0", "vertex 2 WEIGHTS_1 value -0.25"});
    expect_diagnostic(model, "skin-weights-zero", 1, {"WEIGHTS_0..WEIGHTS_1", "vertex 4"});
    const ModelMeshPart& part = model.meshes[0].parts[0];
    EXPECT_EQ(read_attribute<glm::vec4>(part.vertex_bytes, part.layout, 4, VertexAttribute::Weights0), glm::vec4(1, 0, 0, 0));
    float w[8];
    std::memcpy(w, part.vertex_bytes.data() + 2 * part.layout.stride + part.layout.offset(VertexAttribute::Weights0), 32);
    EXPECT_EQ(w[5], 0.f) << "the negative weight";
    EXPECT_NEAR(w[0] + w[1] + w[2] + w[3] + w[4] + w[6] + w[7], 1.f, 1e-6f);
  }
}

// One set (the common case, read by a loop of its own while no vertex needs a repair): the
// vertices that need one, wherever they lie among plain ones, are repaired and counted exactly
// as with several sets, and the plain ones after them are read on; joints stored as bytes or
// shorts alike.
TEST(SkinInfluences, S1_OneSetRepairsAmongPlainVerticesAreMadeAndCountedOnce) {
  std::mt19937 rng(409);
  GltfRig plain = make_gltf_rig(4, 31, rng);
  expect_matches_reference(plain.fixture.import(), plain);
  const glm::vec4 kPlain(0.5f, 0.25f, 0.125f, 0.125f);
  std::vector<glm::vec4> w(10, kPlain);
  w[2] = glm::vec4(0.5f, -0.25f, 0.5f, 0.f);  // negative: set to 0
  w[4] = glm::vec4(0.f);                      // no weight: the first joint alone
  w[6] = glm::vec4(0.2f);                     // sums to 0.8: renormalised
  w[7] = glm::vec4(0.6f, 0.2f, 0.2f, 0.1f);   // sums to 1.1: renormalised
  for (const bool bytes : {false, true}) {
    SCOPED_TRACE(bytes ? "u8 joints" : "u16 joints");
    GltfRig rig = make_gltf_rig(4, 10, rng);
    gltf::Primitive& prim = rig.fixture.doc().meshes[0].primitives[0];
    std::vector<float> flat;
    for (const glm::vec4& v : w) flat.insert(flat.end(), {v.x, v.y, v.z, v.w});
    const std::uint32_t weights = rig.fixture.builder().add_floats(flat, gltf::AccessorType::Vec4);
    std::vector<std::uint8_t> j8;
    std::vector<std::uint16_t> j16;
    for (std::size_t v = 0; v < 10; ++v) {
      for (std::uint8_t c = 0; c < 4; ++c) {
        j8.push_back(static_cast<std::uint8_t>((v + c) % kJoints));
        j16.push_back(static_cast<std::uint16_t>((v + c) % kJoints));
      }
    }
    const auto joints_accessor = [&] {
      return bytes ? rig.fixture.builder().add_uint8(j8, gltf::AccessorType::Vec4)
                   : rig.fixture.builder().add_uint16(j16, gltf::AccessorType::Vec4);
    };
    use_accessor(prim, "WEIGHTS_0", weights);
    use_accessor(prim, "JOINTS_0", joints_accessor());
    const Model model = rig.fixture.import();
    expect_diagnostic(model, "skin-weights-negative", 1, {"vertex 2 WEIGHTS_0 value -0.25"});
    expect_diagnostic(model, "skin-weights-zero", 1, {"vertex 4"});
    expect_diagnostic(model, "skin-weights-renormalized", 2, {});  // vertices 6 and 7
    const ModelMeshPart& part = model.meshes[0].parts[0];
    const std::vector<int>& source_joints = model.skins[0].source_joints;  // per palette index
    const auto palette_of = [&](std::size_t file_joint) {
      return std::find(source_joints.begin(), source_joints.end(), static_cast<int>(file_joint)) - source_joints.begin();
    };
    for (std::size_t v = 0; v < 10; ++v) {
      const glm::vec4 got = read_attribute<glm::vec4>(part.vertex_bytes, part.layout, v, VertexAttribute::Weights0);
      const glm::vec4 kept = glm::max(w[v], glm::vec4(0.f));
      const float sum = ((kept.x + kept.y) + kept.z) + kept.w;
      EXPECT_EQ(got, v == 4 ? glm::vec4(1, 0, 0, 0) : kept / sum) << "vertex " << v;
      glm::u16vec4 stored;
      std::memcpy(&stored, part.vertex_bytes.data() + v * part.layout.stride + part.layout.offset(VertexAttribute::Joints0),
                  sizeof stored);
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(stored[c], palette_of((v + static_cast<std::size_t>(c)) % kJoints)) << "vertex " << v << " slot " << c;
      }
    }
    // A joint past the skin after plain vertices: refused, naming that vertex.
    j16[7 * 4 + 3] = 99;
    j8[7 * 4 + 3] = 99;
    use_accessor(prim, "JOINTS_0", joints_accessor());
    expect_refused(rig.fixture, ImportErrorCode::InvalidMesh, {"vertex 7 JOINTS_0 value 99"});
  }
}

// ---------------------------------------------------------------------------------------------
// Assimp: a Collada file whose vertices carry 8 or 12 bone weights, animated.

struct ColladaRig {
  std::string text;
  std::vector<glm::vec3> positions;  // unique, so vertices can be found after Assimp's reorder
  std::vector<glm::mat4> inverse_binds;
  FileInfluences influences;
};

std::string matrix_text(const glm::mat4& m) {  // Collada: row-major
  std::ostringstream out;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) out << m[c][r] << ' ';
  }
  return out.str();
}

// kJoints joints in a chain 0.3 apart under an "Armature" node, each turning over two seconds
// (matrix keys at 0, 1, 2 s); triangles whose vertices carry `per_vertex` weights each.
ColladaRig make_collada_rig(int per_vertex, std::size_t triangles, std::mt19937& rng) {
  ColladaRig r;
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const std::size_t vertices = triangles * 3;
  for (std::size_t v = 0; v < vertices; ++v) r.positions.emplace_back(u(rng), 2.f + 2.f * u(rng), u(rng));
  r.influences = random_influences(vertices, per_vertex, kJoints, rng);
  std::ostringstream x;
  x.precision(9);
  x << R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
<library_geometries><geometry id="body" name="body"><mesh>
<source id="body-positions"><float_array id="body-positions-array" count=")"
    << vertices * 3 << "\">";
  for (const glm::vec3& p : r.positions) x << p.x << ' ' << p.y << ' ' << p.z << ' ';
  x << R"(</float_array><technique_common><accessor source="#body-positions-array" count=")" << vertices
    << R"(" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="body-vertices"><input semantic="POSITION" source="#body-positions"/></vertices>
<triangles count=")"
    << triangles << R"("><input semantic="VERTEX" source="#body-vertices" offset="0"/><p>)";
  for (std::size_t v = 0; v < vertices; ++v) x << v << ' ';
  x << R"(</p></triangles></mesh></geometry></library_geometries>
<library_controllers><controller id="skin" name="skin"><skin source="#body">
<bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>
<source id="skin-joints"><Name_array id="skin-joints-array" count=")"
    << kJoints << "\">";
  for (int j = 0; j < kJoints; ++j) x << 'J' << j << ' ';
  x << R"(</Name_array><technique_common><accessor source="#skin-joints-array" count=")" << kJoints
    << R"(" stride="1"><param name="JOINT" type="name"/></accessor></technique_common></source>
<source id="skin-binds"><float_array id="skin-binds-array" count=")"
    << kJoints * 16 << "\">";
  for (int j = 0; j < kJoints; ++j) {
    r.inverse_binds.push_back(glm::translate(glm::mat4(1.f), glm::vec3(0.f, -0.3f * static_cast<float>(j), 0.f)));
    x << matrix_text(r.inverse_binds.back());
  }
  test::write_collada_skin_weights(x, kJoints, r.influences.vertices);
  x << R"(</skin></controller></library_controllers>
<library_animations>
)";
  // Joint j's local matrix at 0, 1, 2 s: its offset, then turned about a joint-specific axis.
  const auto local = [](int j, float seconds) {
    const glm::vec3 offset(0.f, j == 0 ? 0.f : 0.3f, 0.f);
    return glm::translate(glm::mat4(1.f), offset) *
           glm::mat4_cast(glm::angleAxis(0.15f * seconds * static_cast<float>(j % 3 + 1),
                                         glm::normalize(glm::vec3(1.f, static_cast<float>(j), 2.f))));
  };
  for (int j = 1; j < kJoints; ++j) {
    const std::string id = "J" + std::to_string(j);
    x << "<animation id=\"" << id << "-anim\"><source id=\"" << id << "-in\"><float_array id=\"" << id
      << "-in-array\" count=\"3\">0 1 2</float_array><technique_common><accessor source=\"#" << id
      << "-in-array\" count=\"3\" stride=\"1\"><param name=\"TIME\" type=\"float\"/></accessor></technique_common></source>"
      << "<source id=\"" << id << "-out\"><float_array id=\"" << id << "-out-array\" count=\"48\">" << matrix_text(local(j, 0.f))
      << matrix_text(local(j, 1.f)) << matrix_text(local(j, 2.f)) << "</float_array><technique_common><accessor source=\"#" << id
      << "-out-array\" count=\"3\" stride=\"16\"><param name=\"TRANSFORM\" type=\"float4x4\"/></accessor></technique_common></source>"
      << "<source id=\"" << id << "-interp\"><Name_array id=\"" << id
      << "-interp-array\" count=\"3\">LINEAR LINEAR LINEAR</Name_array><technique_common><accessor source=\"#" << id
      << "-interp-array\" count=\"3\" stride=\"1\"><param name=\"INTERPOLATION\" type=\"name\"/></accessor></technique_common></source>"
      << "<sampler id=\"" << id << "-sampler\"><input semantic=\"INPUT\" source=\"#" << id
      << "-in\"/><input semantic=\"OUTPUT\" source=\"#" << id << "-out\"/><input semantic=\"INTERPOLATION\" source=\"#" << id
      << "-interp\"/></sampler><channel source=\"#" << id << "-sampler\" target=\"" << id << "/transform\"/></animation>\n";
  }
  x << R"(</library_animations>
<library_visual_scenes><visual_scene id="scene" name="scene">
<node id="Armature" name="Armature" type="NODE"><matrix sid="transform">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</matrix>
)";
  for (int j = 0; j < kJoints; ++j) {
    x << "<node id=\"J" << j << "\" name=\"J" << j << "\" sid=\"J" << j << "\" type=\"JOINT\"><matrix sid=\"transform\">"
      << matrix_text(local(j, 0.f)) << "</matrix>\n";
  }
  for (int j = 0; j < kJoints; ++j) x << "</node>";
  x << R"(
</node>
<node id="Body" name="Body" type="NODE"><instance_controller url="#skin"><skeleton>#J0</skeleton></instance_controller></node>
</visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
  r.text = x.str();
  return r;
}

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

TEST(SkinInfluences, S1_ColladaWithEightAndTwelveBoneWeightsIsSkinnedByAllOfThem) {
  std::mt19937 rng(409);
  for (const int per_vertex : {8, 12}) {
    SCOPED_TRACE(::testing::Message() << per_vertex << " bone weights per vertex");
    const ColladaRig rig = make_collada_rig(per_vertex, 9, rng);
    const Model model = import_assimp(bytes_of(rig.text), "dae");
    ASSERT_EQ(model.meshes.size(), 1u);
    ASSERT_EQ(model.meshes[0].skin, 0);
    const ModelMeshPart& part = model.meshes[0].parts[0];
    EXPECT_EQ(part.layout.influences, static_cast<std::uint32_t>(per_vertex)) << "every bone weight, in sets of four";
    EXPECT_EQ(find_diagnostic(model.diagnostics, "bone-influences-limited"), nullptr);
    std::vector<int> joint_bones(kJoints, -1);
    for (std::size_t b = 0; b < model.nodes.size(); ++b) {
      for (int j = 0; j < kJoints; ++j) {
        if (model.nodes[b].name == "J" + std::to_string(j)) joint_bones[static_cast<std::size_t>(j)] = static_cast<int>(b);
      }
    }
    Animator animator(model);
    animator.play(0);
    double largest_motion = 0.0;
    for (const double t : {0.0, 0.7, 1.5, 2.0}) {
      animator.update(ticks_from_seconds(t), false, false);
      std::vector<glm::vec3> got(part.vertex_count());
      animator.pose_part(0, 0, got);
      // Assimp may reorder vertices: each posed vertex is found by its rest position.
      const auto rest = attribute_view<glm::vec3>(part.vertex_bytes, part.layout, VertexAttribute::Position);
      for (std::size_t v = 0; v < got.size(); ++v) {
        const glm::vec3 p = rest.load(v);
        std::size_t file = rig.positions.size();
        for (std::size_t k = 0; k < rig.positions.size(); ++k) {
          if (glm::length(rig.positions[k] - p) < 1e-5f) file = k;
        }
        ASSERT_LT(file, rig.positions.size()) << "vertex " << v;
        const glm::dvec3 want = reference_position(model, animator, joint_bones, rig.inverse_binds,
                                                   rig.influences.vertices[file], rig.positions[file]);
        ASSERT_NEAR(got[v].x, want.x, 2e-5) << "t " << t << " vertex " << v;
        ASSERT_NEAR(got[v].y, want.y, 2e-5) << "t " << t << " vertex " << v;
        ASSERT_NEAR(got[v].z, want.z, 2e-5) << "t " << t << " vertex " << v;
        largest_motion = std::max(largest_motion, glm::length(glm::dvec3(p) - want));
      }
    }
    EXPECT_GT(largest_motion, 0.05) << "the animation moves the vertices";
    // Reduced to four on request, with the vertices counted.
    AssimpOptions four;
    four.import.max_influences = 4;
    const Model reduced = import_assimp(bytes_of(rig.text), "dae", four);
    EXPECT_EQ(reduced.meshes[0].parts[0].layout.influences, 4u);
    const Diagnostic* note = find_diagnostic(reduced.diagnostics, "skin-influences-reduced");
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->count, 27);
  }
}

TEST(SkinInfluences, T16_S1_TheAssetApiGivesTheFourLargestRenormalised) {
  std::mt19937 rng(411);
  GltfRig rig = make_gltf_rig(12, 7, rng);
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "marrow_s1_t16.glb";
  {
    const std::vector<std::byte> glb = rig.fixture.glb();
    std::FILE* f = std::fopen(path.string().c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(glb.data(), 1, glb.size(), f);
    std::fclose(f);
  }
  asset::AssetLoader loader([](const std::string&) {});
  const std::shared_ptr<asset::Mesh> mesh = loader.load_mesh(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(mesh->is_skeletal());
  const auto vertices = mesh->vertices();
  ASSERT_EQ(vertices.size(), 7u);
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    std::vector<std::pair<int, float>> file = rig.influences.vertices[v];
    std::stable_sort(file.begin(), file.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    const float kept = file[0].second + file[1].second + file[2].second + file[3].second;
    float sum = 0.f;
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(vertices[v].bone_weights[static_cast<std::size_t>(i)], file[static_cast<std::size_t>(i)].second / kept, 1e-5f);
      sum += vertices[v].bone_weights[static_cast<std::size_t>(i)];
    }
    EXPECT_NEAR(sum, 1.f, 1e-6f);
  }
}

}  // namespace
}  // namespace marrow
