// S2: normals under non-uniform scale. When a palette matrix scales unevenly (or shears), the
// skinning job turns normals with the inverse transpose of the blended matrix (its cofactor times
// sign(det), which normalising makes the same direction); tangents, surface directions, keep
// following the blended matrix, so they stay perpendicular to the normals. The palette is
// classified once (classify_palette_scale), so a uniform palette runs the blended-matrix kernels
// of before, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/runtime/palette_scale.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/skinning_job.hpp"
#include "skinning_golden_input.hpp"
#include "skinning_inputs.hpp"
#include "skinning_reference.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::for_each_simd_level;
using test::random_rotation_from_box;
using test::skinning_job_over;
using test::SkinnedVertices;
namespace fs = std::filesystem;

// Rotation * scale (per axis) * shear, and a translation: clearly non-uniform.
std::vector<glm::mat4> sheared_palette(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f), s(0.3f, 3.f);
  std::vector<glm::mat4> p;
  for (std::size_t i = 0; i < n; ++i) {
    glm::mat4 shear(1.f);
    shear[1][0] = 0.5f * u(rng);  // x += k * y
    glm::mat4 m = glm::translate(glm::mat4(1.f), glm::vec3(u(rng), u(rng), u(rng))) * glm::mat4_cast(random_rotation_from_box(rng)) *
                  glm::scale(glm::mat4(1.f), glm::vec3(s(rng), s(rng), s(rng))) * shear;
    if (i == 2) m[0] = -m[0];  // one mirrors
    p.push_back(m);
  }
  return p;
}

// Tangents perpendicular to the normals, so the test can check they stay so.
SkinnedVertices random_vertices(std::size_t n, int palette, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f), w(0.05f, 1.f);
  std::uniform_int_distribution<int> j(0, palette - 1);
  SkinnedVertices out;
  for (std::size_t v = 0; v < n; ++v) {
    out.positions.emplace_back(u(rng), u(rng), u(rng));
    const glm::vec3 nrm = glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 2.f));
    const glm::vec3 t = glm::normalize(glm::cross(nrm, glm::vec3(u(rng) + 2.f, u(rng), u(rng))));
    out.normals.push_back(nrm);
    out.tangents.emplace_back(t, v % 2 ? 1.f : -1.f);
    out.joints.emplace_back(j(rng), j(rng), j(rng), j(rng));
    const glm::vec4 ws(w(rng), w(rng), w(rng), w(rng));
    out.weights.push_back(ws / (ws.x + ws.y + ws.z + ws.w));
  }
  return out;
}

test::InfluenceRow row_of(const SkinnedVertices& in, std::size_t v) {
  return {std::span<const std::uint16_t>(&in.joints[v].x, 4), std::span<const float>(&in.weights[v].x, 4)};
}

TEST(PaletteScale, S2_ClassifiesRigidUniformAndNonUniformPalettes) {
  const glm::quat r = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3)));
  const glm::mat4 rigid = glm::translate(glm::mat4(1.f), glm::vec3(4, 5, 6)) * glm::mat4_cast(r);
  const glm::mat4 uniform = rigid * glm::scale(glm::mat4(1.f), glm::vec3(0.01f));
  const glm::mat4 mirrored = rigid * glm::scale(glm::mat4(1.f), glm::vec3(-2.f, 2.f, 2.f));
  const glm::mat4 stretched = rigid * glm::scale(glm::mat4(1.f), glm::vec3(1.f, 1.f, 1.001f));
  glm::mat4 sheared = rigid;
  sheared[1] += 0.01f * sheared[0];
  glm::mat4 nan = rigid;
  nan[2][1] = std::numeric_limits<float>::quiet_NaN();
  glm::mat4 infinite = uniform;
  infinite[0][0] = std::numeric_limits<float>::infinity();
  const auto kind = [](std::initializer_list<glm::mat4> p) {
    const std::vector<glm::mat4> v(p);
    return classify_palette_scale(v);
  };
  EXPECT_EQ(kind({}), PaletteScale::Rigid);
  EXPECT_EQ(kind({rigid, glm::mat4(1.f)}), PaletteScale::Rigid);
  EXPECT_EQ(kind({rigid, uniform}), PaletteScale::Uniform);
  EXPECT_EQ(kind({rigid, mirrored}), PaletteScale::Uniform) << "a mirror with one scale factor keeps directions";
  EXPECT_EQ(kind({glm::mat4(0.f)}), PaletteScale::Uniform) << "a joint scaled to nothing";
  EXPECT_EQ(kind({rigid, stretched}), PaletteScale::NonUniform);
  EXPECT_EQ(kind({sheared, rigid}), PaletteScale::NonUniform);
  EXPECT_EQ(kind({rigid, nan}), PaletteScale::NonUniform);
  EXPECT_EQ(kind({infinite}), PaletteScale::NonUniform);
  // Float noise of a rotation does not count as scale.
  glm::mat4 noisy = rigid;
  noisy[0] *= 1.f + 4e-7f;
  noisy[1][2] += 3e-7f;
  EXPECT_EQ(kind({noisy}), PaletteScale::Rigid);
}

