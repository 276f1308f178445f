// runtime/: the skinning job with any number of influences per vertex (S1): every count and
// layout against the double-precision reference, rows read only to their end, and the checks
// on the influence count and the rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/skinning_job.hpp"
#include "skinning_inputs.hpp"
#include "skinning_reference.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::for_each_simd_level;
using test::GuardedBytes;
using test::kSentinel;
using test::near;
using test::random_skinned_vertices;
using test::scaled_palette;
using test::SkinnedVertices;
using test::throws_with;

// Rows of n influences per vertex: random joints (some repeated), weights >= 0 summing to 1,
// with a few zero weights.
struct Rows {
  std::size_t influences = 0;
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  test::InfluenceRow row(std::size_t v) const {
    return {std::span<const std::uint16_t>(joints).subspan(v * influences, influences),
            std::span<const float>(weights).subspan(v * influences, influences)};
  }
};

Rows random_rows(std::size_t vertices, std::size_t influences, std::uint16_t palette, std::mt19937& rng) {
  std::uniform_int_distribution<int> joint(0, palette - 1);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  Rows r;
  r.influences = influences;
  for (std::size_t v = 0; v < vertices; ++v) {
    float sum = 0.f;
    const std::size_t first = r.weights.size();
    for (std::size_t i = 0; i < influences; ++i) {
      r.joints.push_back(static_cast<std::uint16_t>(joint(rng)));
      const float w = (i > 0 && u(rng) < 0.2f) ? 0.f : u(rng) + 0.01f;
      r.weights.push_back(w);
      sum += w;
    }
    for (std::size_t i = 0; i < influences; ++i) r.weights[first + i] /= sum;
  }
  return r;
}

// One job over the mesh with `rows`, either from separate packed arrays or from interleaved
// records (joints and weights rows inside a record of odd size), into separate outputs.
struct InfluenceCase {
  SkinnedVertices mesh;
  Rows rows;
  std::vector<std::byte> records;  // interleaved: position, normal, tangent, joints row, weights row, 4 spare
  std::size_t stride = 0, joints_at = 0, weights_at = 0;

  InfluenceCase(SkinnedVertices m, Rows r) : mesh(std::move(m)), rows(std::move(r)) {
    const std::size_t n = mesh.positions.size(), k = rows.influences;
    joints_at = 40;
    weights_at = joints_at + 2 * k + (k % 2 ? 2 : 0);  // a 4-byte aligned float row
    stride = weights_at + 4 * k + 4;
    records.assign(n * stride, kSentinel);
    for (std::size_t v = 0; v < n; ++v) {
      std::byte* r = records.data() + v * stride;
      std::memcpy(r, &mesh.positions[v], 12);
      std::memcpy(r + 12, &mesh.normals[v], 12);
      std::memcpy(r + 24, &mesh.tangents[v], 16);
      std::memcpy(r + joints_at, &rows.joints[v * k], 2 * k);
      std::memcpy(r + weights_at, &rows.weights[v * k], 4 * k);
    }
  }

  SkinningJob job(bool interleaved) const {
    SkinningJob job;
    const std::size_t n = mesh.positions.size(), k = rows.influences;
    job.influences = static_cast<std::uint32_t>(k);
    if (interleaved) {
      const std::byte* b = records.data();
      job.joints = {b + joints_at, n, stride};
      job.weights = {b + weights_at, n, stride};
      job.in_positions = {b, n, stride};
      job.in_normals = {b + 12, n, stride};
      job.in_tangents = {b + 24, n, stride};
    } else {
      job.joints = {reinterpret_cast<const std::byte*>(rows.joints.data()), n, 2 * k};
      job.weights = {reinterpret_cast<const std::byte*>(rows.weights.data()), n, 4 * k};
      job.in_positions = std::span<const glm::vec3>(mesh.positions);
      job.in_normals = std::span<const glm::vec3>(mesh.normals);
      job.in_tangents = std::span<const glm::vec4>(mesh.tangents);
    }
    return job;
  }
};

