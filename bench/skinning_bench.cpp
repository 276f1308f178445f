// SkinningJob::run with 4 influences per vertex into one 64-matrix palette (G19), the workload of
// ozz-animation's skinning benchmark: a synthetic mesh (random positions, unit normals, four
// random joints, weights summing to 1) in separate tightly packed arrays, skinned into separate
// packed outputs; the palette rotates, translates and scales each joint by one factor in
// [0.8, 1.2] (a uniform palette: S2 keeps the blended matrix for normals). Rows:
//   skinning_p/100k, skinning_p/1m           positions only
//   skinning_pn/100k, skinning_pn/1m         positions + normals (normals not renormalised, as ozz)
//   skinning_pn_normalized/100k              positions + normals, renormalised (the default)
//   skinning_pnt/100k                        positions + normals + tangents, renormalised
//   skinning_p_interleaved/100k,
//   skinning_pn_interleaved/100k             the same from and into interleaved vertex bytes
//   skinning_pn_interleaved_to_separate/100k from interleaved bytes into separate arrays,
//                                            renormalised (what Animator::pose_part does)
//   skinning_pn8/100k                        8 influences (S1), positions + normals
//   skinning_pn12/100k                       12 influences (the loop for any count)
//   skinning_pn_nonuniform/100k              positions + normals under a non-uniform palette
//                                            (S2: normals through the cofactor)
//   skinning_pn_dqs/100k                     dual quaternions (S3), 4 influences, positions +
//                                            normals, the same rotations and translations
//                                            without the scale factors (a rigid palette, DQS's
//                                            own case: no scale phase)
//   skinning_pn_dqs_scaled/100k              the same with the scale factors kept (uniform
//                                            scales: a blended factor per vertex, S3)
// 100k (100 000 vertices, 4.8 MB of input and output) stays in the last-level cache; 1m
// (1 000 000, 72 MB) streams from memory. Counter vertices_per_second: vertices skinned per
// second. The label is the instruction set in use (MARROW_SIMD=sse2|avx2|avx512 lowers it).
//   taskset -c 1 build/release/bench/marrow_bench --benchmark_filter=skinning --benchmark_min_time=0.5
#include <cstddef>
#include <cstring>
#include <map>
#include <utility>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "bench_guard.hpp"
#include "marrow/core/strided_span.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/core/vertex_layout.hpp"
#include "marrow/runtime/dual_quaternion_palette_job.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/skinning_job.hpp"

namespace {

using marrow::bench::guarded;

constexpr std::size_t k100k = 100'000;
constexpr std::size_t k1m = 1'000'000;
constexpr int kPaletteSize = 64;

struct Mesh {
  std::vector<glm::mat4> palette;
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> tangents;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
};

// Rows of `k` influences (random joints, weights summing to 1) for the S1 rows.
struct Rows {
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
};

const Rows& influence_rows(std::size_t vertex_count, std::size_t k) {
  static std::map<std::pair<std::size_t, std::size_t>, Rows> cache;
  const auto key = std::make_pair(vertex_count, k);
  if (const auto found = cache.find(key); found != cache.end()) return found->second;
  std::mt19937 rng(2025u);
  std::uniform_real_distribution<float> w(0.05f, 1.f);
  std::uniform_int_distribution<int> joint(0, kPaletteSize - 1);
  Rows out;
  for (std::size_t v = 0; v < vertex_count; ++v) {
    float sum = 0.f;
    for (std::size_t i = 0; i < k; ++i) {
      out.joints.push_back(static_cast<std::uint16_t>(joint(rng)));
      out.weights.push_back(w(rng));
      sum += out.weights.back();
    }
    for (std::size_t i = 0; i < k; ++i) out.weights[out.weights.size() - 1 - i] /= sum;
  }
  return cache.emplace(key, std::move(out)).first->second;
}

const Mesh& mesh(std::size_t vertex_count) {
  static std::map<std::size_t, Mesh> cache;  // nodes stay put: references remain valid
  if (const auto found = cache.find(vertex_count); found != cache.end()) return found->second;
  std::mt19937 rng(2024u);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_real_distribution<float> w(0.05f, 1.f);
  std::uniform_int_distribution<int> joint(0, kPaletteSize - 1);
  Mesh out;
  for (int i = 0; i < kPaletteSize; ++i) {
    const glm::quat r = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 1e-3f));
    out.palette.push_back(marrow::compose_trs({u(rng), u(rng), u(rng)}, r, glm::vec3(1.f + 0.2f * u(rng))));
  }
  out.positions.reserve(vertex_count);
  for (std::size_t v = 0; v < vertex_count; ++v) {
    out.positions.emplace_back(u(rng), u(rng), u(rng));
    out.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1e-3f)));
    out.tangents.emplace_back(glm::normalize(glm::vec3(u(rng) + 1e-3f, u(rng), u(rng))), v % 2 ? 1.f : -1.f);
    out.joints.emplace_back(joint(rng), joint(rng), joint(rng), joint(rng));
    const glm::vec4 ws(w(rng), w(rng), w(rng), w(rng));
    out.weights.push_back(ws / (ws.x + ws.y + ws.z + ws.w));
  }
  return cache.emplace(vertex_count, std::move(out)).first->second;
}

