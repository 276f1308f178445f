// runtime/: SkinningData validation and CPU linear-blend skinning (G19), the skinning job's
// contract (X3: validate() names the field, run() refuses without writing), every SIMD level
// against a double-precision reference. Any influence count (S1): skinning_influences_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/vertex_layout.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/skinning_data.hpp"
#include "marrow/runtime/dual_quaternion_palette_job.hpp"
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
using test::random_palette;
using test::random_skinned_vertices;
using test::scaled_palette;
using test::skinning_job_over;
using test::SkinnedVertices;
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

TEST(SkinningJob, G19_FourInfluencesPerVertexMatchTheFormula) {
  std::mt19937 rng(7);
  const SkinnedVertices mesh = random_skinned_vertices(257, 12, rng);
  const auto palette = random_palette(12, rng);
  std::vector<glm::vec3> out_p, out_n;
  std::vector<glm::vec4> out_t;
  SkinningJob job = skinning_job_over(mesh, palette, out_p, out_n, out_t);
  ASSERT_TRUE(job.run());
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
  const SkinnedVertices mesh = random_skinned_vertices(50, 5, rng);
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
    ASSERT_TRUE(job.run());
    job.joints = StridedSpan<const glm::u16vec4>(slot(VertexAttribute::Joints0), n, layout.stride);
    job.weights = StridedSpan<const glm::vec4>(slot(VertexAttribute::Weights0), n, layout.stride);
    job.in_positions = StridedSpan<const glm::vec3>(slot(VertexAttribute::Position), n, layout.stride);
    job.in_normals = StridedSpan<const glm::vec3>(slot(VertexAttribute::Normal), n, layout.stride);
    job.out_positions = std::span<glm::vec3>(got);
    job.out_normals = std::span<glm::vec3>(got_n);
    ASSERT_TRUE(job.run());
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
  // run_or_throw() keeps the seed's exception (and now writes nothing before throwing); run()
  // itself never throws: see X3_ValidateReportsJointOutsidePalette.
  out = {{7, 7, 7}, {7, 7, 7}};
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { job.run_or_throw(); }, {"vertex 1", "joint 3", "palette of 3"}));
  EXPECT_EQ(out[0], glm::vec3(7)) << "nothing written";
  EXPECT_EQ(out[1], glm::vec3(7));
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
  EXPECT_TRUE(
      throws_with<std::invalid_argument>([&] { job.run_or_throw(); }, {"out_positions has 3", "in_positions has 4"}));
  EXPECT_FALSE(job.run());
  job.out_positions = std::span<glm::vec3>(normals);
  job.in_normals = std::span<const glm::vec3>(in);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { job.run_or_throw(); }, {"out_normals has 0"}));
  EXPECT_FALSE(job.run());
}


// ---------------------------------------------------------------------------------------------
// X3: refusals, the joint scan, and the kernels of every level against a double reference.

struct Expected {
  glm::dvec3 position, normal;
  glm::dvec4 tangent;
};

