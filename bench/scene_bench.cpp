// The asset API: one shared-table evaluation posing 1000 instances versus 1000 separate
// evaluations (T10), and building file meshes with bounds that cover their animations (T14).
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>

#include "bench_guard.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/asset/asset_loader.hpp"
#include "marrow/asset/mesh_builder.hpp"
#include "marrow/asset/model_instance.hpp"

namespace {

using namespace marrow::asset;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

constexpr int kBones = 64;
constexpr int kInstances = 1000;

// A 64-bone chain with one 10 s clip keyed at 30 fps on every node, and 256 vertices.
std::shared_ptr<Mesh> chain_mesh(MeshBuilder& builder) {
  std::vector<SkeletalAnimationNode> nodes;
  for (int b = 0; b < kBones; ++b) {
    nodes.push_back({glm::translate(glm::mat4(1.f), glm::vec3(0, b == 0 ? 0.f : 0.1f, 0)),
                     glm::translate(glm::mat4(1.f), glm::vec3(0, -0.1f * float(b), 0)),
                     b == 0 ? std::nullopt : std::optional(b - 1), b});
  }
  std::vector<MeshVertexSkeletal> vertices(256);
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    vertices[i].location = {std::cos(float(i)), 0.025f * float(i), std::sin(float(i))};
    vertices[i].bone_indices = {static_cast<std::uint8_t>(i / 4), 0, 0, 0};
  }
  auto mesh = builder.create_from_vertices(vertices, {}, nodes);
  std::vector<SkeletalAnimationRotationKeyframe> rotations;
  std::vector<SkeletalAnimationTranslationKeyframe> translations;
  std::vector<SkeletalAnimationNodeMutationDescriptor> mutations;
  for (int b = 0; b < kBones; ++b) {
    const int start = static_cast<int>(rotations.size());
    for (int k = 0; k <= 300; ++k) {
      const float t = float(k) / 30.f;
      rotations.push_back({t, glm::angleAxis(0.3f * std::sin(t + 0.1f * float(b)), glm::vec3(0, 0, 1))});
    }
    translations.push_back({0.f, glm::vec3(0, b == 0 ? 0.f : 0.1f, 0)});
    mutations.push_back({b, 0, 0, start, 301, b, 1});
  }
  builder.attach_animation(*mesh, {}, rotations, translations, mutations, 10.f, "Sway");
  return mesh;
}

void BM_GroupSharedTable1000(benchmark::State& state) {
  MeshBuilder builder;
  auto mesh = chain_mesh(builder);
  auto table = AnimationTable::of(*mesh);
  std::vector<std::shared_ptr<Mesh>> meshes(kInstances, mesh);
  ModelInstanceGroup group = create_model_instances(meshes, table);
  GroupAnimationPlayer player = group.animation_player(table->animations()[0]);
  player.set_time_point(0.f);  // the group's Animator is made on its first pose
  float t = 0.f;
  for (auto _ : state) {
    player.set_time_point(t);
    t = std::fmod(t + 1.f / 60.f, 10.f);
    benchmark::DoNotOptimize(group.instances().back().bone_transforms().data());
  }
  state.counters["instances/s"] = benchmark::Counter(kInstances, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_SeparateEvaluations1000(benchmark::State& state) {
  MeshBuilder builder;
  auto mesh = chain_mesh(builder);
  std::vector<ModelInstance> instances(kInstances, ModelInstance(mesh));
  const MeshAnimation sway = mesh->animations()[0];
  // Each instance makes its Animator on its first pose: done before timing, so the figure is a
  // frame's (as the group's, whose one Animator is made before timing too).
  for (ModelInstance& instance : instances) instance.animation_player(sway).set_time_point(0.f);
  float t = 0.f;
  for (auto _ : state) {
    for (ModelInstance& instance : instances) instance.animation_player(sway).set_time_point(t);
    t = std::fmod(t + 1.f / 60.f, 10.f);
    benchmark::DoNotOptimize(instances.back().bone_transforms().data());
  }
  state.counters["instances/s"] = benchmark::Counter(kInstances, benchmark::Counter::kIsIterationInvariantRate);
}

// Building the asset API's meshes of a file (bounds over every animation included).
void BM_BundleWithBounds(benchmark::State& state, const char* file) {
  const marrow::Model model = marrow::import_gltf(shared_asset(file));
  AssetLoader loader([](const std::string&) {});
  for (auto _ : state) {
    ModelBundle bundle = loader.bundle_from_model(model);
    benchmark::DoNotOptimize(bundle.meshes.data());
  }
}

[[maybe_unused]] const bool registered = [] {
  const char* const chain = "the 64-bone synthetic chain";
  benchmark::RegisterBenchmark("BM_GroupSharedTable1000", guarded(chain, BM_GroupSharedTable1000))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_SeparateEvaluations1000", guarded(chain, BM_SeparateEvaluations1000))
      ->Unit(benchmark::kMicrosecond);
  for (const auto& [name, file] :
       {std::pair{"fox", "gltf/Fox/Fox.gltf"}, std::pair{"cesium_man", "gltf/CesiumMan/cesium_man.gltf"}}) {
    benchmark::RegisterBenchmark((std::string("BM_BundleWithBounds/") + name).c_str(),
                                 guarded(file, BM_BundleWithBounds, file))
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
