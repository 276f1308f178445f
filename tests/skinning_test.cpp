// runtime/: SkinningData validation and CPU linear-blend skinning (G19).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/vertex_layout.hpp"
#include "marrow/runtime/skinning_data.hpp"
#include "marrow/runtime/skinning_job.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;
using test::throws_with;

TEST(SkinningData, ValidateNamesFieldAndSizes) {
  SkinningData d;
  d.bone_count = 2;
  d.skeleton_hierarchy = {-1, 0};
  d.bind_pose = {glm::mat4(1.f), glm::mat4(1.f)};
  d.inverse_bind_pose = {glm::mat4(1.f)};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(d); },
                                                 {"inverse_bind_pose has 1 entries, bone_count is 2"}));
  d.inverse_bind_pose.push_back(glm::mat4(1.f));
  EXPECT_NO_THROW(validate(d));
  d.skeleton_root_prefix = {glm::mat4(1.f)};  // mismatched prefix means identity, not an error
  EXPECT_NO_THROW(validate(d));
  d.bind_pose[1][0][0] = std::nanf("");
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(d); }, {"bind_pose[1]", "not finite"}));
}

struct Mesh {
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> tangents;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
};

Mesh random_mesh(std::size_t n, std::uint16_t palette, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> j(0, palette - 1);
  Mesh m;
  for (std::size_t i = 0; i < n; ++i) {
    m.positions.push_back({u(rng), u(rng), u(rng)});
    m.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 2)));
    m.tangents.push_back(glm::vec4(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(2, 0, 0)),
                                   i % 2 ? 1.f : -1.f));
    m.joints.push_back(glm::u16vec4(j(rng), j(rng), j(rng), j(rng)));
    glm::vec4 w(std::fabs(u(rng)), std::fabs(u(rng)), std::fabs(u(rng)), std::fabs(u(rng)));
    m.weights.push_back(w / (w.x + w.y + w.z + w.w));
  }
  return m;
}

std::vector<glm::mat4> random_palette(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::mat4> p;
  for (std::size_t i = 0; i < n; ++i) {
    p.push_back(glm::translate(glm::mat4(1.f), glm::vec3(u(rng), u(rng), u(rng))) *
                glm::mat4_cast(glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)))));
  }
  return p;
}

TEST(SkinningJob, G19_FourInfluencesPerVertexMatchTheFormula) {
  std::mt19937 rng(7);
  const Mesh mesh = random_mesh(257, 12, rng);
  const auto palette = random_palette(12, rng);
  std::vector<glm::vec3> out_p(mesh.positions.size()), out_n(mesh.positions.size());
  std::vector<glm::vec4> out_t(mesh.positions.size());
  SkinningJob job;
  job.palette = palette;
  job.joints = std::span<const glm::u16vec4>(mesh.joints);
  job.weights = std::span<const glm::vec4>(mesh.weights);
  job.in_positions = std::span<const glm::vec3>(mesh.positions);
  job.out_positions = std::span<glm::vec3>(out_p);
  job.in_normals = std::span<const glm::vec3>(mesh.normals);
  job.out_normals = std::span<glm::vec3>(out_n);
  job.in_tangents = std::span<const glm::vec4>(mesh.tangents);
  job.out_tangents = std::span<glm::vec4>(out_t);
  job.run();
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    glm::mat4 s(0.f);
    for (int i = 0; i < 4; ++i) s += palette[mesh.joints[v][i]] * mesh.weights[v][i];
    ASSERT_TRUE(near(out_p[v], glm::vec3(s * glm::vec4(mesh.positions[v], 1.f)), 1e-5f)) << v;
    ASSERT_TRUE(near(out_n[v], glm::normalize(glm::mat3(s) * mesh.normals[v]), 1e-5f)) << v;
    ASSERT_TRUE(near(glm::vec3(out_t[v]), glm::normalize(glm::mat3(s) * glm::vec3(mesh.tangents[v])), 1e-5f)) << v;
    ASSERT_EQ(out_t[v].w, mesh.tangents[v].w) << "handedness is copied";
  }
}

