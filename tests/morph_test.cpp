// runtime/: the CPU blend (G12, G13, G15), carrier validation (G14), weight tracks (G16).
#include <gtest/gtest.h>

#include <cmath>

#include <cstring>
#include <utility>
#include <vector>

#include "marrow/model/model.hpp"
#include "marrow/model/set_morph_weights.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/morph_target_data.hpp"
#include "marrow/runtime/morph_weight_track.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;
using test::throws_with;

template <class T>
T read(const std::vector<std::byte>& bytes, const VertexLayout& l, std::size_t v, VertexAttribute a) {
  T out;
  std::memcpy(&out, bytes.data() + v * l.stride + l.offset(a), sizeof(T));
  return out;
}

template <class T>
void write(std::vector<std::byte>& bytes, const VertexLayout& l, std::size_t v, VertexAttribute a, const T& value) {
  std::memcpy(bytes.data() + v * l.stride + l.offset(a), &value, sizeof(T));
}

// The seed's stride-32 triangle (position, normal, UV; normals +Z) with its two targets:
// target 0 pushes every vertex +1 in Z, target 1 moves vertex 0 by +2 in X and tilts its normal.
MorphTargetData seed_triangle(const VertexLayout& layout) {
  MorphTargetData m;
  m.layout = layout;
  m.base_vertex_bytes.resize(3 * layout.stride);
  const glm::vec3 positions[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (std::size_t v = 0; v < 3; ++v) {
    write(m.base_vertex_bytes, layout, v, VertexAttribute::Position, positions[v]);
    if (layout.has(VertexAttribute::Normal)) write(m.base_vertex_bytes, layout, v, VertexAttribute::Normal, glm::vec3(0, 0, 1));
    if (layout.has(VertexAttribute::TexCoord0)) {
      write(m.base_vertex_bytes, layout, v, VertexAttribute::TexCoord0, glm::vec2(0.25f * float(v), 0.5f));
    }
    if (layout.has(VertexAttribute::Tangent)) {
      write(m.base_vertex_bytes, layout, v, VertexAttribute::Tangent, glm::vec4(1, 0, 0, v == 2 ? -1.f : 1.f));
    }
    if (layout.has(VertexAttribute::Joints0)) {
      write(m.base_vertex_bytes, layout, v, VertexAttribute::Joints0, glm::u16vec4(v, 1, 2, 3));
    }
    if (layout.has(VertexAttribute::Weights0)) {
      write(m.base_vertex_bytes, layout, v, VertexAttribute::Weights0, glm::vec4(0.4f, 0.3f, 0.2f, 0.1f));
    }
  }
  m.position_deltas.push_back({{0, 0, 1}, {0, 0, 1}, {0, 0, 1}});
  m.normal_deltas.emplace_back();
  m.position_deltas.push_back({{2, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  m.normal_deltas.push_back({{1, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  m.weights = {0.f, 0.f};
  return m;
}

const VertexLayout kStride32 =
    VertexLayout::interleaved({VertexAttribute::Position, VertexAttribute::Normal, VertexAttribute::TexCoord0});

TEST(MorphBlend, G15_SeedTwoTargetTriangle) {
  const MorphTargetData m = seed_triangle(kStride32);
  ASSERT_EQ(kStride32.stride, 32u);
  ASSERT_NO_THROW(validate(m));
  std::vector<std::byte> out(m.base_vertex_bytes.size());
  const float weights[] = {1.f, 1.f};
  blend_morph_targets(m, weights, out);
  EXPECT_TRUE(near(read<glm::vec3>(out, kStride32, 0, VertexAttribute::Position), {2, 0, 1}));
  EXPECT_TRUE(near(read<glm::vec3>(out, kStride32, 1, VertexAttribute::Position), {1, 0, 1}));
  EXPECT_TRUE(near(read<glm::vec3>(out, kStride32, 2, VertexAttribute::Position), {0, 1, 1}));
  // (0,0,1) + (1,0,0) has length sqrt(2) and comes back unit length.
  EXPECT_TRUE(near(read<glm::vec3>(out, kStride32, 0, VertexAttribute::Normal), {0.70710678f, 0, 0.70710678f}));
  EXPECT_TRUE(near(read<glm::vec3>(out, kStride32, 1, VertexAttribute::Normal), {0, 0, 1}));
  // The UV is untouched.
  EXPECT_EQ(read<glm::vec2>(out, kStride32, 1, VertexAttribute::TexCoord0), glm::vec2(0.25f, 0.5f));
}

TEST(MorphBlend, G12_WrongWeightCountThrowsRuntimeError) {
  const MorphTargetData m = seed_triangle(kStride32);
  std::vector<std::byte> out(m.base_vertex_bytes.size());
  const float one[] = {1.f};
  const float three[] = {1.f, 0.f, 0.f};
  EXPECT_TRUE(throws_with<std::runtime_error>([&] { blend_morph_targets(m, one, out); }, {"1 weights", "2 morph targets"}));
  EXPECT_THROW(blend_morph_targets(m, three, out), std::runtime_error);
}

TEST(MorphBlend, G12_PositionsAreAdditiveAndZeroWeightsGiveTheBase) {
  const MorphTargetData m = seed_triangle(kStride32);
  std::vector<std::byte> out(m.base_vertex_bytes.size());
  const float zero[] = {0.f, 0.f};
  blend_morph_targets(m, zero, out);
  EXPECT_EQ(out, m.base_vertex_bytes);
  const float half[] = {0.5f, 0.25f};
  blend_morph_targets(m, half, out);
  EXPECT_TRUE(near(read<glm::vec3>(out, kStride32, 0, VertexAttribute::Position), {0.5f, 0, 0.5f}));
  const float negative[] = {-1.f, 0.f};  // weights are not clamped
  blend_morph_targets(m, negative, out);
  EXPECT_TRUE(near(read<glm::vec3>(out, kStride32, 2, VertexAttribute::Position), {0, 1, -1}));
}

// Every layout with a normal slot morphs it, whatever its stride and the other attributes;
// tangents blend xyz and renormalise, handedness is kept; joints, weights, UVs are copied.
TEST(MorphBlend, G13_EveryLayoutWithANormalMorphsIt) {
  using A = VertexAttribute;
  const std::vector<VertexLayout> layouts = {
      VertexLayout::interleaved({A::Position, A::Normal}),                                          // 24
      kStride32,                                                                                     // 32
      VertexLayout::interleaved({A::Position, A::Normal, A::TexCoord0, A::Tangent}),                // 48
      VertexLayout::interleaved({A::Position, A::Normal, A::Tangent, A::TexCoord0, A::TexCoord1}),  // 56
      VertexLayout::interleaved({A::Position, A::Normal, A::TexCoord0, A::Joints0, A::Weights0}),   // 56
      VertexLayout::interleaved({A::Tangent, A::Position, A::Joints0, A::Normal, A::Weights0, A::TexCoord0}),  // 72
      VertexLayout::interleaved({A::Position, A::Normal, A::Tangent, A::TexCoord0, A::Joints0, A::Weights0}, 12),  // 80
  };
  for (const VertexLayout& layout : layouts) {
    SCOPED_TRACE("stride " + std::to_string(layout.stride));
    MorphTargetData m = seed_triangle(layout);
    if (layout.has(A::Tangent)) {
      m.tangent_deltas.emplace_back();
      m.tangent_deltas.push_back({{0, 1, 0}, {0, 0, 0}, {0, 0, 0}});
    }
    ASSERT_NO_THROW(validate(m));
    std::vector<std::byte> out(m.base_vertex_bytes.size());
    const float weights[] = {1.f, 1.f};
    blend_morph_targets(m, weights, out);
    EXPECT_TRUE(near(read<glm::vec3>(out, layout, 0, A::Position), {2, 0, 1}));
    EXPECT_TRUE(near(read<glm::vec3>(out, layout, 0, A::Normal), {0.70710678f, 0, 0.70710678f}));
    if (layout.has(A::Tangent)) {
      const glm::vec4 t0 = read<glm::vec4>(out, layout, 0, A::Tangent);
      EXPECT_TRUE(near(glm::vec3(t0), {0.70710678f, 0.70710678f, 0}));
      EXPECT_EQ(t0.w, 1.f);
      EXPECT_EQ(read<glm::vec4>(out, layout, 2, A::Tangent).w, -1.f);
    }
    for (std::size_t v = 0; v < 3; ++v) {
      for (A copied : {A::TexCoord0, A::TexCoord1, A::Joints0, A::Weights0}) {
        if (!layout.has(copied)) continue;
        EXPECT_EQ(0, std::memcmp(out.data() + v * layout.stride + layout.offset(copied),
                                 m.base_vertex_bytes.data() + v * layout.stride + layout.offset(copied),
                                 attribute_size(copied)))
            << attribute_name(copied) << " of vertex " << v;
      }
    }
  }
}

TEST(MorphBlend, G13_FlatNormalsRecomputedFromMorphedPositions) {
  using A = VertexAttribute;
  const VertexLayout layout = VertexLayout::interleaved({A::Position, A::Normal, A::Tangent});
  MorphTargetData m = seed_triangle(layout);
  m.normal_deltas.clear();  // a primitive without authored normals may not carry normal deltas
  m.position_deltas = {{{0, 0, 0}, {0, 0, 1}, {0, 0, 0}}};  // lift vertex 1: the face tilts
  m.weights = {0.f};
  m.recompute_flat_normals = true;
  m.triangle_indices = {0, 1, 2};
  ASSERT_NO_THROW(validate(m));
  std::vector<std::byte> out(m.base_vertex_bytes.size());
  const float w[] = {1.f};
  blend_morph_targets(m, w, out);
  // Face (0,0,0), (1,0,1), (0,1,0): normal = normalize((1,0,1) x (0,1,0)) = (-1, 0, 1)/sqrt(2).
  for (std::size_t v = 0; v < 3; ++v) {
    const glm::vec3 n = read<glm::vec3>(out, layout, v, A::Normal);
    EXPECT_TRUE(near(n, {-0.70710678f, 0, 0.70710678f})) << v;
    const glm::vec4 t = read<glm::vec4>(out, layout, v, A::Tangent);
    EXPECT_NEAR(glm::dot(glm::vec3(t), n), 0.f, 1e-6f) << "tangent re-orthogonalised";
    EXPECT_NEAR(glm::length(glm::vec3(t)), 1.f, 1e-6f);
  }
}

TEST(MorphBlend, G13_SettingWeightsBumpsTheBufferRevision) {
  ModelMeshPart part;
  part.morph = seed_triangle(kStride32);
  part.layout = kStride32;
  part.vertex_bytes = part.morph->base_vertex_bytes;
  const float weights[] = {1.f, 0.f};
  set_morph_weights(part, weights);
  EXPECT_EQ(part.revision, 1u);
  EXPECT_EQ(part.morph->weights, std::vector<float>({1.f, 0.f}));
  EXPECT_TRUE(near(read<glm::vec3>(part.vertex_bytes, kStride32, 1, VertexAttribute::Position), {1, 0, 1}));
  set_morph_weights(part, weights);
  EXPECT_EQ(part.revision, 2u);
  ModelMeshPart plain;
  EXPECT_THROW(set_morph_weights(plain, weights), std::logic_error);
}

TEST(MorphCarrier, G14_InconsistentArraysAreRefused) {
  {
    MorphTargetData m = seed_triangle(kStride32);
    m.normal_deltas.pop_back();  // one normal list for two targets
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(m); }, {"normal_deltas has 1 targets", "2"}));
  }
  {
    MorphTargetData m = seed_triangle(kStride32);
    m.position_deltas[1].pop_back();
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(m); }, {"position_deltas[1] has 2 deltas", "3 vertices"}));
  }
  {
    MorphTargetData m = seed_triangle(kStride32);
    m.tangent_deltas = {{}, {{0, 1, 0}, {0, 0, 0}, {0, 0, 0}}};  // stride 32 has no tangent slot
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(m); }, {"tangent_deltas[1]", "no slot"}));
  }
  {
    MorphTargetData m = seed_triangle(kStride32);
    m.base_vertex_bytes.pop_back();
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(m); }, {"base_vertex_bytes has 95 bytes", "stride 32"}));
  }
  {
    MorphTargetData m = seed_triangle(kStride32);
    m.position_deltas[0][2].x = INFINITY;
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(m); }, {"position_deltas[0][2]", "not finite"}));
  }
  {
    MorphTargetData m = seed_triangle(kStride32);
    m.recompute_flat_normals = true;
    m.triangle_indices = {0, 1, 3};
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(m); }, {"triangle_indices[2] = 3"}));
  }
  {
    MorphTargetData m = seed_triangle(kStride32);
    m.layout.set(VertexAttribute::Normal, 28);
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(m); }, {"normal at offset 28"}));
  }
}