TEST(SkinningJob, S2_NormalsUseTheInverseTransposeUnderNonUniformScale) {
  std::mt19937 rng(211);
  const auto palette = sheared_palette(7, rng);
  ASSERT_EQ(classify_palette_scale(palette), PaletteScale::NonUniform);
  for (const std::size_t n : {1u, 3u, 4u, 7u, 40u}) {
    const SkinnedVertices in = random_vertices(n, 7, rng);
    for (const bool normalize : {false, true}) {
      SCOPED_TRACE(::testing::Message() << n << " vertices" << (normalize ? " normalize" : " raw"));
      for_each_simd_level([&](SimdChoice) {
        std::vector<glm::vec3> p, nrm;
        std::vector<glm::vec4> t;
        SkinningJob job = skinning_job_over(in, palette, p, nrm, t);
        job.normalize = normalize;
        ASSERT_TRUE(job.run());
        for (std::size_t v = 0; v < n; ++v) {
          const glm::dmat4 s = test::linear_blend(palette, row_of(in, v));
          const test::SkinnedVertex e = test::apply_matrix(s, in.positions[v], in.normals[v], in.tangents[v], normalize, true);
          const double scale = normalize ? 1.0 : glm::length(e.normal) + 1.0;
          ASSERT_TRUE(test::within(p[v], e.position, 2e-5)) << v;
          ASSERT_TRUE(test::within(nrm[v], e.normal, 2e-5 * scale)) << v;
          ASSERT_TRUE(test::within(t[v], e.tangent, 2e-5 * (normalize ? 1.0 : 4.0))) << v;
          ASSERT_EQ(t[v].w, in.tangents[v].w) << "handedness kept";
          if (normalize) {
            // The blended matrix itself would tilt the normal off the surface: the tangent (a
            // surface direction, skinned with S) stays perpendicular to the S2 normal.
            EXPECT_NEAR(glm::dot(nrm[v], glm::vec3(t[v])), 0.f, 2e-5f) << v;
            const glm::dvec3 plain = glm::normalize(glm::dmat3(s) * glm::dvec3(in.normals[v]));
            EXPECT_GT(std::abs(glm::dot(plain, glm::dvec3(t[v]))), 1e-4) << "the palette is meant to matter, vertex " << v;
          }
        }
      });
    }
  }
}