// True when some matrix's columns differ in length or are not orthogonal by more than 1e-3
// (the palettes here are either clearly uniform or clearly not).
bool clearly_non_uniform(const std::vector<glm::mat4>& palette) {
  for (const glm::mat4& m : palette) {
    const glm::vec3 c[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    const float l = glm::dot(c[0], c[0]);
    for (int a = 0; a < 3; ++a) {
      if (std::fabs(glm::dot(c[a], c[a]) - l) > 1e-3f * l) return true;
      if (std::fabs(glm::dot(c[a], c[(a + 1) % 3])) > 1e-3f * l) return true;
    }
  }
  return false;
}

// The G19 formulas in double precision, with S2's normals (the inverse transpose, up to a
// positive factor, when the palette scales unevenly); an index outside the palette uses the
// last matrix.
Expected reference(const std::vector<glm::mat4>& palette, const SkinnedVertices& mesh, std::size_t v, bool normalize) {
  glm::dmat4 s(0.0);
  for (int i = 0; i < 4; ++i) {
    const std::size_t j = std::min<std::size_t>(mesh.joints[v][i], palette.size() - 1);
    s += glm::dmat4(palette[j]) * static_cast<double>(mesh.weights[v][i]);
  }
  const test::SkinnedVertex r = test::apply_matrix(s, mesh.positions[v], mesh.normals[v], mesh.tangents[v], normalize,
                                                   clearly_non_uniform(palette));
  return Expected{r.position, r.normal, r.tangent};
}

::testing::AssertionResult within(const float* got, const double* want, int n, double tol) {
  for (int c = 0; c < n; ++c) {
    if (!(std::fabs(static_cast<double>(got[c]) - want[c]) <= tol)) {
      return ::testing::AssertionFailure() << "component " << c << ": " << got[c] << " vs " << want[c];
    }
  }
  return ::testing::AssertionSuccess();
}

// One interleaved record: position, a gap, normal, tangent, joints, weights, a gap (stride 72).
constexpr std::size_t kPos = 0, kNrm = 16, kTan = 28, kJnt = 44, kWgt = 52, kStride = 72;

std::vector<std::byte> interleave(const SkinnedVertices& mesh) {
  std::vector<std::byte> bytes(mesh.positions.size() * kStride, kSentinel);
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    std::byte* r = bytes.data() + v * kStride;
    std::memcpy(r + kPos, &mesh.positions[v], 12);
    std::memcpy(r + kNrm, &mesh.normals[v], 12);
    std::memcpy(r + kTan, &mesh.tangents[v], 16);
    std::memcpy(r + kJnt, &mesh.joints[v], 8);
    std::memcpy(r + kWgt, &mesh.weights[v], 16);
  }
  return bytes;
}

TEST(SkinningJob, G19_EverySimdLevelMatchesTheDoubleReference) {
  std::mt19937 rng(19);
  const auto palette = scaled_palette(9, rng);
  for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 7u, 33u, 259u}) {
    SkinnedVertices mesh = random_skinned_vertices(n, 9, rng);
    // Repeated joints and a zero weight: the sum is still the formula's.
    mesh.joints[0] = glm::u16vec4(3, 3, 8, 0);
    mesh.weights[0] = glm::vec4(0.25f, 0.25f, 0.5f, 0.f);
    if (n >= 3) {  // a zero normal stays zero; a tiny one becomes unit
      mesh.normals[1] = glm::vec3(0.f);
      mesh.tangents[1] = glm::vec4(0.f, 0.f, 0.f, 1.f);
      mesh.normals[2] *= 1e-4f;
      mesh.tangents[2] = glm::vec4(glm::vec3(mesh.tangents[2]) * 1e-4f, mesh.tangents[2].w);
    }
    const std::vector<std::byte> in_bytes = interleave(mesh);
    // Separate arrays; interleaved bytes in and out; interleaved in, separate out (as
    // Animator::pose_part).
    for (const int layout : {0, 1, 2}) {
      const bool interleaved = layout == 1, interleaved_in = layout != 0;
      for (const bool normals : {false, true}) {
        for (const bool tangents : {false, true}) {
          for (const bool normalize : {false, true}) {
            SCOPED_TRACE(::testing::Message() << "n " << n << " layout " << layout
                                              << (normals ? " normals" : "") << (tangents ? " tangents" : "")
                                              << (normalize ? " normalize" : " raw"));
            for_each_simd_level([&](SimdChoice) {
              std::vector<glm::vec3> out_p(n, glm::vec3(99)), out_n(n, glm::vec3(99));
              std::vector<glm::vec4> out_t(n, glm::vec4(99));
              std::vector<std::byte> out_bytes(n * kStride, kSentinel);
              SkinningJob job;
              job.palette = palette;
              job.normalize = normalize;
              if (interleaved_in) {
                const std::byte* b = in_bytes.data();
                job.joints = {b + kJnt, n, kStride};
                job.weights = {b + kWgt, n, kStride};
                job.in_positions = {b + kPos, n, kStride};
                if (normals) job.in_normals = {b + kNrm, n, kStride};
                if (tangents) job.in_tangents = {b + kTan, n, kStride};
              } else {
                job.joints = std::span<const glm::u16vec4>(mesh.joints);
                job.weights = std::span<const glm::vec4>(mesh.weights);
                job.in_positions = std::span<const glm::vec3>(mesh.positions);
                if (normals) job.in_normals = std::span<const glm::vec3>(mesh.normals);
                if (tangents) job.in_tangents = std::span<const glm::vec4>(mesh.tangents);
              }
              if (interleaved) {
                std::byte* o = out_bytes.data();
                job.out_positions = {o + kPos, n, kStride};
                if (normals) job.out_normals = {o + kNrm, n, kStride};
                if (tangents) job.out_tangents = {o + kTan, n, kStride};
              } else {
                job.out_positions = std::span<glm::vec3>(out_p);
                if (normals) job.out_normals = std::span<glm::vec3>(out_n);
                if (tangents) job.out_tangents = std::span<glm::vec4>(out_t);
              }
              ASSERT_TRUE(job.validate()) << job.validate().message("SkinningJob");
              ASSERT_TRUE(job.run());
              if (interleaved) {
                for (std::size_t v = 0; v < n; ++v) {
                  const std::byte* r = out_bytes.data() + v * kStride;
                  std::memcpy(&out_p[v], r + kPos, 12);
                  if (normals) std::memcpy(&out_n[v], r + kNrm, 12);
                  if (tangents) std::memcpy(&out_t[v], r + kTan, 16);
                  // Bytes of the record that are not an output: untouched.
                  for (std::size_t b = 0; b < kStride; ++b) {
                    const bool written = b < kPos + 12 || (normals && b >= kNrm && b < kNrm + 12) ||
                                         (tangents && b >= kTan && b < kTan + 16);
                    if (!written) {
                      ASSERT_EQ(r[b], kSentinel) << "vertex " << v << " byte " << b;
                    }
                  }
                }
              }
              for (std::size_t v = 0; v < n; ++v) {
                const Expected e = reference(palette, mesh, v, normalize);
                ASSERT_TRUE(within(&out_p[v].x, &e.position.x, 3, 1e-5)) << "position " << v;
                if (normals) {
                  ASSERT_TRUE(within(&out_n[v].x, &e.normal.x, 3, 1e-5)) << "normal " << v;
                } else if (!interleaved) {
                  ASSERT_EQ(out_n[v], glm::vec3(99)) << "no normals asked for";
                }
                if (tangents) {
                  ASSERT_TRUE(within(&out_t[v].x, &e.tangent.x, 3, 1e-5)) << "tangent " << v;
                  ASSERT_EQ(out_t[v].w, mesh.tangents[v].w) << "handedness copied, vertex " << v;
                }
              }
            });
          }
        }
      }
    }
  }
}