MorphWeightTrack two_weight_track(Interpolation interpolation) {
  MorphWeightTrack t;
  t.interpolation = interpolation;
  t.weight_count = 2;
  t.times = {1.0, 2.0, 4.0};
  t.values = {0.f, 1.f, /**/ 1.f, 0.f, /**/ 0.5f, 0.5f};
  return t;
}

TEST(MorphWeightTrack, G16_EmptyTrackGivesEmptyWeights) {
  EXPECT_TRUE(evaluate_morph_weights(MorphWeightTrack{}, 1.0).empty());
}

TEST(MorphWeightTrack, G16_OneKeyGivesItsWeights) {
  MorphWeightTrack t;
  t.weight_count = 2;
  t.times = {3.0};
  t.values = {0.25f, 0.75f};
  EXPECT_EQ(evaluate_morph_weights(t, -10.0), std::vector<float>({0.25f, 0.75f}));
  EXPECT_EQ(evaluate_morph_weights(t, 10.0), std::vector<float>({0.25f, 0.75f}));
}

TEST(MorphWeightTrack, G16_ClampsAtBothEnds) {
  const MorphWeightTrack t = two_weight_track(Interpolation::Linear);
  EXPECT_EQ(evaluate_morph_weights(t, 0.0), std::vector<float>({0.f, 1.f}));
  EXPECT_EQ(evaluate_morph_weights(t, 9.0), std::vector<float>({0.5f, 0.5f}));
}

