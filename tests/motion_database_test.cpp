// Motion-matching databases (MM1-MM3, model/motion_database.hpp) on the Bandai locomotion set of
// the shared assets: 24 BVH clips of one 22-joint rig (walks, runs, turns, a dash), each file one
// clip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include "marrow/io/model_file.hpp"
#include "marrow/model/motion_database.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "shared_assets.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;

const std::vector<std::unique_ptr<Model>>* bandai() {
  static const auto* models = [] {
    auto* out = new std::vector<std::unique_ptr<Model>>;
    const fs::path folder = test::kAssets / "bvh" / "bandai-locomotion";
    if (!fs::is_directory(folder)) return out;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".bvh") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) out->push_back(std::make_unique<Model>(load_model_file(f)));
    return out;
  }();
  return models;
}

std::vector<const Model*> bandai_models() {
  std::vector<const Model*> out;
  for (const auto& m : *bandai()) out.push_back(m.get());
  return out;
}

#define NEED_BANDAI()                                                                                   \
  if (bandai()->empty()) GTEST_SKIP() << "shared assets not found at " << test::kAssets / "bvh" / "bandai-locomotion"

const MotionDatabase& bandai_database() {
  static const MotionDatabase db(bandai_models(), {.rate = 60.0, .weights = {1.f, 0.5f, 2.f, 1.5f, 0.75f}});
  return db;
}

TEST(MotionDatabase, MM3_NormalizedGroupsHaveMeanZeroAndTheirWeightAsDeviation) {
  NEED_BANDAI();
  const MotionDatabase& db = bandai_database();
  ASSERT_GT(db.size(), 5000u);
  const std::array<float, kMotionGroups> weights{1.f, 0.5f, 2.f, 1.5f, 0.75f};
  for (std::size_t g = 0; g < kMotionGroups; ++g) {
    double squares = 0.0;
    for (std::size_t c = kMotionGroupStart[g]; c < kMotionGroupStart[g] + kMotionGroupWidth[g]; ++c) {
      double sum = 0.0;
      for (std::size_t r = 0; r < db.size(); ++r) sum += db.row(r)[c];
      EXPECT_NEAR(sum / static_cast<double>(db.size()), 0.0, 1e-4) << "column " << c;
      for (std::size_t r = 0; r < db.size(); ++r) squares += static_cast<double>(db.row(r)[c]) * db.row(r)[c];
    }
    const double deviation = std::sqrt(squares / static_cast<double>(db.size() * kMotionGroupWidth[g]));
    EXPECT_NEAR(deviation, weights[g], 1e-4 * weights[g]) << "group " << g;
  }
}

TEST(MotionDatabase, MM3_CandidatesStopSixtyFramesBeforeTheirClipsEnd) {
  NEED_BANDAI();
  const MotionDatabase& db = bandai_database();
  std::size_t rows = 0;
  for (const MotionRange& r : db.ranges()) {
    const Model& model = *bandai_models()[r.model];
    const double seconds = seconds_from_ticks(model.animations[static_cast<std::size_t>(r.animation)].duration);
    EXPECT_EQ(r.frames, static_cast<std::size_t>(std::floor(seconds * 60.0 + 1e-9)) + 1) << r.name;
    EXPECT_EQ(r.rows, r.frames > 60 ? r.frames - 60 : 0) << r.name;
    EXPECT_EQ(r.first_row, rows);
    rows += r.rows;
    if (r.rows > 0) {
      EXPECT_EQ(&db.range_of(r.first_row + r.rows - 1), &r);
      EXPECT_EQ(db.time_of(r.first_row + 30), ticks_from_seconds(0.5));
    }
  }
  EXPECT_EQ(rows, db.size());
}

// The character frame, against the set's MANIFEST: its straight walks (toward +Z, +X and -X in
// the world, the body facing the way it goes) have the trajectory 1 s ahead lying ahead (+z)
// and facing ahead; its left and right walking turns face to opposite sides 1 s ahead.
TEST(MotionDatabase, MM3_TrajectoriesLieWhereTheWalksGo) {
  NEED_BANDAI();
  const MotionDatabase& db = bandai_database();
  const auto raw = [&](std::size_t row, std::size_t column) { return db.row(row)[column] / db.scale()[column] + db.mean()[column]; };
  int straight = 0;
  double left_turn = 0.0, right_turn = 0.0;
  for (const MotionRange& r : db.ranges()) {
    if (r.rows < 60) continue;
    SCOPED_TRACE(r.name);
    const bool turn = r.name.find("walk-turn") != std::string::npos;
    if (!turn && r.name.find("walk") != std::string::npos) {
      const std::size_t row = r.first_row + r.rows / 2;
      const float x = raw(row, 19), z = raw(row, 20);  // +60 frames: (x, z)
      EXPECT_GT(z, 3.f * std::abs(x));
      EXPECT_GT(raw(row, 26), 0.9f);  // facing at +60 frames: (x, z) = columns 25, 26
      ++straight;
    } else if (turn) {
      double side = 0.0;
      for (std::size_t row = r.first_row; row < r.first_row + r.rows; ++row) side += raw(row, 25);
      (r.name.find("turn-left") != std::string::npos ? left_turn : right_turn) += side / static_cast<double>(r.rows);
    }
  }
  EXPECT_GE(straight, 6);
  EXPECT_LT(left_turn * right_turn, 0.0) << left_turn << " " << right_turn;
}

