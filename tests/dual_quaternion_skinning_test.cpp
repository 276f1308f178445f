// S3: dual-quaternion skinning, an option per part. The palette job splits each matrix into a
// rigid dual quaternion and a scale/shear part (Kavan et al.); the skinning job blends the dual
// quaternions (each aligned with the first influence's hemisphere), applies the linearly blended
// scale/shear part first, and equals linear blending on vertices with one influence. On a
// twisted two-bone cylinder, linear blending collapses the middle (the candy wrapper) and dual
// quaternions keep its cross-section.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/model/animator.hpp"
#include "marrow/runtime/dual_quaternion_palette_job.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/skinning_job.hpp"
#include "skinning_reference.hpp"
#include "test_util.hpp"
#include "twisted_cylinders.hpp"

namespace marrow {
namespace {

using test::for_each_simd_level;
using test::random_rotation_from_box;
enum class Kind { Rigid, Uniform, NonUniform };

std::vector<glm::mat4> palette_of(Kind kind, std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f), s(0.5f, 2.f);
  std::vector<glm::mat4> p;
  for (std::size_t i = 0; i < n; ++i) {
    glm::mat4 m = glm::translate(glm::mat4(1.f), glm::vec3(u(rng), u(rng), u(rng))) * glm::mat4_cast(random_rotation_from_box(rng));
    if (kind == Kind::Uniform) m = m * glm::scale(glm::mat4(1.f), glm::vec3(i == 1 ? -s(rng) : s(rng)));
    if (kind == Kind::NonUniform) {
      glm::mat4 shear(1.f);
      shear[2][1] = 0.3f * u(rng);
      m = m * glm::scale(glm::mat4(1.f), glm::vec3(s(rng), s(rng), i == 1 ? -s(rng) : s(rng))) * shear;
    }
    p.push_back(m);
  }
  return p;
}

TEST(DualQuaternionPaletteJob, S3_SplitsEachMatrixIntoARigidPartAndAScaleShearPart) {
  std::mt19937 rng(301);
  for (const Kind kind : {Kind::Rigid, Kind::Uniform, Kind::NonUniform}) {
    const auto palette = palette_of(kind, 12, rng);
    std::vector<SkinDualQuaternion> dq(12);
    std::vector<glm::mat4> scale(12);
    const DualQuaternionPaletteJob job{palette, dq, scale};
    ASSERT_TRUE(job.validate());
    ASSERT_TRUE(job.run());
    for (std::size_t j = 0; j < palette.size(); ++j) {
      const glm::dquat real(dq[j].real.w, dq[j].real.x, dq[j].real.y, dq[j].real.z);
      const glm::dquat dual(dq[j].dual.w, dq[j].dual.x, dq[j].dual.y, dq[j].dual.z);
      EXPECT_NEAR(glm::length(real), 1.0, 1e-6) << j;
      EXPECT_GE(real.w, 0.0) << "w >= 0";
      // M = [R S | t]: the product gives the matrix back.
      const glm::dmat3 r = glm::mat3_cast(real);
      const auto s = glm::dmat3(glm::dmat4(scale[j]));
      const glm::dmat3 rs = r * s;
      const glm::dquat t = dual * glm::conjugate(real) * 2.0;
      for (int c = 0; c < 3; ++c) {
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(rs[c][k], palette[j][c][k], 2e-6) << j;
      }
      EXPECT_NEAR(t.x, palette[j][3].x, 2e-6);
      EXPECT_NEAR(t.y, palette[j][3].y, 2e-6);
      EXPECT_NEAR(t.z, palette[j][3].z, 2e-6);
      // S symmetric; negative definite exactly when M mirrors; identity for a rigid matrix.
      for (int c = 0; c < 3; ++c) {
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(s[c][k], s[k][c], 2e-6) << j;
      }
      const bool mirrors = glm::determinant(glm::mat3(palette[j])) < 0.f;
      EXPECT_EQ(s[0][0] < 0.0, mirrors) << j;
      EXPECT_EQ(glm::determinant(s) < 0.0, mirrors) << j;
      if (kind == Kind::Rigid) {
        EXPECT_TRUE(test::near(scale[j], glm::mat4(1.f), 2e-6f)) << j;
      }
      EXPECT_EQ(scale[j][3], glm::vec4(0, 0, 0, 1));
    }
    EXPECT_EQ(classify_palette_scale(scale), kind == Kind::Rigid        ? PaletteScale::Rigid
                                             : kind == Kind::Uniform    ? PaletteScale::Uniform
                                                                        : PaletteScale::NonUniform);
  }
  // Singular matrices (a joint scaled to nothing) still give a unit rotation.
  const std::vector<glm::mat4> flat = {glm::scale(glm::mat4(1.f), glm::vec3(1, 0, 2)), glm::mat4(0.f)};
  std::vector<SkinDualQuaternion> dq(2);
  ASSERT_TRUE((DualQuaternionPaletteJob{flat, dq, {}}.run()));
  for (const SkinDualQuaternion& q : dq) EXPECT_NEAR(glm::length(q.real), 1.f, 1e-6f);
}

TEST(DualQuaternionPaletteJob, X3_S3_ShortOutputsAreRefusedWithoutWriting) {
  const std::vector<glm::mat4> palette(3, glm::mat4(1.f));
  std::vector<SkinDualQuaternion> dq(2, SkinDualQuaternion{glm::vec4(7.f), glm::vec4(7.f)});
  std::vector<glm::mat4> scale(3, glm::mat4(7.f));
  DualQuaternionPaletteJob job{palette, dq, scale};
  EXPECT_STREQ(job.validate().field, "out_dual_quaternions");
  EXPECT_FALSE(job.run());
  EXPECT_EQ(dq[0].real, glm::vec4(7.f));
  dq.resize(3);
  job.out_dual_quaternions = dq;
  job.out_scale_shear = std::span<glm::mat4>(scale).first(1);
  EXPECT_STREQ(job.validate().field, "out_scale_shear");
  EXPECT_STREQ(job.validate().problem, "has fewer elements than palette");
  EXPECT_FALSE(job.run());
  EXPECT_EQ(scale[0], glm::mat4(7.f));
}

struct Case {
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> tangents;
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  std::size_t influences = 0;
};

Case random_case(std::size_t n, std::size_t influences, int palette, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f), w(0.f, 1.f);
  std::uniform_int_distribution<int> j(0, palette - 1);
  Case c;
  c.influences = influences;
  for (std::size_t v = 0; v < n; ++v) {
    c.positions.emplace_back(u(rng), u(rng), u(rng));
    c.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 2.f)));
    c.tangents.emplace_back(glm::normalize(glm::vec3(u(rng) + 2.f, u(rng), u(rng))), v % 2 ? 1.f : -1.f);
    float sum = 0.f;
    for (std::size_t i = 0; i < influences; ++i) {
      c.joints.push_back(static_cast<std::uint16_t>(j(rng)));
      c.weights.push_back(w(rng) + 0.01f);
      sum += c.weights.back();
    }
    for (std::size_t i = 0; i < influences; ++i) c.weights[c.weights.size() - 1 - i] /= sum;
  }
  return c;
}