TEST(MorphWeightTrack, G16_LinearBetweenKeys) {
  const MorphWeightTrack t = two_weight_track(Interpolation::Linear);
  const auto w = evaluate_morph_weights(t, 1.25);
  EXPECT_FLOAT_EQ(w[0], 0.25f);
  EXPECT_FLOAT_EQ(w[1], 0.75f);
  EXPECT_EQ(evaluate_morph_weights(t, 3.0), std::vector<float>({0.75f, 0.25f}));
}

TEST(MorphWeightTrack, G16_StepIsHalfOpen) {
  const MorphWeightTrack t = two_weight_track(Interpolation::Step);
  EXPECT_EQ(evaluate_morph_weights(t, 1.999999), std::vector<float>({0.f, 1.f}));
  EXPECT_EQ(evaluate_morph_weights(t, 2.0), std::vector<float>({1.f, 0.f}));  // next value already in force
  EXPECT_EQ(evaluate_morph_weights(t, 4.0), std::vector<float>({0.5f, 0.5f}));
}

// One weight, two keys at 0 and `end` seconds, CUBICSPLINE.
MorphWeightTrack one_weight_cubic(double end, std::vector<float> values, std::vector<float> in_tangents,
                                  std::vector<float> out_tangents) {
  MorphWeightTrack t;
  t.interpolation = Interpolation::CubicSpline;
  t.weight_count = 1;
  t.times = {0.0, end};
  t.values = std::move(values);
  t.in_tangents = std::move(in_tangents);
  t.out_tangents = std::move(out_tangents);
  return t;
}