TEST(MotionDatabase, MM2_AFramesOwnFeaturesFindItAtCostZero) {
  NEED_BANDAI();
  const MotionDatabase& db = bandai_database();
  for (std::size_t r = 0; r < db.size(); ++r) {
    const MotionMatch m = db.search(db.row(r));
    ASSERT_EQ(m.cost, 0.f) << r;
    // The first row with these features: this one, unless an earlier row is the same.
    if (m.row != r) {
      ASSERT_TRUE(std::equal(db.row(m.row).begin(), db.row(m.row).end(), db.row(r).begin())) << r;
    }
  }
}

TEST(MotionDatabase, MM1_TheAcceleratedSearchFindsWhatBruteForceFinds) {
  NEED_BANDAI();
  const MotionDatabase& db = bandai_database();
  std::mt19937 rng(29);
  std::normal_distribution<float> normal(0.f, 1.f);
  std::uniform_int_distribution<std::size_t> pick(0, db.size() - 1);
  std::array<float, kMotionFeatures> q{};
  for (int i = 0; i < 10000; ++i) {
    // Half near a frame (the usual query), half anywhere; every fourth excludes around a frame.
    const std::size_t near = pick(rng);
    for (std::size_t c = 0; c < kMotionFeatures; ++c) q[c] = i % 2 == 0 ? db.row(near)[c] + 0.3f * normal(rng) : 2.f * normal(rng);
    const MotionExclusion exclude = i % 4 == 0 ? MotionExclusion{near, 20} : MotionExclusion{};
    const MotionMatch fast = db.search(q, exclude), slow = db.brute_force(q, exclude);
    ASSERT_EQ(fast.cost, slow.cost) << i;
    ASSERT_EQ(fast.row, slow.row) << i;  // the lowest row of the least cost, either way
    if (exclude.row == near) {
      const std::size_t gap = fast.row > near ? fast.row - near : near - fast.row;
      EXPECT_TRUE(&db.range_of(fast.row) != &db.range_of(near) || gap > 20) << i;
    }
  }
  // Every database frame as a query, with the exclusion a matcher uses.
  for (std::size_t r = 0; r < db.size(); ++r) {
    const MotionMatch fast = db.search(db.row(r), {r, 20}), slow = db.brute_force(db.row(r), {r, 20});
    ASSERT_EQ(fast.cost, slow.cost) << r;
    ASSERT_EQ(fast.row, slow.row) << r;
  }
}

// The distances sum one tree with no fused multiply-add on every SIMD level (native or emulated):
// each level finds the same row at the same float cost, brute force and search alike.
TEST(MotionDatabase, MM1_EverySimdLevelFindsTheSameRowAndCost) {
  NEED_BANDAI();
  const MotionDatabase& db = bandai_database();
  struct Restore {
    SimdChoice chosen = simd_choice();
    ~Restore() { set_simd_choice(chosen); }
  } restore;
  std::vector<MotionMatch> reference;
  for (const SimdChoice choice : runnable_simd_choices()) {
    set_simd_choice(choice);
    SCOPED_TRACE(to_string(choice));
    std::mt19937 rng(29);
    std::normal_distribution<float> normal(0.f, 1.f);
    std::uniform_int_distribution<std::size_t> pick(0, db.size() - 1);
    std::array<float, kMotionFeatures> q{};
    MotionSearchScratch scratch;
    for (std::size_t i = 0; i < 500; ++i) {
      const std::size_t near = pick(rng);
      for (std::size_t c = 0; c < kMotionFeatures; ++c) q[c] = db.row(near)[c] + 0.3f * normal(rng);
      const MotionMatch fast = db.search(q, {near, 20}, &scratch), slow = db.brute_force(q, {near, 20});
      ASSERT_EQ(fast.cost, slow.cost) << i;
      ASSERT_EQ(fast.row, slow.row) << i;
      if (reference.size() <= i) reference.push_back(fast);
      ASSERT_EQ(fast.cost, reference[i].cost) << i;
      ASSERT_EQ(fast.row, reference[i].row) << i;
    }
  }
}

const MotionDatabase& bandai_mirrored_database() {
  static const MotionDatabase db(bandai_models(), {.rate = 60.0, .weights = {1.f, 0.5f, 2.f, 1.5f, 0.75f}, .mirror = true});
  return db;
}

