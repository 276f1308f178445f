// core/: ticks, TRS compose/decompose, slerp, vertex layouts, diagnostics, ImportError.
#include <algorithm>
#include <gtest/gtest.h>

#include <random>

#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/diagnostic.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/slerp.hpp"
#include "marrow/core/ticks.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/core/vertex_layout.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;

TEST(Ticks, SecondsRoundToNearestTick) {
  EXPECT_EQ(ticks_from_seconds(1.0).count(), 10'000'000);
  EXPECT_EQ(ticks_from_seconds(0.00000004).count(), 0);
  EXPECT_EQ(ticks_from_seconds(0.00000006).count(), 1);
  EXPECT_EQ(ticks_from_seconds(-0.00000006).count(), -1);
  EXPECT_EQ(ticks_from_seconds(std::nan("")).count(), 0);
  EXPECT_EQ(ticks_from_seconds(1e300).count(), INT64_MAX);
  EXPECT_EQ(ticks_from_seconds(-1e300).count(), INT64_MIN);
  EXPECT_DOUBLE_EQ(seconds_from_ticks(Ticks{25'000'000}), 2.5);
}

TEST(Ticks, FloorModuloIsNonNegative) {
  EXPECT_EQ(floor_mod(Ticks{-1}, Ticks{10}).count(), 9);
  EXPECT_EQ(floor_mod(Ticks{-10}, Ticks{10}).count(), 0);
  EXPECT_EQ(floor_mod(Ticks{25}, Ticks{10}).count(), 5);
  EXPECT_EQ(saturating_add(Ticks{INT64_MAX}, Ticks{1}).count(), INT64_MAX);
  EXPECT_EQ(saturating_add(Ticks{INT64_MIN}, Ticks{-1}).count(), INT64_MIN);
}

TEST(Trs, ComposeMatchesGlm) {
  const glm::vec3 t(1, 2, 3), s(2, 3, 4);
  const glm::quat r = glm::normalize(glm::quat(0.9f, 0.1f, -0.3f, 0.2f));
  const glm::mat4 expected = glm::translate(glm::mat4(1.f), t) * glm::mat4_cast(r) * glm::scale(glm::mat4(1.f), s);
  EXPECT_TRUE(near(compose_trs(t, r, s), expected));
}

TEST(Trs, DecomposeRoundTrips) {
  const glm::vec3 t(1, -2, 3), s(0.5f, 2, 3);
  const glm::quat r = glm::normalize(glm::quat(0.3f, 0.4f, -0.5f, 0.6f));
  const Trs d = decompose_trs(compose_trs(t, r, s));
  EXPECT_TRUE(near(d.translation, t));
  EXPECT_TRUE(near(d.scale, s));
  EXPECT_TRUE(test::same_rotation(d.rotation, r));
  EXPECT_GE(d.rotation.w, 0.f);
}

TEST(Trs, DecomposeMirrorBecomesNegativeXScale) {
  const glm::mat4 m = glm::scale(glm::mat4(1.f), glm::vec3(1, -1, 1));
  const Trs d = decompose_trs(m);
  EXPECT_TRUE(near(compose_trs(d), m));
  EXPECT_LT(d.scale.x, 0.f);
}

TEST(Trs, DecomposeZeroScaleAxisKeepsARotation) {
  const glm::quat r = glm::angleAxis(glm::radians(30.f), glm::vec3(0, 1, 0));
  const glm::mat4 m = compose_trs(glm::vec3(0), r, glm::vec3(0, 1, 1));
  const Trs d = decompose_trs(m);
  EXPECT_TRUE(near(compose_trs(d), m));
  EXPECT_TRUE(test::same_rotation(d.rotation, r));
  const Trs zero = decompose_trs(glm::mat4(0.f));
  EXPECT_TRUE(test::same_rotation(zero.rotation, glm::quat(1, 0, 0, 0)));
}

TEST(Trs, DecomposeDropsShear) {
  glm::mat4 m(1.f);
  m[1][0] = 0.5f;  // shear y into x
  const Trs d = decompose_trs(m);
  EXPECT_NEAR(glm::length(d.rotation), 1.f, 1e-6f);
  EXPECT_TRUE(std::isfinite(d.scale.y));
}