test::InfluenceRow row(const Case& c, std::size_t v) {
  return {std::span<const std::uint16_t>(c.joints).subspan(v * c.influences, c.influences),
          std::span<const float>(c.weights).subspan(v * c.influences, c.influences)};
}

struct Outputs {
  std::vector<glm::vec3> p, n;
  std::vector<glm::vec4> t;
};

// DQS of the case over the palette (converted by DualQuaternionPaletteJob).
Outputs run_dqs(const Case& c, const std::vector<glm::mat4>& palette, bool normalize, bool interleave_rows = false) {
  const std::size_t n = c.positions.size(), k = c.influences;
  std::vector<SkinDualQuaternion> dq(palette.size());
  std::vector<glm::mat4> scale(palette.size());
  EXPECT_TRUE((DualQuaternionPaletteJob{palette, dq, scale}.run()));
  Outputs out{std::vector<glm::vec3>(n), std::vector<glm::vec3>(n), std::vector<glm::vec4>(n)};
  // Rows one byte-aligned slot apart when asked (strides the packed loop does not take).
  const std::size_t row_bytes = interleave_rows ? 6 * k + 4 : 0;
  std::vector<std::byte> rows(n * row_bytes);
  for (std::size_t v = 0; v < n && interleave_rows; ++v) {
    std::memcpy(rows.data() + v * row_bytes, &c.joints[v * k], 2 * k);
    std::memcpy(rows.data() + v * row_bytes + 2 * k + 2 * (k % 2), &c.weights[v * k], 4 * k);
  }
  SkinningJob job;
  job.mode = SkinningMode::DualQuaternion;
  job.dual_quaternions = dq;
  job.scale_shear = scale;
  job.influences = static_cast<std::uint32_t>(k);
  if (interleave_rows) {
    job.joints = {rows.data(), n, row_bytes};
    job.weights = {rows.data() + 2 * k + 2 * (k % 2), n, row_bytes};
  } else {
    job.joints = {reinterpret_cast<const std::byte*>(c.joints.data()), n, 2 * k};
    job.weights = {reinterpret_cast<const std::byte*>(c.weights.data()), n, 4 * k};
  }
  job.in_positions = std::span<const glm::vec3>(c.positions);
  job.out_positions = std::span<glm::vec3>(out.p);
  job.in_normals = std::span<const glm::vec3>(c.normals);
  job.out_normals = std::span<glm::vec3>(out.n);
  job.in_tangents = std::span<const glm::vec4>(c.tangents);
  job.out_tangents = std::span<glm::vec4>(out.t);
  job.normalize = normalize;
  EXPECT_TRUE(job.validate()) << job.validate().message("SkinningJob");
  EXPECT_TRUE(job.run());
  return out;
}