// Raw features mirrored by permuting them (what the database must NOT do, so it checks it): the
// feet swap and every x negates (the character frame's x is to the left).
std::array<float, kMotionFeatures> mirrored_features(std::span<const float> raw) {
  std::array<float, kMotionFeatures> out{};
  std::copy(raw.begin(), raw.end(), out.begin());
  for (std::size_t c = 0; c < 3; ++c) std::swap(out[c], out[3 + c]), std::swap(out[6 + c], out[9 + c]);
  for (const std::size_t c : {0u, 3u, 6u, 9u, 12u, 15u, 17u, 19u, 21u, 23u, 25u}) out[c] = -out[c];
  return out;
}

// MM5: the mirrored ranges' features come from the mirrored motion (poses mirrored, then
// features computed as for the originals), so a frame's features mirrored by permutation find
// its mirrored frame. Not at cost 0 exactly: the two sides are computed through different float
// operations (a reflection of every transform, then the same character-frame products), and the
// query goes through de- and re-normalization. The differences are rounding: the worst cost is
// about 1.4e-8 on this set, hence the bound 1e-6, and every query still finds its mirrored row.
TEST(MotionDatabase, MM5_AMirroredQueryFindsTheMirroredFrame) {
  NEED_BANDAI();
  const MotionDatabase& db = bandai_mirrored_database();
  const MotionDatabase& plain = bandai_database();
  const std::span<const MotionRange> ranges = db.ranges();
  ASSERT_EQ(ranges.size(), 2 * plain.ranges().size());
  ASSERT_EQ(db.size(), 2 * plain.size());
  const std::size_t half = plain.ranges().size();
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const MotionRange& original = plain.ranges()[k % half];
    EXPECT_EQ(ranges[k].mirrored, k >= half);
    EXPECT_EQ(ranges[k].name, k < half ? original.name : original.name + " (mirrored)");
    EXPECT_EQ(ranges[k].rows, original.rows);
    EXPECT_EQ(ranges[k].animation, original.animation);
  }
  float worst = 0.f;
  for (std::size_t i = 0; i < db.size() / 2; ++i) {
    std::array<float, kMotionFeatures> raw{};
    for (std::size_t c = 0; c < kMotionFeatures; ++c) raw[c] = db.row(i)[c] / db.scale()[c] + db.mean()[c];
    const std::array<float, kMotionFeatures> query = db.normalize(mirrored_features(raw));
    const std::size_t expected = db.mirror_of(i);
    ASSERT_EQ(db.mirror_of(expected), i);
    ASSERT_TRUE(db.range_of(expected).mirrored) << i;
    ASSERT_EQ(db.time_of(expected), db.time_of(i)) << i;
    const MotionMatch found = db.search(query);
    worst = std::max(worst, found.cost);
    ASSERT_EQ(found.row, expected) << i << " cost " << found.cost;
    ASSERT_LT(found.cost, 1e-6f) << i;
  }
  std::printf("MM5: the largest cost of a mirrored query at its mirrored frame: %g\n", static_cast<double>(worst));
}

// MM5 is an option: without it no range is mirrored, and mirroring adds ranges without changing
// the originals' raw features. (A hash of the rows built before MM5 would pin one SIMD level's
// rounding: the kernels of the other levels round the poses differently.)
TEST(MotionDatabase, MM5_WithoutMirroringTheDatabaseIsUnchanged) {
  NEED_BANDAI();
  const MotionDatabase& plain = bandai_database();
  for (const MotionRange& r : plain.ranges()) EXPECT_FALSE(r.mirrored) << r.name;
  EXPECT_EQ(plain.mirror_of(17), 17u);
  // The originals in the mirrored database: the same raw features (its mean and scale differ).
  const MotionDatabase& both = bandai_mirrored_database();
  for (std::size_t r = 0; r < plain.size(); ++r) {
    for (std::size_t c = 0; c < kMotionFeatures; ++c) {
      const float a = plain.row(r)[c] / plain.scale()[c] + plain.mean()[c];
      const float b = both.row(r)[c] / both.scale()[c] + both.mean()[c];
      ASSERT_NEAR(a, b, 1e-4f * (1.f + std::abs(a))) << r << " " << c;
    }
  }
}

TEST(MotionDatabase, MM3_BadOptionsAndMissingJointsAreNamed) {
  NEED_BANDAI();
  const std::vector<const Model*> models = bandai_models();
  const auto refused = [&](const MotionDatabaseOptions& o, const std::string& expected) {
    try {
      MotionDatabase db(std::span<const Model* const>(models.data(), 2), o);
      ADD_FAILURE() << "accepted; expected " << expected;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  refused({.rate = 0.0}, "rate");
  refused({.clips = {"no such clip"}}, "no model has a clip named 'no such clip'");
  refused({.weights = {1.f, -1.f, 1.f, 1.f, 1.f}}, "weight 1");
  refused({.hips = "Pelvis", .left_foot = "x", .right_foot = "y", .left_upper_leg = "z", .right_upper_leg = "w"}, "hips");
}

}  // namespace
}  // namespace marrow