TEST(MorphWeightTrack, G16_CubicIsHermiteWithIntervalScaledTangents) {
  const MorphWeightTrack t = one_weight_cubic(2.0, {0.f, 1.f}, {0.f, 3.f}, {1.f, 0.f});
  ASSERT_NO_THROW(validate(t));
  // s = 0.5, dt = 2: h00 = .5, h10 = .125, h01 = .5, h11 = -.125
  // p = .5*0 + .125*2*1 + .5*1 + -.125*2*3 = 0.25 + 0.5 - 0.75 = 0
  EXPECT_NEAR(evaluate_morph_weights(t, 1.0)[0], 0.f, 1e-6f);
  // s = 0.25: h00 = .84375, h10 = .140625, h01 = .15625, h11 = -.046875 -> .28125 + .15625 - .28125 = .15625
  EXPECT_NEAR(evaluate_morph_weights(t, 0.5)[0], 0.15625f, 1e-6f);
  EXPECT_EQ(evaluate_morph_weights(t, 2.0)[0], 1.f);
}

TEST(MorphWeightTrack, G16_CubicWithoutTangentsFallsBackToLinear) {
  MorphWeightTrack t = two_weight_track(Interpolation::CubicSpline);
  const auto w = evaluate_morph_weights(t, 1.5);
  EXPECT_FLOAT_EQ(w[0], 0.5f);
  EXPECT_FLOAT_EQ(w[1], 0.5f);
}

TEST(MorphWeightTrack, G16_ValidateRefusesBadTracks) {
  MorphWeightTrack t = two_weight_track(Interpolation::Linear);
  t.times[2] = 1.5;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(t); }, {"times[2] = 1.5"}));
  t = two_weight_track(Interpolation::Linear);
  t.values.pop_back();
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(t); }, {"values has 5 values, expected 6"}));
  t = two_weight_track(Interpolation::CubicSpline);
  t.in_tangents.assign(6, 0.f);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(t); }, {"both"}));
  std::vector<float> out(3);
  EXPECT_THROW(evaluate_morph_weights(two_weight_track(Interpolation::Linear), 1.0, out), std::invalid_argument);
}

// Finite keys can still describe a Hermite segment beyond the float range: refused, so that every
// weight a valid track yields is finite.
TEST(MorphWeightTrack, G16_ValidateRefusesCubicSegmentsBeyondTheFloatRange) {
  MorphWeightTrack t = one_weight_cubic(4.0, {1.f, 1.f}, {0.f, 0.f}, {1e38f, 0.f});  // dt * 1e38 = 4e38
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { validate(t); }, {"interval 0 weight 0", "float range"}));
  t.times = {0.0, 2.0};  // 2e38 + 2 fits: accepted, and the curve's samples are finite
  ASSERT_NO_THROW(validate(t));
  for (double s : {0.1, 0.3333, 0.5, 0.9}) EXPECT_TRUE(std::isfinite(evaluate_morph_weights(t, s)[0]));
}

}  // namespace
}  // namespace marrow
