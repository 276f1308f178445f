// The IK jobs (K1, K2) on fixed inputs: one job per iteration, the target cycling through 64
// fixed points so that the branches see varied geometry (reachable, unreachable, behind).
//
//   two_bone_ik/plain        TwoBoneIkJob, no pole, weight 1, soften 1, `reached` asked
//   two_bone_ik/pole_soften  with a pole, weight 0.8, soften 0.9
//   two_bone_ik/pair         two of plain's jobs (two targets) in one TwoBoneIkJob::run_all, as a
//                            character's legs; ns_per_job per leg
//   aim_ik/plain             AimIkJob, no offset, weight 1, `reached` asked
//   aim_ik/offset            with an offset (eyes), weight 0.8
//
// Counter: ns_per_job. Run pinned: taskset -c 1 marrow_bench --benchmark_filter=ik
#include <array>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/gtc/quaternion.hpp>

#include "bench_guard.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/runtime/aim_ik_job.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/two_bone_ik_job.hpp"

namespace {

using namespace marrow;
using marrow::bench::guarded;

constexpr std::size_t kTargets = 64;

// Model matrices of a pelvis, hip, knee and foot (a leg of 1 + 0.8 with a bent knee, under a
// turned pelvis), composed with the one local-to-model job.
std::vector<glm::mat4> leg_models() {
  const std::vector<int> parents = {-1, 0, 1, 2};
  const std::vector<glm::mat4> locals = {
      compose_trs({0.f, 2.f, 0.f}, glm::angleAxis(0.3f, glm::vec3(0, 1, 0)), glm::vec3(1.f)),
      compose_trs({0.3f, 0.f, 0.f}, glm::angleAxis(0.25f, glm::vec3(0, 0, 1)), glm::vec3(1.f)),
      compose_trs({0.f, -1.f, 0.f}, glm::angleAxis(0.4f, glm::vec3(1, 0, 0)), glm::vec3(1.f)),
      compose_trs({0.f, -0.8f, 0.f}, glm::quat(1.f, 0.f, 0.f, 0.f), glm::vec3(1.f))};
  std::vector<glm::mat4> models(parents.size());
  LocalToModelJob{.parents = parents, .local_matrices = locals, .models = models}.run();
  return models;
}

std::array<glm::vec3, kTargets> targets_around(const glm::vec3& center, float radius) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-radius, radius);
  std::array<glm::vec3, kTargets> out;
  for (glm::vec3& t : out) t = center + glm::vec3(u(rng), u(rng), u(rng));
  return out;
}

void set_counters(benchmark::State& state) {
  state.counters["ns_per_job"] =
      benchmark::Counter(1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void two_bone_ik(benchmark::State& state, bool pole_soften) {
  const std::vector<glm::mat4> models = leg_models();
  const auto targets = targets_around(glm::vec3(models[1][3]), 2.f);  // a + b = 1.8: some out of reach
  const glm::vec3 pole = glm::vec3(models[1][3]) + glm::vec3(0.f, -0.5f, 2.f);
  glm::quat start_correction, mid_correction;
  bool reached = false;
  TwoBoneIkJob job{.start = &models[1], .mid = &models[2], .end = &models[3], .pole = pole_soften ? &pole : nullptr,
                   .weight = pole_soften ? 0.8f : 1.f, .soften = pole_soften ? 0.9f : 1.f,
                   .start_correction = &start_correction, .mid_correction = &mid_correction, .reached = &reached};
  std::size_t i = 0;
  for (auto _ : state) {
    job.target = targets[i++ % kTargets];
    benchmark::DoNotOptimize(job.run());
    benchmark::DoNotOptimize(start_correction);
    benchmark::DoNotOptimize(mid_correction);
    benchmark::DoNotOptimize(reached);
  }
  set_counters(state);
}

// Two legs per iteration through TwoBoneIkJob::run_all (one solve for both), each as plain's job
// with its own target; ns_per_job counts each leg.
void two_bone_ik_pair(benchmark::State& state) {
  const std::vector<glm::mat4> models = leg_models();
  const auto targets = targets_around(glm::vec3(models[1][3]), 2.f);
  std::array<glm::quat, 4> corrections;
  std::array<bool, 2> reached{}, ran{};
  std::array<TwoBoneIkJob, 2> jobs;
  for (std::size_t l = 0; l < 2; ++l) {
    jobs[l] = TwoBoneIkJob{.start = &models[1], .mid = &models[2], .end = &models[3], .start_correction = &corrections[2 * l],
                           .mid_correction = &corrections[2 * l + 1], .reached = &reached[l]};
  }
  std::size_t i = 0;
  for (auto _ : state) {
    jobs[0].target = targets[i++ % kTargets];
    jobs[1].target = targets[(i + 31) % kTargets];
    benchmark::DoNotOptimize(TwoBoneIkJob::run_all(jobs, ran));
    benchmark::DoNotOptimize(corrections);
    benchmark::DoNotOptimize(reached);
  }
  state.counters["ns_per_job"] =
      benchmark::Counter(2e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void aim_ik(benchmark::State& state, bool offset) {
  const std::vector<glm::mat4> models = leg_models();  // the knee stands in for a head
  const auto targets = targets_around(glm::vec3(models[2][3]), 3.f);
  glm::quat correction;
  bool reached = false;
  AimIkJob job{.joint = &models[2], .forward = {0.f, 0.f, 1.f}, .offset = offset ? glm::vec3(0.f, 0.08f, 0.1f) : glm::vec3(0.f),
               .up = {0.f, 1.f, 0.f}, .pole = {0.f, 1.f, 0.2f}, .weight = offset ? 0.8f : 1.f,
               .correction = &correction, .reached = &reached};
  std::size_t i = 0;
  for (auto _ : state) {
    job.target = targets[i++ % kTargets];
    benchmark::DoNotOptimize(job.run());
    benchmark::DoNotOptimize(correction);
    benchmark::DoNotOptimize(reached);
  }
  set_counters(state);
}

[[maybe_unused]] const bool registered = [] {
  benchmark::RegisterBenchmark("two_bone_ik/plain", guarded("TwoBoneIkJob on the synthetic leg", two_bone_ik, false));
  benchmark::RegisterBenchmark("two_bone_ik/pole_soften", guarded("TwoBoneIkJob on the synthetic leg", two_bone_ik, true));
  benchmark::RegisterBenchmark("two_bone_ik/pair", guarded("TwoBoneIkJob on the synthetic leg", two_bone_ik_pair));
  benchmark::RegisterBenchmark("aim_ik/plain", guarded("AimIkJob on the synthetic leg", aim_ik, false));
  benchmark::RegisterBenchmark("aim_ik/offset", guarded("AimIkJob on the synthetic leg", aim_ik, true));
  return true;
}();

}  // namespace