TEST(SkinningJob, G19_RunsOnInterleavedBytesOfAnyStride) {
  std::mt19937 rng(9);
  const Mesh mesh = random_mesh(50, 5, rng);
  const auto palette = random_palette(5, rng);
  for (std::uint32_t padding : {0u, 4u, 20u}) {
    const VertexLayout layout = VertexLayout::interleaved(
        {VertexAttribute::Position, VertexAttribute::TexCoord0, VertexAttribute::Normal, VertexAttribute::Joints0,
         VertexAttribute::Weights0},
        padding);
    std::vector<std::byte> bytes(layout.stride * mesh.positions.size());
    auto slot = [&](VertexAttribute a) { return bytes.data() + layout.offset(a); };
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
      std::memcpy(slot(VertexAttribute::Position) + v * layout.stride, &mesh.positions[v], 12);
      std::memcpy(slot(VertexAttribute::Normal) + v * layout.stride, &mesh.normals[v], 12);
      std::memcpy(slot(VertexAttribute::Joints0) + v * layout.stride, &mesh.joints[v], 8);
      std::memcpy(slot(VertexAttribute::Weights0) + v * layout.stride, &mesh.weights[v], 16);
    }
    const std::size_t n = mesh.positions.size();
    std::vector<glm::vec3> expected(n), got(n), expected_n(n), got_n(n);
    SkinningJob job;
    job.palette = palette;
    job.joints = std::span<const glm::u16vec4>(mesh.joints);
    job.weights = std::span<const glm::vec4>(mesh.weights);
    job.in_positions = std::span<const glm::vec3>(mesh.positions);
    job.out_positions = std::span<glm::vec3>(expected);
    job.in_normals = std::span<const glm::vec3>(mesh.normals);
    job.out_normals = std::span<glm::vec3>(expected_n);
    job.run();
    job.joints = StridedSpan<const glm::u16vec4>(slot(VertexAttribute::Joints0), n, layout.stride);
    job.weights = StridedSpan<const glm::vec4>(slot(VertexAttribute::Weights0), n, layout.stride);
    job.in_positions = StridedSpan<const glm::vec3>(slot(VertexAttribute::Position), n, layout.stride);
    job.in_normals = StridedSpan<const glm::vec3>(slot(VertexAttribute::Normal), n, layout.stride);
    job.out_positions = std::span<glm::vec3>(got);
    job.out_normals = std::span<glm::vec3>(got_n);
    job.run();
    EXPECT_EQ(expected, got) << "stride " << layout.stride;
    EXPECT_EQ(expected_n, got_n) << "stride " << layout.stride;
  }
}

TEST(SkinningJob, G19_JointOutsidePaletteIsRefusedNotRead) {
  std::vector<glm::mat4> palette(3, glm::mat4(1.f));
  std::vector<glm::vec3> in{{0, 0, 0}, {1, 1, 1}}, out(2);
  std::vector<glm::u16vec4> joints{{0, 1, 2, 0}, {0, 3, 0, 0}};
  std::vector<glm::vec4> weights{{1, 0, 0, 0}, {1, 0, 0, 0}};
  SkinningJob job;
  job.palette = palette;
  job.joints = std::span<const glm::u16vec4>(joints);
  job.weights = std::span<const glm::vec4>(weights);
  job.in_positions = std::span<const glm::vec3>(in);
  job.out_positions = std::span<glm::vec3>(out);
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { job.run(); }, {"vertex 1", "joint 3", "palette of 3"}));
}

TEST(SkinningJob, G19_MismatchedSpansAreRefused) {
  std::vector<glm::mat4> palette(1, glm::mat4(1.f));
  std::vector<glm::vec3> in(4), out(3), normals(4);
  std::vector<glm::u16vec4> joints(4);
  std::vector<glm::vec4> weights(4);
  SkinningJob job;
  job.palette = palette;
  job.joints = std::span<const glm::u16vec4>(joints);
  job.weights = std::span<const glm::vec4>(weights);
  job.in_positions = std::span<const glm::vec3>(in);
  job.out_positions = std::span<glm::vec3>(out);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.run(); }, {"out_positions has 3", "in_positions has 4"}));
  job.out_positions = std::span<glm::vec3>(normals);
  job.in_normals = std::span<const glm::vec3>(in);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.run(); }, {"out_normals has 0"}));
}

}  // namespace
}  // namespace marrow