TEST(SkinningJob, G19_SkinsInPlace) {
  std::mt19937 rng(23);
  const auto palette = scaled_palette(6, rng);
  const std::size_t n = 37;
  const SkinnedVertices mesh = random_skinned_vertices(n, 6, rng);
  for_each_simd_level([&](SimdChoice) {
    // Reference: separate outputs.
    std::vector<glm::vec3> want_p, want_n;
    std::vector<glm::vec4> want_t;
    SkinningJob job = skinning_job_over(mesh, palette, want_p, want_n, want_t);
    ASSERT_TRUE(job.run());
    // Separate arrays skinned over themselves.
    std::vector<glm::vec3> p = mesh.positions, nrm = mesh.normals;
    std::vector<glm::vec4> t = mesh.tangents;
    job.in_positions = std::span<const glm::vec3>(p);
    job.out_positions = std::span<glm::vec3>(p);
    job.in_normals = std::span<const glm::vec3>(nrm);
    job.out_normals = std::span<glm::vec3>(nrm);
    job.in_tangents = std::span<const glm::vec4>(t);
    job.out_tangents = std::span<glm::vec4>(t);
    ASSERT_TRUE(job.run());
    EXPECT_EQ(p, want_p);
    EXPECT_EQ(nrm, want_n);
    EXPECT_EQ(t, want_t);
    // One interleaved buffer skinned over itself.
    std::vector<std::byte> bytes = interleave(mesh);
    job.joints = {bytes.data() + kJnt, n, kStride};
    job.weights = {bytes.data() + kWgt, n, kStride};
    job.in_positions = {bytes.data() + kPos, n, kStride};
    job.out_positions = {bytes.data() + kPos, n, kStride};
    job.in_normals = {bytes.data() + kNrm, n, kStride};
    job.out_normals = {bytes.data() + kNrm, n, kStride};
    job.in_tangents = {bytes.data() + kTan, n, kStride};
    job.out_tangents = {bytes.data() + kTan, n, kStride};
    ASSERT_TRUE(job.run());
    for (std::size_t v = 0; v < n; ++v) {
      glm::vec3 gp, gn;
      glm::vec4 gt;
      std::memcpy(&gp, bytes.data() + v * kStride + kPos, 12);
      std::memcpy(&gn, bytes.data() + v * kStride + kNrm, 12);
      std::memcpy(&gt, bytes.data() + v * kStride + kTan, 16);
      ASSERT_EQ(gp, want_p[v]) << v;
      ASSERT_EQ(gn, want_n[v]) << v;
      ASSERT_EQ(gt, want_t[v]) << v;
    }
  });
}

