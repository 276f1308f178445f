// blend_morph_targets on 50 000 interleaved vertices (position, normal, texcoord0) with 8
// targets, each carrying position and normal deltas, all weights non-zero.
// Counter "vertex_targets/s": vertices x targets blended per second.
#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "bench_guard.hpp"
#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/morph_target_data.hpp"

namespace {

constexpr std::size_t kVertexCount = 50'000;
constexpr std::size_t kTargetCount = 8;

marrow::MorphTargetData make_morph() {
  using marrow::VertexAttribute;
  std::mt19937 rng(77u);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  marrow::MorphTargetData morph;
  morph.layout = marrow::VertexLayout::interleaved(
      {VertexAttribute::Position, VertexAttribute::Normal, VertexAttribute::TexCoord0});
  const std::size_t stride = morph.layout.stride;
  morph.base_vertex_bytes.resize(kVertexCount * stride);
  for (std::size_t v = 0; v < kVertexCount; ++v) {
    std::byte* p = morph.base_vertex_bytes.data() + v * stride;
    const glm::vec3 pos(u(rng), u(rng), u(rng));
    const glm::vec3 nrm = glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1e-3f));
    const glm::vec2 uv(u(rng), u(rng));
    std::memcpy(p + morph.layout.offset(VertexAttribute::Position), &pos, sizeof pos);
    std::memcpy(p + morph.layout.offset(VertexAttribute::Normal), &nrm, sizeof nrm);
    std::memcpy(p + morph.layout.offset(VertexAttribute::TexCoord0), &uv, sizeof uv);
  }
  // Small deltas so normals stay far from zero length, as in real blend shapes.
  for (std::size_t t = 0; t < kTargetCount; ++t) {
    auto& dp = morph.position_deltas.emplace_back(kVertexCount);
    auto& dn = morph.normal_deltas.emplace_back(kVertexCount);
    for (std::size_t v = 0; v < kVertexCount; ++v) {
      dp[v] = 0.1f * glm::vec3(u(rng), u(rng), u(rng));
      dn[v] = 0.05f * glm::vec3(u(rng), u(rng), u(rng));
    }
  }
  morph.weights.assign(kTargetCount, 0.f);
  for (std::size_t t = 0; t < kTargetCount; ++t) morph.weights[t] = 0.1f + 0.1f * static_cast<float>(t);
  marrow::validate(morph);  // build once, validate once (as the API asks); not timed
  return morph;
}

void BM_MorphBlend(benchmark::State& state) {
  const marrow::MorphTargetData morph = make_morph();
  std::vector<std::byte> out(morph.base_vertex_bytes.size());
  for (auto _ : state) {
    marrow::blend_morph_targets(morph, morph.weights, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.counters["vertex_targets/s"] = benchmark::Counter(static_cast<double>(kVertexCount * kTargetCount),
                                                          benchmark::Counter::kIsIterationInvariantRate);
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("BM_MorphBlend",
                               marrow::bench::guarded("blend_morph_targets on 8 synthetic targets", BM_MorphBlend))
      ->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
