// SkinningJob::run on 100 000 vertices with 4 influences into a 64-matrix palette, from separate
// tightly packed arrays and from interleaved vertex bytes; positions only or positions+normals.
// Counter "vertices/s": vertices skinned per second.
#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/core/strided_span.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/core/vertex_layout.hpp"
#include "marrow/runtime/skinning_job.hpp"

namespace {

constexpr std::size_t kVertexCount = 100'000;
constexpr int kPaletteSize = 64;

struct Mesh {
  std::vector<glm::mat4> palette;
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
};

const Mesh& mesh() {
  static const Mesh m = [] {
    std::mt19937 rng(2024u);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::uniform_real_distribution<float> w(0.05f, 1.f);
    std::uniform_int_distribution<int> joint(0, kPaletteSize - 1);
    Mesh out;
    for (int i = 0; i < kPaletteSize; ++i) {
      const glm::quat r = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 1e-3f));
      out.palette.push_back(marrow::compose_trs({u(rng), u(rng), u(rng)}, r, glm::vec3(1.f + 0.2f * u(rng))));
    }
    for (std::size_t v = 0; v < kVertexCount; ++v) {
      out.positions.emplace_back(u(rng), u(rng), u(rng));
      out.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1e-3f)));
      out.joints.emplace_back(joint(rng), joint(rng), joint(rng), joint(rng));
      const glm::vec4 ws(w(rng), w(rng), w(rng), w(rng));
      out.weights.push_back(ws / (ws.x + ws.y + ws.z + ws.w));
    }
    return out;
  }();
  return m;
}

void set_counters(benchmark::State& state) {
  state.counters["vertices/s"] =
      benchmark::Counter(static_cast<double>(kVertexCount), benchmark::Counter::kIsIterationInvariantRate);
}

void run_job(benchmark::State& state, const marrow::SkinningJob& job, void* out) {
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

// Separate arrays: each attribute its own std::vector.
void BM_SkinningSeparate(benchmark::State& state, bool with_normals) {
  const Mesh& m = mesh();
  std::vector<glm::vec3> out_positions(kVertexCount), out_normals(kVertexCount);
  marrow::SkinningJob job;
  job.palette = m.palette;
  job.joints = std::span<const glm::u16vec4>(m.joints);
  job.weights = std::span<const glm::vec4>(m.weights);
  job.in_positions = std::span<const glm::vec3>(m.positions);
  job.out_positions = std::span<glm::vec3>(out_positions);
  if (with_normals) {
    job.in_normals = std::span<const glm::vec3>(m.normals);
    job.out_normals = std::span<glm::vec3>(out_normals);
  }
  run_job(state, job, out_positions.data());
}

// Interleaved bytes, stride 56: position, normal, texcoord0, joints (u16 x4), weights. The
// output is a second buffer of the same layout, as a posed vertex buffer would be.
void BM_SkinningInterleaved(benchmark::State& state, bool with_normals) {
  using marrow::VertexAttribute;
  const Mesh& m = mesh();
  const marrow::VertexLayout layout = marrow::VertexLayout::interleaved(
      {VertexAttribute::Position, VertexAttribute::Normal, VertexAttribute::TexCoord0, VertexAttribute::Joints0,
       VertexAttribute::Weights0});
  const std::size_t stride = layout.stride;
  std::vector<std::byte> in(kVertexCount * stride), out(kVertexCount * stride);
  for (std::size_t v = 0; v < kVertexCount; ++v) {
    std::byte* p = in.data() + v * stride;
    std::memcpy(p + layout.offset(VertexAttribute::Position), &m.positions[v], sizeof(glm::vec3));
    std::memcpy(p + layout.offset(VertexAttribute::Normal), &m.normals[v], sizeof(glm::vec3));
    std::memcpy(p + layout.offset(VertexAttribute::Joints0), &m.joints[v], sizeof(glm::u16vec4));
    std::memcpy(p + layout.offset(VertexAttribute::Weights0), &m.weights[v], sizeof(glm::vec4));
  }
  out = in;
  auto at = [&](auto& bytes, VertexAttribute a) { return bytes.data() + layout.offset(a); };

  marrow::SkinningJob job;
  job.palette = m.palette;
  job.joints = {at(in, VertexAttribute::Joints0), kVertexCount, stride};
  job.weights = {at(in, VertexAttribute::Weights0), kVertexCount, stride};
  job.in_positions = {at(in, VertexAttribute::Position), kVertexCount, stride};
  job.out_positions = {at(out, VertexAttribute::Position), kVertexCount, stride};
  if (with_normals) {
    job.in_normals = {at(in, VertexAttribute::Normal), kVertexCount, stride};
    job.out_normals = {at(out, VertexAttribute::Normal), kVertexCount, stride};
  }
  run_job(state, job, out.data());
}

BENCHMARK_CAPTURE(BM_SkinningSeparate, positions, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_SkinningSeparate, positions_normals, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_SkinningInterleaved, positions, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_SkinningInterleaved, positions_normals, true)->Unit(benchmark::kMicrosecond);

}  // namespace