TEST(SkinningJob, X3_ReadsAndWritesOnlyItsSpans) {
  std::mt19937 rng(29);
  const auto palette = scaled_palette(5, rng);
  for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 33u}) {
    const SkinnedVertices mesh = random_skinned_vertices(n, 5, rng);
    auto guarded = [&](const auto& values) {
      auto g = std::make_unique<GuardedBytes>(values.size() * sizeof(values[0]));
      std::memcpy(g->data(), values.data(), values.size() * sizeof(values[0]));
      return g;
    };
    const auto joints = guarded(mesh.joints), weights = guarded(mesh.weights);
    const auto positions = guarded(mesh.positions), normals = guarded(mesh.normals);
    const auto tangents = guarded(mesh.tangents);
    GuardedBytes out_p(n * 12), out_n(n * 12), out_t(n * 16);
    for_each_simd_level([&](SimdChoice) {
      for (const bool normalize : {false, true}) {
        SkinningJob job;
        job.palette = palette;
        job.normalize = normalize;
        job.joints = {joints->data(), n, 8};
        job.weights = {weights->data(), n, 16};
        job.in_positions = {positions->data(), n, 12};
        job.out_positions = {out_p.data(), n, 12};
        job.in_normals = {normals->data(), n, 12};
        job.out_normals = {out_n.data(), n, 12};
        job.in_tangents = {tangents->data(), n, 16};
        job.out_tangents = {out_t.data(), n, 16};
        ASSERT_TRUE(job.run());
        job.in_tangents = {};
        job.out_tangents = {};
        ASSERT_TRUE(job.run());
        job.in_normals = {};
        job.out_normals = {};
        ASSERT_TRUE(job.run());
        for (std::size_t v = 0; v < n; ++v) {
          const Expected e = reference(palette, mesh, v, normalize);
          glm::vec3 got;
          std::memcpy(&got, out_p.data() + 12 * v, 12);
          ASSERT_TRUE(within(&got.x, &e.position.x, 3, 1e-5)) << "n " << n << " vertex " << v;
        }
      }
    });
  }
}

// A valid job over 10 vertices with every attribute, and its buffers.
struct JobFixture {
  std::vector<glm::mat4> palette = std::vector<glm::mat4>(4, glm::mat4(1.f));
  std::vector<glm::u16vec4> joints = std::vector<glm::u16vec4>(10, glm::u16vec4(0, 1, 2, 3));
  std::vector<glm::vec4> weights = std::vector<glm::vec4>(10, glm::vec4(0.25f));
  std::vector<glm::vec3> in_p = std::vector<glm::vec3>(10, glm::vec3(1, 2, 3));
  std::vector<glm::vec3> in_n = std::vector<glm::vec3>(10, glm::vec3(0, 0, 1));
  std::vector<glm::vec4> in_t = std::vector<glm::vec4>(10, glm::vec4(1, 0, 0, -1));
  std::vector<glm::vec3> out_p = std::vector<glm::vec3>(10, glm::vec3(-7));
  std::vector<glm::vec3> out_n = std::vector<glm::vec3>(10, glm::vec3(-7));
  std::vector<glm::vec4> out_t = std::vector<glm::vec4>(10, glm::vec4(-7));