TEST(SkinningJob, S3_DualQuaternionBlendingMatchesTheDoubleReference) {
  std::mt19937 rng(307);
  for (const Kind kind : {Kind::Rigid, Kind::Uniform, Kind::NonUniform}) {
    const auto palette = palette_of(kind, 9, rng);
    for (const std::size_t k : {1u, 2u, 3u, 4u, 5u, 8u, 12u}) {
      for (const std::size_t n : {1u, 3u, 4u, 7u, 33u}) {
        const Case c = random_case(n, k, 9, rng);
        for (const bool normalize : {false, true}) {
          for (const bool interleaved : {false, true}) {
            SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(kind) << " influences " << k << " vertices " << n
                                              << (normalize ? " normalize" : " raw") << (interleaved ? " interleaved" : ""));
            for_each_simd_level([&](SimdChoice) {
              const Outputs out = run_dqs(c, palette, normalize, interleaved);
              for (std::size_t v = 0; v < n; ++v) {
                const glm::dmat4 m = test::dual_quaternion_blend(palette, row(c, v));
                const test::SkinnedVertex e = test::apply_matrix(m, c.positions[v], c.normals[v], c.tangents[v], normalize,
                                                                 kind == Kind::NonUniform);
                ASSERT_TRUE(test::within(out.p[v], e.position, 3e-5)) << "position " << v;
                ASSERT_TRUE(test::within(out.n[v], e.normal, 6e-5)) << "normal " << v;
                ASSERT_TRUE(test::within(out.t[v], e.tangent, 3e-5)) << "tangent " << v;
                ASSERT_EQ(out.t[v].w, c.tangents[v].w);
              }
            });
          }
        }
      }
    }
  }
}

TEST(SkinningJob, S3_EqualsLinearBlendingOnVerticesWithOneInfluence) {
  std::mt19937 rng(311);
  for (const Kind kind : {Kind::Rigid, Kind::Uniform, Kind::NonUniform}) {
    const auto palette = palette_of(kind, 6, rng);
    for (const std::size_t k : {1u, 4u, 8u}) {
      // Every vertex has one joint at weight 1 (its other slots weigh 0, wherever the one is).
      Case c = random_case(29, k, 6, rng);
      for (std::size_t v = 0; v < 29; ++v) {
        for (std::size_t i = 0; i < k; ++i) c.weights[v * k + i] = i == v % k ? 1.f : 0.f;
      }
      for_each_simd_level([&](SimdChoice) {
        const Outputs dqs = run_dqs(c, palette, true);
        Outputs lbs{std::vector<glm::vec3>(29), std::vector<glm::vec3>(29), std::vector<glm::vec4>(29)};
        SkinningJob job;
        job.palette = palette;
        job.influences = static_cast<std::uint32_t>(k);
        job.joints = {reinterpret_cast<const std::byte*>(c.joints.data()), 29, 2 * k};
        job.weights = {reinterpret_cast<const std::byte*>(c.weights.data()), 29, 4 * k};
        job.in_positions = std::span<const glm::vec3>(c.positions);
        job.out_positions = std::span<glm::vec3>(lbs.p);
        job.in_normals = std::span<const glm::vec3>(c.normals);
        job.out_normals = std::span<glm::vec3>(lbs.n);
        job.in_tangents = std::span<const glm::vec4>(c.tangents);
        job.out_tangents = std::span<glm::vec4>(lbs.t);
        ASSERT_TRUE(job.run());
        for (std::size_t v = 0; v < 29; ++v) {
          EXPECT_TRUE(test::near(dqs.p[v], lbs.p[v], 1e-5f)) << "kind " << static_cast<int>(kind) << " k " << k << " v " << v;
          EXPECT_TRUE(test::near(dqs.n[v], lbs.n[v], 1e-5f)) << v;
          EXPECT_TRUE(test::near(glm::vec3(dqs.t[v]), glm::vec3(lbs.t[v]), 1e-5f)) << v;
        }
      });
    }
  }
}