TEST(SkinningJob, S2_MirroredAndSingularMatricesGiveOutwardFiniteNormals) {
  // One joint mirrors x and stretches y; another is scaled to nothing along z.
  const std::vector<glm::mat4> palette = {glm::scale(glm::mat4(1.f), glm::vec3(-1.f, 3.f, 1.f)),
                                          glm::scale(glm::mat4(1.f), glm::vec3(2.f, 1.f, 0.f))};
  const std::vector<glm::vec3> positions(3, glm::vec3(1.f));
  const std::vector<glm::vec3> normals = {glm::normalize(glm::vec3(1, 1, 0)), glm::vec3(0, 0, 1), glm::vec3(1, 0, 0)};
  const std::vector<glm::u16vec4> joints = {{0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  const std::vector<glm::vec4> weights(3, glm::vec4(1, 0, 0, 0));
  for_each_simd_level([&](SimdChoice) {
    std::vector<glm::vec3> p(3), n(3);
    SkinningJob job;
    job.palette = palette;
    job.joints = std::span<const glm::u16vec4>(joints);
    job.weights = std::span<const glm::vec4>(weights);
    job.in_positions = std::span<const glm::vec3>(positions);
    job.out_positions = std::span<glm::vec3>(p);
    job.in_normals = std::span<const glm::vec3>(normals);
    job.out_normals = std::span<glm::vec3>(n);
    ASSERT_TRUE(job.run());
    // diag(-1, 3, 1): inverse transpose diag(-1, 1/3, 1) turns (1, 1, 0) into (-3, 1, 0) / sqrt(10).
    EXPECT_NEAR(n[0].x, -3.f / std::sqrt(10.f), 1e-6f);
    EXPECT_NEAR(n[0].y, 1.f / std::sqrt(10.f), 1e-6f);
    EXPECT_NEAR(n[0].z, 0.f, 1e-6f);
    // Flattened along z: the normal (0, 0, 1) stays (0, 0, 1); one along x vanishes (no NaN).
    EXPECT_NEAR(n[1].z, 1.f, 1e-6f);
    EXPECT_EQ(n[2], glm::vec3(0.f));
  });
}

TEST(SkinningJob, S2_AUniformPaletteKeepsTheBitsOfBefore) {
  // The kernels' outputs before S2 (tests/data/skinning/uniform_golden.bin, written by the
  // kernels of commit cba4c65 for the integer-made inputs of skinning_golden_input.hpp).
  std::ifstream file(fs::path(MARROW_TEST_DATA) / "skinning" / "uniform_golden.bin", std::ios::binary);
  ASSERT_TRUE(file);
  const std::size_t per_run = test::kGoldenVertices * 10;
  std::vector<float> golden(3 * 2 * per_run);
  file.read(reinterpret_cast<char*>(golden.data()), static_cast<std::streamsize>(golden.size() * sizeof(float)));
  ASSERT_TRUE(file);
  const test::GoldenInput in = test::golden_input();
  ASSERT_EQ(classify_palette_scale(in.palette), PaletteScale::Uniform);
  for_each_simd_level([&](SimdChoice choice) {
    for (const bool normalize : {false, true}) {
      // _mm_rsqrt_ps estimates differ between processor makers (AVX-512's rsqrt14 does not), so
      // renormalised results below AVX-512 are compared to a tolerance only; so are the emulated
      // copies', whose multiply-adds are not fused and whose rsqrt14 is computed exactly.
      const bool exact = !choice.emulated && (!normalize || choice.level == SimdLevel::Avx512);
      const std::size_t n = test::kGoldenVertices;
      for (const PaletteScale scale : {PaletteScale::Detect, PaletteScale::Uniform, PaletteScale::Rigid}) {
        std::vector<glm::vec3> p(n), nrm(n);
        std::vector<glm::vec4> t(n);
        SkinningJob job;
        job.palette = in.palette;
        job.palette_scale = scale;
        job.joints = std::span<const glm::u16vec4>(in.joints);
        job.weights = std::span<const glm::vec4>(in.weights);
        job.in_positions = std::span<const glm::vec3>(in.positions);
        job.out_positions = std::span<glm::vec3>(p);
        job.in_normals = std::span<const glm::vec3>(in.normals);
        job.out_normals = std::span<glm::vec3>(nrm);
        job.in_tangents = std::span<const glm::vec4>(in.tangents);
        job.out_tangents = std::span<glm::vec4>(t);
        job.normalize = normalize;
        ASSERT_TRUE(job.run());
        const float* want = golden.data() + (static_cast<std::size_t>(choice.level) * 2 + (normalize ? 1 : 0)) * per_run;
        for (std::size_t v = 0; v < n; ++v) {
          float got[10];
          std::memcpy(got, &p[v], 12);
          std::memcpy(got + 3, &nrm[v], 12);
          std::memcpy(got + 6, &t[v], 16);
          for (int c = 0; c < 10; ++c) {
            if (exact) {
              ASSERT_EQ(std::memcmp(&got[c], &want[v * 10 + static_cast<std::size_t>(c)], 4), 0)
                  << "vertex " << v << " component " << c << ": " << got[c] << " vs " << want[v * 10 + static_cast<std::size_t>(c)];
            } else {
              ASSERT_NEAR(got[c], want[v * 10 + static_cast<std::size_t>(c)], 1e-5f) << "vertex " << v << " component " << c;
            }
          }
        }
      }
    }
  });
}

TEST(SkinningJob, S2_AnExplicitPaletteScaleIsTrusted) {
  // A caller that classified the palette once passes the result, and the job takes its word:
  // NonUniform gives the inverse-transpose normals even over a uniform palette, Uniform the
  // blended matrix's even over a sheared one.
  std::mt19937 rng(223);
  const SkinnedVertices in = random_vertices(9, 5, rng);
  std::vector<glm::mat4> uniform;
  for (int j = 0; j < 5; ++j) {
    uniform.push_back(glm::mat4_cast(random_rotation_from_box(rng)) *
                      glm::scale(glm::mat4(1.f), glm::vec3(0.5f + 0.3f * static_cast<float>(j))));
  }
  const auto sheared = sheared_palette(5, rng);
  for (const bool inverse_transpose : {true, false}) {
    const std::vector<glm::mat4>& palette = inverse_transpose ? uniform : sheared;
    for_each_simd_level([&](SimdChoice) {
      std::vector<glm::vec3> p, n;
      std::vector<glm::vec4> t;
      SkinningJob job = skinning_job_over(in, palette, p, n, t);
      job.palette_scale = inverse_transpose ? PaletteScale::NonUniform : PaletteScale::Uniform;
      ASSERT_TRUE(job.run());
      for (std::size_t v = 0; v < n.size(); ++v) {
        const test::SkinnedVertex e = test::apply_matrix(test::linear_blend(palette, row_of(in, v)), in.positions[v],
                                                         in.normals[v], in.tangents[v], true, inverse_transpose);
        EXPECT_TRUE(test::within(n[v], e.normal, 2e-5)) << v;
      }
    });
  }
}

// The shared assets' rigs at several times of each clip: none classifies as NonUniform, so they
// keep the blended-matrix kernels (S2 costs them nothing).
TEST(PaletteScale, S2_SharedRigsStayOnTheUniformPath) {
  const fs::path assets = fs::path(MARROW_SHARED_ASSETS) / "gltf";
  const char* files[] = {"Fox/Fox.gltf", "CesiumMan/cesium_man.gltf", "RiggedSimple/rigged_simple.gltf", "WebXRGenericHand/left.glb"};
  int checked = 0;
  for (const char* name : files) {
    if (!fs::exists(assets / name)) continue;
    SCOPED_TRACE(name);
    const Model model = import_gltf(assets / name);
    Animator animator(model);
    for (std::size_t a = 0; a < model.animations.size(); ++a) {
      animator.play(static_cast<int>(a));
      for (const double t : {0.0, 0.37, 0.81, 1.5}) {
        animator.update(ticks_from_seconds(t), false);
        for (std::size_t s = 0; s < model.skins.size(); ++s) {
          EXPECT_NE(classify_palette_scale(animator.player(s).skin_transforms()), PaletteScale::NonUniform)
              << "animation " << a << " at " << t;
          ++checked;
        }
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "shared glTF assets not found";
}

}  // namespace
}  // namespace marrow

namespace marrow {
namespace {

// The optional root applies after the blend, with no palette copy: positions and tangents as
// the palette pre-multiplied by it gives them (to rounding) for a rigid, a uniformly scaled, a
// mirrored and a shearing root; normals are the palette's own normals through the root's 3x3,
// or through sign(det) times its cofactor when it scales unevenly (S2).
TEST(SkinningJob, S2_ARootMatrixSkinsAsThePaletteTimesTheRoot) {
  std::mt19937 rng(307);
  std::vector<glm::mat4> palette;
  for (float i = 0.f; i < 6.f; i += 1.f) {
    palette.push_back(glm::translate(glm::mat4(1.f), glm::vec3(i, 0.5f * i, -i)) * glm::mat4_cast(random_rotation_from_box(rng)));
  }
  glm::mat4 shear(1.f);
  shear[1][0] = 0.4f;
  const glm::mat4 turn = glm::mat4_cast(random_rotation_from_box(rng));
  const glm::mat4 roots[] = {glm::translate(glm::mat4(1.f), {3, -2, 7}) * turn,
                             glm::translate(glm::mat4(1.f), {1, 2, 3}) * turn * glm::scale(glm::mat4(1.f), glm::vec3(2.5f)),
                             glm::scale(glm::mat4(1.f), glm::vec3(-1.f, 1.f, 1.f)) * turn,
                             turn * glm::scale(glm::mat4(1.f), glm::vec3(1.f, 3.f, 0.5f)) * shear};
  const SkinnedVertices in = random_vertices(23, 6, rng);
  for (std::size_t r = 0; r < std::size(roots); ++r) {
    std::vector<glm::mat4> premultiplied;
    for (const glm::mat4& m : palette) premultiplied.push_back(roots[r] * m);
    for (const SkinningMode mode : {SkinningMode::Linear, SkinningMode::DualQuaternion}) {
      if (mode == SkinningMode::DualQuaternion && r == 3) continue;  // DQS blends rigid parts: a rigid root only
      SCOPED_TRACE(::testing::Message() << "root " << r << (mode == SkinningMode::Linear ? " linear" : " dqs"));
      for_each_simd_level([&](SimdChoice) {
        std::vector<glm::vec3> p, n, p0, n0, p1, n1;
        std::vector<glm::vec4> t, t0, t1;
        std::vector<SkinDualQuaternion> dq(6), dq0(6);
        std::vector<glm::mat4> ss(6), ss0(6);
        SkinningJob job = skinning_job_over(in, palette, p, n, t);
        SkinningJob expected = skinning_job_over(in, premultiplied, p0, n0, t0);
        SkinningJob plain = skinning_job_over(in, palette, p1, n1, t1);
        job.root = &roots[r];
        if (mode == SkinningMode::DualQuaternion) {
          ASSERT_TRUE((DualQuaternionPaletteJob{palette, dq, ss}.run()));
          ASSERT_TRUE((DualQuaternionPaletteJob{premultiplied, dq0, ss0}.run()));
          job.mode = expected.mode = plain.mode = mode;
          job.dual_quaternions = plain.dual_quaternions = dq, job.scale_shear = plain.scale_shear = ss;
          expected.dual_quaternions = dq0, expected.scale_shear = ss0;
        }
        ASSERT_TRUE(job.run());
        ASSERT_TRUE(expected.run());
        ASSERT_TRUE(plain.run());
        const glm::dmat3 m(roots[r]);
        const glm::dmat3 cofactor(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]), glm::cross(m[0], m[1]));
        const glm::dmat3 normals = r == 3 ? (glm::determinant(m) < 0 ? -1.0 : 1.0) * cofactor : m;
        for (std::size_t v = 0; v < p.size(); ++v) {
          ASSERT_TRUE(test::within(p[v], glm::dvec3(p0[v]), 5e-5)) << v;
          ASSERT_TRUE(test::within(n[v], glm::normalize(normals * glm::dvec3(n1[v])), 5e-5)) << v;
          if (r < 3) {
            ASSERT_TRUE(test::within(n[v], glm::dvec3(n0[v]), 5e-5)) << v;  // a similarity: as pre-multiplied
          }
          ASSERT_TRUE(test::within(t[v], glm::dvec4(t0[v]), 5e-5)) << v;
        }
      });
    }
  }
}

}  // namespace
}  // namespace marrow