  SkinningJob job() {
    SkinningJob j;
    j.palette = palette;
    j.joints = std::span<const glm::u16vec4>(joints);
    j.weights = std::span<const glm::vec4>(weights);
    j.in_positions = std::span<const glm::vec3>(in_p);
    j.out_positions = std::span<glm::vec3>(out_p);
    j.in_normals = std::span<const glm::vec3>(in_n);
    j.out_normals = std::span<glm::vec3>(out_n);
    j.in_tangents = std::span<const glm::vec4>(in_t);
    j.out_tangents = std::span<glm::vec4>(out_t);
    return j;
  }
  std::vector<std::byte> outputs() const {
    std::vector<std::byte> b(10 * (12 + 12 + 16));
    std::memcpy(b.data(), out_p.data(), 120);
    std::memcpy(b.data() + 120, out_n.data(), 120);
    std::memcpy(b.data() + 240, out_t.data(), 160);
    return b;
  }
};

TEST(SkinningJob, X3_SkinningJobRefusesBadInputWithoutWriting) {
  struct Case {
    const char* what;
    std::function<void(SkinningJob&, JobFixture&)> spoil;
    const char* field;
    const char* problem;
  };
  const Case cases[] = {
      {"joints short", [](SkinningJob& j, JobFixture& f) { j.joints = std::span<const glm::u16vec4>(f.joints).first(9); },
       "joints", "has fewer elements than in_positions"},
      {"weights short", [](SkinningJob& j, JobFixture& f) { j.weights = std::span<const glm::vec4>(f.weights).first(3); },
       "weights", "has fewer elements than in_positions"},
      {"weights missing", [](SkinningJob& j, JobFixture&) { j.weights = {}; }, "weights",
       "has fewer elements than in_positions"},
      {"out_positions short", [](SkinningJob& j, JobFixture& f) { j.out_positions = std::span<glm::vec3>(f.out_p).first(9); },
       "out_positions", "has fewer elements than in_positions"},
      {"out_positions without in_positions", [](SkinningJob& j, JobFixture&) { j.in_positions = {}; }, "out_positions",
       "is given without in_positions"},
      {"palette empty", [](SkinningJob& j, JobFixture&) { j.palette = {}; }, "palette", "is empty while vertices are given"},
      {"out_normals without in_normals", [](SkinningJob& j, JobFixture&) { j.in_normals = {}; }, "out_normals",
       "is given without in_normals"},
      {"in_normals without out_normals", [](SkinningJob& j, JobFixture&) { j.out_normals = {}; }, "out_normals",
       "is empty while in_normals is given"},
      {"in_normals short", [](SkinningJob& j, JobFixture& f) { j.in_normals = std::span<const glm::vec3>(f.in_n).first(1); },
       "in_normals", "has fewer elements than in_positions"},
      {"out_normals short", [](SkinningJob& j, JobFixture& f) { j.out_normals = std::span<glm::vec3>(f.out_n).first(5); },
       "out_normals", "has fewer elements than in_positions"},
      {"out_tangents without in_tangents", [](SkinningJob& j, JobFixture&) { j.in_tangents = {}; }, "out_tangents",
       "is given without in_tangents"},
      {"in_tangents without out_tangents", [](SkinningJob& j, JobFixture&) { j.out_tangents = {}; }, "out_tangents",
       "is empty while in_tangents is given"},
      {"in_tangents short", [](SkinningJob& j, JobFixture& f) { j.in_tangents = std::span<const glm::vec4>(f.in_t).first(2); },
       "in_tangents", "has fewer elements than in_positions"},
      {"out_tangents short", [](SkinningJob& j, JobFixture& f) { j.out_tangents = std::span<glm::vec4>(f.out_t).first(8); },
       "out_tangents", "has fewer elements than in_positions"},
      {"in_positions stride 0",
       [](SkinningJob& j, JobFixture& f) { j.in_positions = {reinterpret_cast<const std::byte*>(f.in_p.data()), 10, 0}; },
       "in_positions", "has a stride smaller than its element"},
      {"out_positions stride 8",
       [](SkinningJob& j, JobFixture& f) { j.out_positions = {reinterpret_cast<std::byte*>(f.out_p.data()), 10, 8}; },
       "out_positions", "has a stride smaller than its element"},
      {"joints stride 4",
       [](SkinningJob& j, JobFixture& f) { j.joints = {reinterpret_cast<const std::byte*>(f.joints.data()), 10, 4}; },
       "joints", "has a stride smaller than its element"},
      {"weights stride 12",
       [](SkinningJob& j, JobFixture& f) { j.weights = {reinterpret_cast<const std::byte*>(f.weights.data()), 10, 12}; },
       "weights", "has a stride smaller than its element"},
      {"out_normals stride 11",
       [](SkinningJob& j, JobFixture& f) { j.out_normals = {reinterpret_cast<std::byte*>(f.out_n.data()), 10, 11}; },
       "out_normals", "has a stride smaller than its element"},
      {"out_tangents stride 12",
       [](SkinningJob& j, JobFixture& f) { j.out_tangents = {reinterpret_cast<std::byte*>(f.out_t.data()), 10, 12}; },
       "out_tangents", "has a stride smaller than its element"},
      {"in_normals null", [](SkinningJob& j, JobFixture&) { j.in_normals = {static_cast<const std::byte*>(nullptr), 10, 12}; },
       "in_normals", "has no data"},
      {"out_positions null", [](SkinningJob& j, JobFixture&) { j.out_positions = {static_cast<std::byte*>(nullptr), 10, 12}; },
       "out_positions", "has no data"},
  };
  for_each_simd_level([&](SimdChoice) {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.what);
      JobFixture f;
      SkinningJob job = f.job();
      ASSERT_TRUE(job.validate());
      c.spoil(job, f);
      const std::vector<std::byte> before = f.outputs();
      const JobStatus status = job.validate();
      ASSERT_FALSE(status);
      EXPECT_STREQ(status.field, c.field);
      EXPECT_STREQ(status.problem, c.problem);
      EXPECT_FALSE(job.run());
      EXPECT_TRUE(f.outputs() == before) << "an output was written";
      EXPECT_THROW(job.run_or_throw(), std::invalid_argument);
      EXPECT_TRUE(f.outputs() == before) << "an output was written";
    }
  });
  // Longer spans are fine (only the first in_positions.size() elements are used); nothing to
  // skin is fine.
  JobFixture f;
  SkinningJob job = f.job();
  job.in_positions = std::span<const glm::vec3>(f.in_p).first(7);
  EXPECT_TRUE(job.validate());
  EXPECT_TRUE(job.run());
  EXPECT_EQ(f.out_p[6], glm::vec3(1, 2, 3));
  EXPECT_EQ(f.out_p[7], glm::vec3(-7)) << "past in_positions: untouched";
  SkinningJob empty;
  EXPECT_TRUE(empty.validate());
  EXPECT_TRUE(empty.run());
}