TEST(SkinningJob, S3_AntipodalDualQuaternionsBlendAsTheSameRotation) {
  // Two joints with the same transform, the second stored with the opposite sign (q and -q are
  // one rotation): without the hemisphere fix their sum would cancel.
  const std::vector<glm::mat4> palette = {glm::translate(glm::mat4(1.f), glm::vec3(1, 2, 3)) *
                                          glm::mat4_cast(glm::angleAxis(2.5f, glm::normalize(glm::vec3(1, 1, 0))))};
  std::vector<SkinDualQuaternion> dq(2);
  ASSERT_TRUE((DualQuaternionPaletteJob{palette, std::span(dq).first(1), {}}.run()));
  dq[1] = SkinDualQuaternion{-dq[0].real, -dq[0].dual};
  const std::vector<glm::u16vec4> joints(5, glm::u16vec4(0, 1, 1, 0));
  const std::vector<glm::vec4> weights(5, glm::vec4(0.4f, 0.3f, 0.2f, 0.1f));
  const std::vector<glm::vec3> in(5, glm::vec3(0.5f, -1.f, 2.f));
  for_each_simd_level([&](SimdChoice) {
    std::vector<glm::vec3> out(5);
    SkinningJob job;
    job.mode = SkinningMode::DualQuaternion;
    job.dual_quaternions = dq;
    job.joints = std::span<const glm::u16vec4>(joints);
    job.weights = std::span<const glm::vec4>(weights);
    job.in_positions = std::span<const glm::vec3>(in);
    job.out_positions = std::span<glm::vec3>(out);
    ASSERT_TRUE(job.run());
    const glm::vec3 want = glm::vec3(palette[0] * glm::vec4(in[0], 1.f));
    for (const glm::vec3& p : out) EXPECT_TRUE(test::near(p, want, 1e-5f));
  });
}

// The area of the polygon the ring's vertices make, seen along +Y (the twist axis).
double ring_area(const std::vector<glm::vec3>& positions, int ring) {
  using C = test::TwistedCylinders;
  double area = 0.0;
  for (int k = 0; k < C::kSegments; ++k) {
    const glm::dvec3 a(positions[static_cast<std::size_t>(ring * C::kSegments + k)]);
    const glm::dvec3 b(positions[static_cast<std::size_t>(ring * C::kSegments + (k + 1) % C::kSegments)]);
    area += a.z * b.x - a.x * b.z;
  }
  return std::abs(area) / 2.0;
}