// A palette of rotations, translations and one scale factor per matrix (uniform: S2 leaves the
// normals to the blended matrix).
std::vector<glm::mat4> uniform_palette(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f), s(0.5f, 2.f);
  std::vector<glm::mat4> p;
  for (std::size_t i = 0; i < n; ++i) {
    p.push_back(glm::translate(glm::mat4(1.f), glm::vec3(u(rng), u(rng), u(rng))) *
                glm::mat4_cast(glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 0.01f))) *
                glm::scale(glm::mat4(1.f), glm::vec3(s(rng))));
  }
  return p;
}

TEST(SkinningJob, S1_AnyInfluenceCountMatchesTheDoubleReference) {
  std::mt19937 rng(101);
  for (const bool non_uniform : {false, true}) {
    const auto palette = non_uniform ? scaled_palette(11, rng) : uniform_palette(11, rng);
    // 1, 2, 4, 8 have loops of their own; the others take the loop for any count.
    for (const std::size_t k : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 12u, 16u}) {
      for (const std::size_t n : {1u, 3u, 4u, 6u, 37u}) {
        const InfluenceCase c(random_skinned_vertices(n, 11, rng), random_rows(n, k, 11, rng));
        for (const bool interleaved : {false, true}) {
          for (const bool normalize : {false, true}) {
            SCOPED_TRACE(::testing::Message() << "influences " << k << " vertices " << n
                                              << (interleaved ? " interleaved" : " separate")
                                              << (normalize ? " normalize" : " raw") << (non_uniform ? " non-uniform" : ""));
            for_each_simd_level([&](SimdChoice) {
              std::vector<glm::vec3> out_p(n), out_n(n);
              std::vector<glm::vec4> out_t(n);
              SkinningJob job = c.job(interleaved);
              job.palette = palette;
              job.normalize = normalize;
              job.out_positions = std::span<glm::vec3>(out_p);
              job.out_normals = std::span<glm::vec3>(out_n);
              job.out_tangents = std::span<glm::vec4>(out_t);
              ASSERT_TRUE(job.validate()) << job.validate().message("SkinningJob");
              ASSERT_TRUE(job.run());
              for (std::size_t v = 0; v < n; ++v) {
                const test::SkinnedVertex e =
                    test::apply_matrix(test::linear_blend(palette, c.rows.row(v)), c.mesh.positions[v], c.mesh.normals[v],
                                       c.mesh.tangents[v], normalize, non_uniform);
                ASSERT_TRUE(test::within(out_p[v], e.position, 2e-5)) << "position " << v;
                ASSERT_TRUE(test::within(out_n[v], e.normal, 4e-5)) << "normal " << v;
                ASSERT_TRUE(test::within(out_t[v], e.tangent, 2e-5)) << "tangent " << v;
              }
              // Positions alone take their own loop.
              job.in_normals = {};
              job.out_normals = {};
              job.in_tangents = {};
              job.out_tangents = {};
              std::vector<glm::vec3> alone(n);
              job.out_positions = std::span<glm::vec3>(alone);
              ASSERT_TRUE(job.run());
              EXPECT_EQ(alone, out_p);
            });
          }
        }
      }
    }
  }
}

TEST(SkinningJob, S1_MoreInfluencesThanFourAreNotDropped) {
  // Eight joints pulling one vertex eight ways: a four-influence read would land elsewhere.
  std::vector<glm::mat4> palette;
  for (int j = 0; j < 8; ++j) palette.push_back(glm::translate(glm::mat4(1.f), glm::vec3(0, 0, static_cast<float>(j))));
  const std::vector<std::uint16_t> joints = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<float> weights(8, 0.125f);
  const std::vector<glm::vec3> in = {glm::vec3(1, 2, 3)};
  for_each_simd_level([&](SimdChoice) {
    std::vector<glm::vec3> out(1);
    SkinningJob job;
    job.palette = palette;
    job.influences = 8;
    job.joints = {reinterpret_cast<const std::byte*>(joints.data()), 1, 16};
    job.weights = {reinterpret_cast<const std::byte*>(weights.data()), 1, 32};
    job.in_positions = std::span<const glm::vec3>(in);
    job.out_positions = std::span<glm::vec3>(out);
    ASSERT_TRUE(job.run());
    EXPECT_TRUE(near(out[0], glm::vec3(1, 2, 3 + 3.5f), 1e-6f)) << "mean of the eight offsets 0..7";
  });
}

