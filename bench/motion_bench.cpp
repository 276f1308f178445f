// Motion matching (issue 29): the search over a database of 20,000 frames or more (the Bandai
// locomotion set of the shared assets at 60 Hz, its clips listed again until the rows reach
// 20,000), one query per iteration, cycling through a fixed list: what a matcher asks, the pose
// features of the row it plays (feet and hips, columns 0-14) with the trajectory of a row up to
// half a second away (columns 15-26: the player steering on from where the motion goes), and
// the exclusion around the row it plays (20 frames).
//
//   mm_search/20k_frames        the accelerated search (boxes over runs of 16 and 64 rows, the
//                               nearest run of 64 visited first, then the others in row order)
//   mm_brute_force/20k_frames   every row tried
//
// Counter: rows.
//
// The controller (model/motion_matcher.hpp), on the same clips loaded in metres:
//
//   mm_frame/humanoid         one MotionMatcher frame between searches (the trajectory springs,
//                             sampling, the inertializer, root motion (baked with MotionClips)
//                             and the foot lock's IK),
//                             walking straight on; the character is reset (untimed) before its
//                             clip runs out or a search falls due
//   mm_frame_no_foot_lock/humanoid  the same frame without the foot lock (its share of the frame)
//   mm_single_clip/humanoid   an Animator of the same rig playing one clip: its update()
#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_guard.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/motion_database.hpp"
#include "marrow/model/motion_matcher.hpp"

namespace {

namespace fs = std::filesystem;
using namespace marrow;
using marrow::bench::guarded;
using marrow::bench::shared_asset;

struct Database {
  std::vector<std::unique_ptr<Model>> models;
  std::unique_ptr<MotionDatabase> db;
  std::vector<std::array<float, kMotionFeatures>> queries;
  std::vector<std::size_t> near;
};

const Database& database() {
  static const std::unique_ptr<Database> d = [] {
    auto out = std::make_unique<Database>();
    const fs::path folder = shared_asset("bvh/bandai-locomotion");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder))
      if (e.path().extension() == ".bvh") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) out->models.push_back(std::make_unique<Model>(load_model_file(f)));
    std::vector<const Model*> listed;
    for (std::size_t rows = 0; rows < 20000;) {
      for (const auto& m : out->models) listed.push_back(m.get());
      out->db = std::make_unique<MotionDatabase>(listed);
      rows = out->db->size();
    }
    std::mt19937 rng(29);
    std::uniform_int_distribution<std::size_t> pick(0, out->db->size() - 1);
    for (int i = 0; i < 256; ++i) {
      const std::size_t row = pick(rng);
      const std::size_t steer = std::min(out->db->size() - 1, row + std::uniform_int_distribution<std::size_t>(0, 30)(rng));
      std::array<float, kMotionFeatures> q{};
      for (std::size_t c = 0; c < kMotionFeatures; ++c) q[c] = out->db->row(c < 15 ? row : steer)[c];
      out->queries.push_back(q);
      out->near.push_back(row);
    }
    return out;
  }();
  return *d;
}

void search(benchmark::State& state, bool accelerated) {
  const Database& d = database();
  std::size_t i = 0;
  MotionSearchScratch scratch;  // as a matcher keeps one: no allocation per search
  for (auto _ : state) {
    const std::size_t k = i++ % d.queries.size();
    const MotionExclusion exclude{d.near[k], 20};
    const MotionMatch m = accelerated ? d.db->search(d.queries[k], exclude, &scratch) : d.db->brute_force(d.queries[k], exclude);
    benchmark::DoNotOptimize(m);
  }
  state.counters["rows"] = static_cast<double>(d.db->size());
}

struct Controller {
  std::vector<std::unique_ptr<Model>> models;
  std::unique_ptr<MotionDatabase> db;
  std::unique_ptr<MotionClips> clips;
};

const Controller& controller() {
  static const std::unique_ptr<Controller> c = [] {
    auto out = std::make_unique<Controller>();
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(shared_asset("bvh/bandai-locomotion")))
      if (e.path().extension() == ".bvh") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ModelFileOptions options;
    options.import.unit_scale = 0.01f;  // metres, the matcher's unit
    std::vector<const Model*> listed;
    for (const fs::path& f : files) out->models.push_back(std::make_unique<Model>(load_model_file(f, options)));
    for (const auto& m : out->models) listed.push_back(m.get());
    out->db = std::make_unique<MotionDatabase>(listed);
    out->clips = std::make_unique<MotionClips>(*out->db, listed);
    return out;
  }();
  return *c;
}

void matcher_frame(benchmark::State& state, bool foot_lock) {
  const Controller& c = controller();
  // Searches only when the benchmark resets: the frames timed are the ones between searches.
  MotionMatcher m(*c.clips, {.search_interval = 1e6f, .foot_lock = foot_lock});
  const MotionRange& range = *std::max_element(c.db->ranges().begin(), c.db->ranges().end(),
                                               [](const MotionRange& a, const MotionRange& b) { return a.rows < b.rows; });
  const MotionInput walk{.velocity = {0.f, 0.f, 1.4f}};
  const float dt = 1.f / 60.f;
  const auto restart = [&] {
    m.reset(range.first_row, glm::vec3(0.f), 0.f);
    m.update(dt, walk);  // the reset's search
  };
  restart();
  std::size_t searches = 0;
  for (auto _ : state) {
    if (m.row() + 2 >= range.first_row + range.rows || m.row() < range.first_row) {
      state.PauseTiming();
      restart();
      state.ResumeTiming();
    }
    const std::size_t before = m.searches();
    m.update(dt, walk);
    searches += m.searches() - before;
    benchmark::DoNotOptimize(m.world());
  }
  state.counters["searches"] = static_cast<double>(searches);
}

void single_clip(benchmark::State& state) {
  const Controller& c = controller();
  Animator animator(c.clips->compiled());
  const auto longest = std::max_element(c.db->ranges().begin(), c.db->ranges().end(),
                                       [](const MotionRange& a, const MotionRange& b) { return a.rows < b.rows; });
  animator.play(c.clips->animation(static_cast<std::size_t>(longest - c.db->ranges().begin())));  // the same clip
  const Ticks dt = ticks_from_seconds(1.0 / 60.0);
  for (auto _ : state) {
    animator.update(dt);
    benchmark::DoNotOptimize(animator.absolute_bone_transforms().data());
  }
}

[[maybe_unused]] const bool registered = [] {
  const char* const asset = "bvh/bandai-locomotion";
  benchmark::RegisterBenchmark("mm_search/20k_frames", guarded(asset, search, true))->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("mm_brute_force/20k_frames", guarded(asset, search, false))->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("mm_frame/humanoid", guarded(asset, matcher_frame, true))->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("mm_frame_no_foot_lock/humanoid", guarded(asset, matcher_frame, false))->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("mm_single_clip/humanoid", guarded(asset, single_clip))->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