TEST(SkinningJob, S3_TheTwistedCylinderKeepsItsWaistUnderDualQuaternions) {
  using C = test::TwistedCylinders;
  const Model model = test::twisted_cylinders();
  ASSERT_EQ(model.meshes.size(), 2u);
  Animator animator(model);
  animator.play("Twist");
  const auto posed = [&](int source_mesh) {
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
      if (model.meshes[m].source_mesh != source_mesh) continue;
      std::vector<glm::vec3> p(model.meshes[m].parts[0].vertex_count());
      animator.pose_part(m, 0, p);
      return p;
    }
    return std::vector<glm::vec3>{};
  };
  animator.update(Ticks{0}, false);
  const double rest = ring_area(posed(0), C::kMiddleRing);
  EXPECT_NEAR(rest, ring_area(posed(1), C::kMiddleRing), 1e-6);
  // A polygon of kSegments vertices on the circle.
  EXPECT_NEAR(rest, 0.5 * C::kSegments * C::kRadius * C::kRadius * std::sin(2 * std::numbers::pi / C::kSegments), 1e-6);
  for (const double degrees : {90.0, 180.0}) {
    SCOPED_TRACE(::testing::Message() << degrees << " degrees");
    animator.update(ticks_from_seconds(degrees / 90.0), false, false);
    const double linear = ring_area(posed(0), C::kMiddleRing) / rest;
    const double dual = ring_area(posed(1), C::kMiddleRing) / rest;
    // Linear blending averages the two joints' matrices: (I + R(a)) / 2 shrinks the waist by
    // cos(a / 2) in each direction, to half its area at 90 degrees and to nothing at 180.
    const double expected_linear = std::pow(std::cos(degrees / 2.0 * std::numbers::pi / 180.0), 2.0);
    EXPECT_NEAR(linear, expected_linear, 0.01);
    EXPECT_NEAR(dual, 1.0, 0.02) << "dual quaternions keep the cross-section";
    // The ends are rigid either way: the top ring has turned the full angle, the bottom none.
    EXPECT_NEAR(ring_area(posed(0), C::kRings - 1) / rest, 1.0, 1e-4);
    EXPECT_NEAR(ring_area(posed(1), 0) / rest, 1.0, 1e-4);
  }
  animator.update(ticks_from_seconds(2.0), false, false);
  EXPECT_LT(ring_area(posed(0), C::kMiddleRing) / rest, 0.05) << "the candy wrapper";
}

TEST(Animator, S3_APartIsSkinnedByItsMode) {
  const Model model = test::twisted_cylinders();
  // Switching the LBS cylinder to DQS after an Animator was made (its scratch grows on demand)
  // gives the DQS cylinder's shape, moved over.
  Model both = model;
  for (ModelMesh& mesh : both.meshes) mesh.parts[0].skinning = SkinningMode::Linear;
  Animator animator(both);
  for (ModelMesh& mesh : both.meshes) mesh.parts[0].skinning = SkinningMode::DualQuaternion;
  animator.play("Twist");
  animator.update(ticks_from_seconds(1.7), false);
  std::vector<glm::vec3> a(both.meshes[0].parts[0].vertex_count()), b(a.size());
  animator.pose_part(0, 0, a);
  animator.pose_part(1, 0, b);
  const float shift = 2.f * test::TwistedCylinders::kSpacing * (both.meshes[0].source_mesh == 0 ? 1.f : -1.f);
  for (std::size_t v = 0; v < a.size(); ++v) EXPECT_TRUE(test::near(a[v] + glm::vec3(shift, 0, 0), b[v], 1e-5f)) << v;
}

TEST(SkinningJob, X3_S3_DualQuaternionFieldsAreChecked) {
  std::vector<SkinDualQuaternion> dq(3);
  std::vector<glm::mat4> scale(2, glm::mat4(1.f));
  const std::vector<glm::u16vec4> joints(4, glm::u16vec4(0, 1, 2, 0));
  const std::vector<glm::vec4> weights(4, glm::vec4(0.25f));
  const std::vector<glm::vec3> in(4, glm::vec3(1));
  std::vector<glm::vec3> out(4, glm::vec3(-7));
  SkinningJob job;
  job.mode = SkinningMode::DualQuaternion;
  job.joints = std::span<const glm::u16vec4>(joints);
  job.weights = std::span<const glm::vec4>(weights);
  job.in_positions = std::span<const glm::vec3>(in);
  job.out_positions = std::span<glm::vec3>(out);
  const auto refused = [&](const char* field, const char* problem) {
    const JobStatus s = job.validate();
    EXPECT_STREQ(s.field, field);
    EXPECT_STREQ(s.problem, problem);
    EXPECT_FALSE(job.run());
    EXPECT_EQ(out[0], glm::vec3(-7));
  };
  refused("dual_quaternions", "is empty while vertices are given");
  job.dual_quaternions = dq;
  job.scale_shear = scale;
  refused("scale_shear", "has fewer elements than dual_quaternions");
  job.scale_shear = {};
  job.palette_scale = PaletteScale::NonUniform;
  refused("scale_shear", "is empty while palette_scale is Uniform or NonUniform");
  job.palette_scale = PaletteScale::Detect;
  EXPECT_TRUE(job.validate()) << "the matrix palette is not needed in this mode";
  job.dual_quaternions = std::span(dq).first(2);
  EXPECT_STREQ(job.validate().problem, "has an index outside the palette");
  EXPECT_TRUE(job.run()) << "clamped, as in linear mode";
}

}  // namespace
}  // namespace marrow