TEST(SkinningJob, X3_ValidateReportsJointOutsidePalette) {
  std::mt19937 rng(31);
  const auto palette = scaled_palette(3, rng);
  SkinnedVertices mesh = random_skinned_vertices(6, 3, rng);
  mesh.joints[4] = glm::u16vec4(1, 0, 65535, 3);  // two indices outside the palette
  SkinningJob job;
  job.palette = palette;
  job.joints = std::span<const glm::u16vec4>(mesh.joints);
  job.weights = std::span<const glm::vec4>(mesh.weights);
  job.in_positions = std::span<const glm::vec3>(mesh.positions);
  std::vector<glm::vec3> out(6, glm::vec3(-7));
  job.out_positions = std::span<glm::vec3>(out);
  const JobStatus status = job.validate();
  ASSERT_FALSE(status);
  EXPECT_STREQ(status.field, "joints");
  EXPECT_STREQ(status.problem, "has an index outside the palette");
  EXPECT_EQ(status.message("SkinningJob"), "SkinningJob: joints has an index outside the palette");
  // run() does not scan: the vertex is skinned with the last matrix for those influences, and
  // nothing outside the palette is read.
  for_each_simd_level([&](SimdChoice) {
    ASSERT_TRUE(job.run());
    for (std::size_t v = 0; v < out.size(); ++v) {
      const Expected e = reference(palette, mesh, v, true);
      ASSERT_TRUE(within(&out[v].x, &e.position.x, 3, 1e-5)) << v;
    }
  });
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { job.run_or_throw(); }, {"vertex 4", "joint 65535", "palette of 3"}));
  // Indices past in_positions.size() are not looked at.
  job.in_positions = std::span<const glm::vec3>(mesh.positions).first(4);
  EXPECT_TRUE(job.validate());
  mesh.joints[4] = glm::u16vec4(2);
  job.in_positions = std::span<const glm::vec3>(mesh.positions);
  EXPECT_TRUE(job.validate());
}

}  // namespace
}  // namespace marrow