TEST(Slerp, ShortestPathAndEndpoints) {
  const glm::quat a = glm::angleAxis(glm::radians(20.f), glm::vec3(1, 0, 0));
  const glm::quat b = glm::angleAxis(glm::radians(100.f), glm::vec3(1, 0, 0));
  EXPECT_TRUE(test::same_rotation(slerp_shortest(a, b, 0.f), a));
  EXPECT_TRUE(test::same_rotation(slerp_shortest(a, b, 1.f), b));
  EXPECT_TRUE(test::same_rotation(slerp_shortest(a, -b, 0.5f), glm::angleAxis(glm::radians(60.f), glm::vec3(1, 0, 0))));
  const glm::quat c = glm::angleAxis(glm::radians(20.001f), glm::vec3(1, 0, 0));  // nearly parallel: nlerp
  EXPECT_NEAR(glm::length(slerp_shortest(a, c, 0.5f)), 1.f, 1e-6f);
}

// The split slerp (slerp_arc once per pair of keys, slerp_direction per sample) points where
// slerp_shortest does, bit for bit once scaled: the same weights, its length left unset.
TEST(Slerp, DirectionFromAStoredArcIsSlerpShortestUnscaled) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.f, 1.f), p01(0.f, 1.f);
  for (int i = 0; i < 2000; ++i) {
    const glm::quat a = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    const float spread = i % 3 == 0 ? 1e-4f : 1.f;  // the lerp range too
    const glm::quat b = glm::normalize(a + spread * glm::quat(u(rng), u(rng), u(rng), u(rng))) * (i % 2 == 0 ? 1.f : -1.f);
    const float p = p01(rng);
    const SlerpArc arc = slerp_arc(a, b);
    const glm::quat d = slerp_direction(a, b, arc, p), full = slerp_shortest(a, b, p);
    ASSERT_GT(glm::length(d), 0.f);
    const float scale = glm::length(full) / glm::length(d);
    EXPECT_NEAR(glm::length(full - d * scale), 0.f, 2e-7f) << i;
    EXPECT_EQ(arc.sign, glm::dot(a, b) < 0.f ? -1.f : 1.f);
  }
}

TEST(VertexLayout, InterleavedOffsetsAndProblems) {
  const VertexLayout l = VertexLayout::interleaved(
      {VertexAttribute::Position, VertexAttribute::Normal, VertexAttribute::TexCoord0}, 4);
  EXPECT_EQ(l.stride, 36u);
  EXPECT_EQ(l.offset(VertexAttribute::Normal), 12u);
  EXPECT_EQ(l.offset(VertexAttribute::TexCoord0), 24u);
  EXPECT_FALSE(l.has(VertexAttribute::Tangent));
  EXPECT_TRUE(l.problem().empty());
  VertexLayout bad = l;
  bad.set(VertexAttribute::Tangent, 28);
  EXPECT_NE(bad.problem().find("tangent at offset 28 (16 bytes) exceeds stride 36"), std::string::npos);
  bad = l;
  bad.set(VertexAttribute::Position, -1);
  EXPECT_NE(bad.problem().find("no position"), std::string::npos);
}

TEST(Diagnostics, SameCodeCounts) {
  std::vector<Diagnostic> list;
  add_diagnostic(list, DiagnosticCode::ChannelTargetOutsideScene, "animation 0 channel 3 targets node 9");
  add_diagnostic(list, DiagnosticCode::ChannelTargetOutsideScene, "animation 0 channel 4 targets node 9");
  add_diagnostic(list, DiagnosticCode::UnsupportedChannelPath, "pointer");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(find_diagnostic(list, DiagnosticCode::ChannelTargetOutsideScene)->count, 2);
  EXPECT_EQ(find_diagnostic(list, "channel-target-outside-scene")->count, 2);  // by its stable name
  EXPECT_NE(find_diagnostic(list, "channel-target-outside-scene")->message.find("channel 3"), std::string::npos);
  EXPECT_EQ(find_diagnostic(list, "nope"), nullptr);
  EXPECT_EQ(find_diagnostic(list, DiagnosticCode::DuplicateChannel), nullptr);
}

// Every code has its own kebab-case name, and the name leads back to the code (JSON, Python and
// the native format carry names).
TEST(Diagnostics, EveryCodeHasOneStableName) {
  std::vector<std::string> names;
  for (int i = 0;; ++i) {
    const auto code = static_cast<DiagnosticCode>(i);
    const std::string_view name = to_string(code);
    if (name == "unknown") break;
    EXPECT_EQ(diagnostic_code_from_string(name), code) << name;
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"), std::string_view::npos) << name;
    names.emplace_back(name);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(DiagnosticCode::VrmHumanoidDropped) + 1);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  EXPECT_EQ(to_string(DiagnosticCode::ChannelTargetOutsideScene), "channel-target-outside-scene");
  EXPECT_FALSE(diagnostic_code_from_string("not-a-code").has_value());
}