TEST(SkinningJob, S1_RowsOfAnyLengthAreReadOnlyToTheirEnd) {
  // Joint and weight rows ending at a page that cannot be touched, for the lengths whose loops
  // read whole groups (4, 8) and the ones that read single influences (1, 2, 3, 5, 12).
  std::mt19937 rng(103);
  const auto palette = uniform_palette(6, rng);
  for (const std::size_t k : {1u, 2u, 3u, 4u, 5u, 8u, 12u}) {
    for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 9u}) {
      const SkinnedVertices mesh = random_skinned_vertices(n, 6, rng);
      const Rows rows = random_rows(n, k, 6, rng);
      GuardedBytes joints(n * 2 * k), weights(n * 4 * k), positions(n * 12), out(n * 12);
      std::memcpy(joints.data(), rows.joints.data(), n * 2 * k);
      std::memcpy(weights.data(), rows.weights.data(), n * 4 * k);
      std::memcpy(positions.data(), mesh.positions.data(), n * 12);
      for_each_simd_level([&](SimdChoice) {
        for (const SkinningMode mode : {SkinningMode::Linear, SkinningMode::DualQuaternion}) {
          std::vector<SkinDualQuaternion> dq(palette.size());
          DualQuaternionPaletteJob{palette, dq, {}}.run();
          SkinningJob job;
          job.mode = mode;
          job.palette = palette;
          job.dual_quaternions = dq;
          job.influences = static_cast<std::uint32_t>(k);
          job.joints = {joints.data(), n, 2 * k};
          job.weights = {weights.data(), n, 4 * k};
          job.in_positions = {positions.data(), n, 12};
          job.out_positions = {out.data(), n, 12};
          ASSERT_TRUE(job.run()) << k << " influences, " << n << " vertices";
        }
      });
    }
  }
}

TEST(SkinningJob, X3_S1_InfluenceCountAndRowsAreChecked) {
  std::vector<glm::mat4> palette(3, glm::mat4(1.f));
  std::vector<std::uint16_t> joints(5 * 6, 0);
  std::vector<float> weights(5 * 6, 1.f / 6.f);
  std::vector<glm::vec3> in(5, glm::vec3(1)), out(5, glm::vec3(-7));
  SkinningJob job;
  job.palette = palette;
  job.influences = 6;
  job.joints = {reinterpret_cast<const std::byte*>(joints.data()), 5, 12};
  job.weights = {reinterpret_cast<const std::byte*>(weights.data()), 5, 24};
  job.in_positions = std::span<const glm::vec3>(in);
  job.out_positions = std::span<glm::vec3>(out);
  ASSERT_TRUE(job.validate());
  const auto refused = [&](const char* field, const char* problem) {
    const JobStatus s = job.validate();
    EXPECT_FALSE(s);
    EXPECT_STREQ(s.field, field);
    EXPECT_STREQ(s.problem, problem);
    EXPECT_FALSE(job.run());
    EXPECT_EQ(out[0], glm::vec3(-7)) << "nothing written";
  };
  job.influences = 0;
  refused("influences", "is 0");
  job.influences = 7;  // rows of 6 do not hold 7
  refused("joints", "has a stride smaller than its element");
  job.joints = {reinterpret_cast<const std::byte*>(joints.data()), 5, 14};
  refused("weights", "has a stride smaller than its element");
  job.influences = 6;
  job.joints = {reinterpret_cast<const std::byte*>(joints.data()), 5, 12};
  // A joint outside the palette in the sixth influence of vertex 3: found by validate(), named by
  // run_or_throw(), clamped by run().
  joints[3 * 6 + 5] = 9;
  const JobStatus s = job.validate();
  EXPECT_STREQ(s.field, "joints");
  EXPECT_STREQ(s.problem, "has an index outside the palette");
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { job.run_or_throw(); }, {"vertex 3", "joint 9", "palette of 3"}));
  EXPECT_TRUE(job.run());
}

}  // namespace
}  // namespace marrow