void run_job(benchmark::State& state, const marrow::SkinningJob& job, std::size_t vertex_count, const void* out) {
  if (!job.validate()) {
    state.SkipWithError(job.validate().message("SkinningJob").c_str());
    return;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(job.run());
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  state.counters["vertices_per_second"] =
      benchmark::Counter(static_cast<double>(vertex_count), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(marrow::to_string(marrow::simd_choice()));
}

enum class Attributes { P, PN, PNT };

// Outputs for a job over the mesh's separate arrays.
struct Outputs {
  explicit Outputs(std::size_t n) : positions(n), normals(n), tangents(n) {}
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> tangents;
};

// A job over the mesh's separate arrays (joints, weights, the given attributes) into out;
// the caller sets its palette (or dual quaternions) and normalize.
marrow::SkinningJob separate_job(const Mesh& m, Attributes attributes, Outputs& out) {
  marrow::SkinningJob job;
  job.joints = std::span<const glm::u16vec4>(m.joints);
  job.weights = std::span<const glm::vec4>(m.weights);
  job.in_positions = std::span<const glm::vec3>(m.positions);
  job.out_positions = std::span<glm::vec3>(out.positions);
  if (attributes != Attributes::P) {
    job.in_normals = std::span<const glm::vec3>(m.normals);
    job.out_normals = std::span<glm::vec3>(out.normals);
  }
  if (attributes == Attributes::PNT) {
    job.in_tangents = std::span<const glm::vec4>(m.tangents);
    job.out_tangents = std::span<glm::vec4>(out.tangents);
  }
  return job;
}

// Separate arrays: each attribute its own std::vector, as ozz's skinning job takes them.
void BM_Separate(benchmark::State& state, std::size_t vertex_count, Attributes attributes, bool normalize) {
  const Mesh& m = mesh(vertex_count);
  Outputs out(vertex_count);
  marrow::SkinningJob job = separate_job(m, attributes, out);
  job.palette = m.palette;
  job.normalize = normalize;
  run_job(state, job, vertex_count, out.positions.data());
}

// Interleaved bytes, stride 56: position, normal, texcoord0, joints (u16 x4), weights. The
// output is a second buffer of the same layout, as a posed vertex buffer would be, or (to_separate)
// separate packed arrays, as Animator::pose_part writes them.
void BM_Interleaved(benchmark::State& state, std::size_t vertex_count, Attributes attributes, bool normalize,
                    bool to_separate) {
  using marrow::VertexAttribute;
  const Mesh& m = mesh(vertex_count);
  const marrow::VertexLayout layout = marrow::VertexLayout::interleaved(
      {VertexAttribute::Position, VertexAttribute::Normal, VertexAttribute::TexCoord0, VertexAttribute::Joints0,
       VertexAttribute::Weights0});
  const std::size_t stride = layout.stride;
  std::vector<std::byte> in(vertex_count * stride), out;
  for (std::size_t v = 0; v < vertex_count; ++v) {
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
  job.joints = {at(in, VertexAttribute::Joints0), vertex_count, stride};
  job.weights = {at(in, VertexAttribute::Weights0), vertex_count, stride};
  job.in_positions = {at(in, VertexAttribute::Position), vertex_count, stride};
  job.out_positions = {at(out, VertexAttribute::Position), vertex_count, stride};
  if (attributes != Attributes::P) {
    job.in_normals = {at(in, VertexAttribute::Normal), vertex_count, stride};
    job.out_normals = {at(out, VertexAttribute::Normal), vertex_count, stride};
  }
  std::vector<glm::vec3> out_positions, out_normals;
  if (to_separate) {
    out_positions.resize(vertex_count);
    job.out_positions = std::span<glm::vec3>(out_positions);
    if (attributes != Attributes::P) {
      out_normals.resize(vertex_count);
      job.out_normals = std::span<glm::vec3>(out_normals);
    }
  }
  job.normalize = normalize;
  run_job(state, job, vertex_count, out.data());
}

void BM_InterleavedToInterleaved(benchmark::State& state, std::size_t vertex_count, Attributes attributes,
                                 bool normalize) {
  BM_Interleaved(state, vertex_count, attributes, normalize, false);
}
void BM_InterleavedToSeparate(benchmark::State& state, std::size_t vertex_count, Attributes attributes,
                              bool normalize) {
  BM_Interleaved(state, vertex_count, attributes, normalize, true);
}

// Separate arrays with `k` influences per vertex, positions + normals, not renormalised.
void BM_Influences(benchmark::State& state, std::size_t vertex_count, std::size_t k) {
  const Mesh& m = mesh(vertex_count);
  const Rows& r = influence_rows(vertex_count, k);
  std::vector<glm::vec3> out_positions(vertex_count), out_normals(vertex_count);
  marrow::SkinningJob job;
  job.palette = m.palette;
  job.influences = static_cast<std::uint32_t>(k);
  job.joints = {reinterpret_cast<const std::byte*>(r.joints.data()), vertex_count, k * sizeof(std::uint16_t)};
  job.weights = {reinterpret_cast<const std::byte*>(r.weights.data()), vertex_count, k * sizeof(float)};
  job.in_positions = std::span<const glm::vec3>(m.positions);
  job.out_positions = std::span<glm::vec3>(out_positions);
  job.in_normals = std::span<const glm::vec3>(m.normals);
  job.out_normals = std::span<glm::vec3>(out_normals);
  job.normalize = false;
  run_job(state, job, vertex_count, out_positions.data());
}

// The skinning_pn job over a palette whose joints scale unevenly (S2).
void BM_NonUniform(benchmark::State& state, std::size_t vertex_count) {
  const Mesh& m = mesh(vertex_count);
  std::vector<glm::mat4> palette = m.palette;
  for (std::size_t j = 0; j < palette.size(); ++j) palette[j][0] *= 1.f + 0.01f * static_cast<float>(j % 7);
  Outputs out(vertex_count);
  marrow::SkinningJob job = separate_job(m, Attributes::PN, out);
  job.palette = palette;
  job.normalize = false;
  run_job(state, job, vertex_count, out.positions.data());
}

// The skinning_pn job by dual quaternions (S3); the palette conversion (once per frame per
// palette) is outside the timed loop, as SkinPaletteJob is for the other rows.
void BM_DualQuaternion(benchmark::State& state, std::size_t vertex_count, bool rigid) {
  const Mesh& m = mesh(vertex_count);
  std::vector<glm::mat4> palette = m.palette;
  if (rigid) {
    for (glm::mat4& p : palette) {
      for (int c = 0; c < 3; ++c) p[c] = glm::vec4(glm::normalize(glm::vec3(p[c])), 0.f);
    }
  }
  std::vector<marrow::SkinDualQuaternion> dual_quaternions(palette.size());
  std::vector<glm::mat4> scale_shear(palette.size());
  marrow::DualQuaternionPaletteJob{palette, dual_quaternions, scale_shear}.run();
  Outputs out(vertex_count);
  marrow::SkinningJob job = separate_job(m, Attributes::PN, out);
  job.mode = marrow::SkinningMode::DualQuaternion;
  job.dual_quaternions = dual_quaternions;
  job.scale_shear = scale_shear;
  job.normalize = false;
  run_job(state, job, vertex_count, out.positions.data());
}

void register_all() {
  struct Row {
    const char* name;
    void (*fn)(benchmark::State&, std::size_t, Attributes, bool);
    std::size_t vertices;
    Attributes attributes;
    bool normalize;
  };
  const Row rows[] = {
      {"skinning_p/100k", BM_Separate, k100k, Attributes::P, false},
      {"skinning_p/1m", BM_Separate, k1m, Attributes::P, false},
      {"skinning_pn/100k", BM_Separate, k100k, Attributes::PN, false},
      {"skinning_pn/1m", BM_Separate, k1m, Attributes::PN, false},
      {"skinning_pn_normalized/100k", BM_Separate, k100k, Attributes::PN, true},
      {"skinning_pnt/100k", BM_Separate, k100k, Attributes::PNT, true},
      {"skinning_p_interleaved/100k", BM_InterleavedToInterleaved, k100k, Attributes::P, false},
      {"skinning_pn_interleaved/100k", BM_InterleavedToInterleaved, k100k, Attributes::PN, false},
      {"skinning_pn_interleaved_to_separate/100k", BM_InterleavedToSeparate, k100k, Attributes::PN, true},
  };
  const char* const step = "SkinningJob on a synthetic mesh";
  for (const Row& row : rows) {
    benchmark::RegisterBenchmark(row.name, guarded(step, row.fn, row.vertices, row.attributes, row.normalize))
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("skinning_pn8/100k", guarded(step, BM_Influences, k100k, std::size_t{8}))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("skinning_pn12/100k", guarded(step, BM_Influences, k100k, std::size_t{12}))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("skinning_pn_nonuniform/100k", guarded(step, BM_NonUniform, k100k))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("skinning_pn_dqs/100k", guarded(step, BM_DualQuaternion, k100k, true))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("skinning_pn_dqs_scaled/100k", guarded(step, BM_DualQuaternion, k100k, false))
      ->Unit(benchmark::kMicrosecond);
}

[[maybe_unused]] const int kRegistered = (register_all(), 0);

}  // namespace