TEST(ImportErrorTest, CarriesCodeAndMessage) {
  const ImportError e(ImportErrorCode::AccessorOutOfBounds, "accessor 12: too long");
  EXPECT_EQ(e.code(), ImportErrorCode::AccessorOutOfBounds);
  EXPECT_STREQ(e.what(), "[accessor-out-of-bounds] accessor 12: too long");
  EXPECT_EQ(e.detail(), "accessor 12: too long");
}

}  // namespace
}  // namespace marrow

namespace marrow {
namespace {

// slerp_shortest against a double-precision reference slerp on random pairs and parameters.
TEST(Slerp, MatchesDoublePrecisionSlerp) {
  std::uint32_t state = 12345;
  const auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<double>(state >> 8) / 16777216.0 * 2.0 - 1.0;
  };
  double worst = 0.0;
  for (int i = 0; i < 20000; ++i) {
    double qa[4] = {next(), next(), next(), next()}, qb[4];
    const double spread = (i % 4 == 0) ? 1e-3 : (i % 4 == 1 ? 0.05 : 1.0);  // small and large angles
    for (int k = 0; k < 4; ++k) qb[k] = qa[k] + spread * next();
    double na = 0, nb = 0;
    for (int k = 0; k < 4; ++k) { na += qa[k] * qa[k]; nb += qb[k] * qb[k]; }
    for (int k = 0; k < 4; ++k) { qa[k] /= std::sqrt(na); qb[k] /= std::sqrt(nb); }
    const glm::quat a{float(qa[3]), float(qa[0]), float(qa[1]), float(qa[2])};
    const glm::quat b{float(qb[3]), float(qb[0]), float(qb[1]), float(qb[2])};
    // Reference from the float inputs, in double.
    const double fa[4] = {a.x, a.y, a.z, a.w};
    double fb[4] = {b.x, b.y, b.z, b.w};
    double d = 0;
    for (int k = 0; k < 4; ++k) d += fa[k] * fb[k];
    if (d < 0) { d = -d; for (double& v : fb) v = -v; }
    const double p = (next() + 1.0) / 2.0;
    const double th = std::acos(std::min(d, 1.0));
    double r[4];
    for (int k = 0; k < 4; ++k) {
      r[k] = th < 1e-12 ? fa[k] * (1 - p) + fb[k] * p
                        : (std::sin((1 - p) * th) * fa[k] + std::sin(p * th) * fb[k]) / std::sin(th);
    }
    const glm::quat got = slerp_shortest(a, b, static_cast<float>(p));
    // Angular distance from chord length (acos near 1 would amplify float rounding).
    const double rn = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    const double g[4] = {got.x, got.y, got.z, got.w};
    double minus = 0, plus = 0;
    for (int k = 0; k < 4; ++k) {
      minus += (g[k] - r[k] / rn) * (g[k] - r[k] / rn);
      plus += (g[k] + r[k] / rn) * (g[k] + r[k] / rn);
    }
    const double angle = 2.0 * std::sqrt(std::min(minus, plus));
    worst = std::max(worst, angle);
    EXPECT_NEAR(glm::length(got), 1.f, 4e-7f);
  }
  EXPECT_LT(worst, 1e-6) << "largest angular error in radians";
  std::printf("slerp worst angular error %.3g rad\n", worst);
}

}  // namespace
}  // namespace marrow

namespace marrow {
namespace {

// Slightly non-unit keys (as some exporters write 0.707 for 1/sqrt(2)): the direction is
// slerped and the length interpolated, so equal-length keys keep their length in between, as the
// glTF slerp formula applied to the stored values does.
TEST(Slerp, NonUnitKeysKeepTheirLengthBetweenKeys) {
  const glm::quat a(0.707f, 0.f, 0.f, 0.707f), b(0.f, 0.f, 0.f, 0.99985f);
  const glm::quat mid = slerp_shortest(a, b, 0.5f);
  EXPECT_NEAR(glm::length(mid), glm::length(a), 1e-6f);
  // a is 90 degrees about z, b 180 degrees: halfway is 135 degrees.
  EXPECT_TRUE(test::same_rotation(glm::normalize(mid), glm::angleAxis(glm::radians(135.f), glm::vec3(0, 0, 1)), 1e-6f));
}

}  // namespace
}  // namespace marrow
