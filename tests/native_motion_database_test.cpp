// Motion matching's database in the native format (section MMDB, docs/native-format.md): a
// written and read database has the same rows, ranges, mean and scale, bit for bit, and finds
// the same rows at the same costs; a matcher on the file plays as one on the model written; the
// malformed corpus's MMDB files are refused with a message naming the field at fault.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "bandai_test_util.hpp"
#include "demo/demo_motion_database.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/model/motion_matcher.hpp"
#include "marrow/model/unit_scale.hpp"

namespace marrow {
namespace {

void expect_same_database(const MotionDatabase& a, const MotionDatabase& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.rate(), b.rate());
  const MotionDatabaseData x = a.data(), y = b.data();
  EXPECT_EQ(std::memcmp(x.rows.data(), y.rows.data(), x.rows.size() * sizeof(float)), 0) << "rows differ";
  EXPECT_EQ(std::memcmp(x.mean.data(), y.mean.data(), x.mean.size() * sizeof(float)), 0) << "means differ";
  EXPECT_EQ(std::memcmp(x.scale.data(), y.scale.data(), x.scale.size() * sizeof(float)), 0) << "scales differ";
  ASSERT_EQ(x.ranges.size(), y.ranges.size());
  for (std::size_t k = 0; k < x.ranges.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(x.ranges[k].model, y.ranges[k].model);
    EXPECT_EQ(x.ranges[k].animation, y.ranges[k].animation);
    EXPECT_EQ(x.ranges[k].name, y.ranges[k].name);
    EXPECT_EQ(x.ranges[k].first_row, y.ranges[k].first_row);
    EXPECT_EQ(x.ranges[k].rows, y.ranges[k].rows);
    EXPECT_EQ(x.ranges[k].frames, y.ranges[k].frames);
  }
}

// Rows with noise, with and without exclusions: the same row and cost from both databases.
void expect_same_searches(const MotionDatabase& a, const MotionDatabase& b) {
  std::mt19937 random(29);
  std::normal_distribution<float> noise(0.f, 0.3f);
  for (int i = 0; i < 500; ++i) {
    const std::size_t row = random() % a.size();
    std::array<float, kMotionFeatures> q{};
    for (std::size_t c = 0; c < kMotionFeatures; ++c) q[c] = a.row(row)[c] + (i % 2 == 0 ? noise(random) : 0.f);
    const MotionExclusion exclude{row, static_cast<std::size_t>(i % 3) * 10, static_cast<std::size_t>(i % 4) * 5};
    const MotionMatch x = a.search(q, exclude), y = b.search(q, exclude);
    ASSERT_EQ(x.row, y.row) << "query " << i;
    ASSERT_EQ(x.cost, y.cost) << "query " << i;
    ASSERT_EQ(b.brute_force(q, exclude).cost, y.cost) << "query " << i;
  }
}

TEST(NativeMotionDatabase, ADemoDatabaseRoundTrips) {
  const Model model = make_demo_character_with_motion_database();
  const Model back = read_native(write_native(model));
  ASSERT_TRUE(back.motion_database);
  expect_same_database(*model.motion_database, *back.motion_database);
  expect_same_searches(*model.motion_database, *back.motion_database);
  // Without the section (an older writer's file, or none made) the model has no database.
  Model plain = model;
  plain.motion_database.reset();
  EXPECT_FALSE(read_native(write_native(plain)).motion_database);
}

TEST(NativeMotionDatabase, TheWriterRefusesADatabaseOfOtherAnimations) {
  Model model = make_demo_character_with_motion_database();
  MotionDatabaseData d = model.motion_database->data();
  d.ranges[1].name = "Wave";  // the name of animation 0
  model.motion_database = std::make_shared<const MotionDatabase>(std::move(d));
  try {
    (void)write_native(model);
    FAIL() << "written";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("range 1 ('Wave'): animation 1 is named 'Curl'"), std::string::npos) << e.what();
  }
}

#define NEED_BANDAI_FOR_MMDB()                                                                          \
  if (test::bandai_locomotion(0.01f).empty()) GTEST_SKIP() << "shared assets not found at " << test::kBandaiFolder

// What `marrow match build` writes: MotionClips' gathered model with the database renamed to it.
TEST(NativeMotionDatabase, TheBandaiDatabaseRoundTripsAndPlaysTheSame) {
  NEED_BANDAI_FOR_MMDB();
  const std::vector<const Model*> models = test::bandai_locomotion(0.01f);
  const MotionDatabase db(models);
  const MotionClips clips(db, models);
  const Model gathered = clips.gathered_model();
  const Model back = read_native(write_native(gathered));
  ASSERT_TRUE(back.motion_database);
  expect_same_database(*gathered.motion_database, *back.motion_database);
  // The renamed database searches as the one built from the BVH files.
  expect_same_searches(db, *back.motion_database);
  // One script, a matcher on the model written and one on the file read: the same rows and places.
  const MotionClips written(gathered), read(back);
  MotionMatcher a(written, {.foot_lock = true}), b(read, {.foot_lock = true});
  for (int i = 0; i < 300; ++i) {
    const MotionInput input{.velocity = {1.4f * std::sin(0.01f * static_cast<float>(i)), 0.f, 1.4f}};
    a.update(1.f / 60.f, input);
    b.update(1.f / 60.f, input);
    ASSERT_EQ(a.row(), b.row()) << "frame " << i;
    ASSERT_EQ(std::memcmp(&a.world(), &b.world(), sizeof(glm::mat4)), 0) << "frame " << i;
  }
  EXPECT_GT(a.switches(), 0u);
}

// A database file whose clips are compressed (`marrow convert --compress`): the matcher plays
// its clips in place as it plays an uncompressed file's (a compressed clip plays instead of the
// keys, and would carry the travel the matcher adds again from the baked root motion: metres of
// sliding a second).
TEST(NativeMotionDatabase, MM4_ACompressedDatabasePlaysItsClipsInPlace) {
  NEED_BANDAI_FOR_MMDB();
  const std::vector<const Model*> models = test::bandai_locomotion(0.01f);
  const MotionDatabase db(models);
  const Model gathered = MotionClips(db, models).gathered_model();
  Model compressed = gathered;
  compress_model_clips(compressed, ClipCompression::at_tolerance(0.001f));
  const Model back = read_native(write_native(compressed));
  ASSERT_FALSE(back.skins.empty());
  ASSERT_FALSE(back.skins[0].compressed_clips.empty());
  const MotionClips plain(gathered), read(back);
  Animator animator(read.in_place());
  for (std::size_t r = 0; r < read.database().ranges().size(); ++r) {
    if (read.animation(r) < 0) continue;
    animator.play(read.animation(r), {.loop = LoopMode::Once});
    for (const Ticks t : read.root_motion(r).times) {
      animator.update(t, false);
      const glm::vec4 hips = animator.absolute_bone_transforms()[static_cast<std::size_t>(read.hips())][3];
      ASSERT_LT(std::hypot(hips.x, hips.z), 0.01f) << read.database().ranges()[r].name << " at " << t.count();
    }
  }
  MotionMatcher a(plain, {.foot_lock = true}), b(read, {.foot_lock = true});
  for (int i = 0; i < 300; ++i) {
    const MotionInput input{.velocity = {1.4f * std::sin(0.01f * static_cast<float>(i)), 0.f, 1.4f}};
    a.update(1.f / 60.f, input);
    b.update(1.f / 60.f, input);
  }
  EXPECT_LT(glm::length(a.position() - b.position()), 0.1f);  // 5 s of walking, 1 mm keys
}

// MM5: a mirrored database's flags follow its ranges through the file (written only then), and
// a flag refused when it is neither 0 nor 1; a matcher on the file read plays as one on the model.
TEST(NativeMotionDatabase, AMirroredDatabaseRoundTrips) {
  NEED_BANDAI_FOR_MMDB();
  const std::vector<const Model*> all = test::bandai_locomotion(0.01f);
  const std::vector<const Model*> models(all.begin(), all.begin() + 6);
  const MotionDatabase db(models, {.mirror = true});
  const MotionClips clips(db, models);
  const Model gathered = clips.gathered_model();
  const std::vector<std::byte> bytes = write_native(gathered);
  const Model back = read_native(bytes);
  ASSERT_TRUE(back.motion_database);
  expect_same_database(*gathered.motion_database, *back.motion_database);
  const std::span<const MotionRange> ranges = back.motion_database->ranges();
  ASSERT_EQ(ranges.size(), 12u);
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    EXPECT_EQ(ranges[k].mirrored, k >= 6) << k;
    if (ranges[k].rows > 0) {
      EXPECT_EQ(back.animations[static_cast<std::size_t>(ranges[k].animation)].name, ranges[k].name);
    }
  }
  const MotionClips written(gathered), read(back);
  MotionMatcher a(written), b(read);
  for (int i = 0; i < 120; ++i) {
    const MotionInput input{.velocity = {-1.4f * std::sin(0.02f * static_cast<float>(i)), 0.f, 1.4f}};
    a.update(1.f / 60.f, input), b.update(1.f / 60.f, input);
    ASSERT_EQ(a.row(), b.row()) << "frame " << i;
  }
  // The last byte of the section is the last range's flag: 2 is refused naming it.
  std::vector<std::byte> bad = bytes;
  std::size_t at = 24;  // past the file header (tests/malformed_native_corpus.cpp)
  while (std::memcmp(bad.data() + at, "MMDB", 4) != 0) {
    std::uint64_t size = 0;
    std::memcpy(&size, bad.data() + at + 8, 8);
    at += 16 + size;
  }
  std::uint64_t size = 0;
  std::memcpy(&size, bad.data() + at + 8, 8);
  bad[at + 16 + size - 1] = std::byte{2};
  try {
    (void)read_native(bad);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_NE(std::string(e.what()).find("mirrored is 2, not 0 or 1"), std::string::npos) << e.what();
  }
}

// tests/data/malformed/native_mmdb_*: each refused as MANIFEST.tsv says, and the message names
// the field at fault.
TEST(NativeMotionDatabase, MalformedSectionsNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {"native_mmdb_rate_nan.marrow", "rate nan is not in (0, 1000]"},
      {"native_mmdb_feature_count.marrow", "feature count 26 is not 27"},
      {"native_mmdb_scale_negative.marrow", "scale column 3 is -1"},
      {"native_mmdb_mean_inf.marrow", "mean column 0 is inf"},
      {"native_mmdb_range_count_huge.marrow", "range count 1099511627776 exceeds ImportLimits::max_nodes"},
      {"native_mmdb_row_count_huge.marrow", "row count 1099511627776 exceeds ImportLimits::max_accessor_elements"},
      {"native_mmdb_rows_short.marrow", "row count 183 needs 183 x 108 bytes"},
      {"native_mmdb_first_row_gap.marrow", "range 1 ('Curl'): first_row 62 is not 61"},
      {"native_mmdb_rows_past_end.marrow", "range 1 ('Curl'): rows 122 from row 61 run past the 182 rows"},
      {"native_mmdb_rows_not_frames.marrow", "range 0 ('Wave'): rows 60 are not its frames 121 less 60"},
      {"native_mmdb_feature_nan.marrow", "row 5 column 7 is not finite"},
      {"native_mmdb_animation_index.marrow", "range 1: animation 7 names no animation (there are 2)"},
      {"native_mmdb_frames_not_duration.marrow", "range 0 ('Wave'): frames 121 are not those of animation 0 (2.000000 s at 120"},
  };
  const std::filesystem::path dir = std::filesystem::path(MARROW_TEST_DATA) / "malformed";
  for (const auto& [file, message] : cases) {
    SCOPED_TRACE(file);
    try {
      (void)read_native_file(dir / file);
      ADD_FAILURE() << "accepted";
    } catch (const ImportError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("section 'MMDB'"), std::string::npos) << what;
      EXPECT_NE(what.find(message), std::string::npos) << what;
    }
  }
}

// The database's features are lengths in the units it was built in: a model carrying one is not
// rescaled under it (the refusal changes nothing), and a scale of 1 is no change.
TEST(NativeMotionDatabase, AModelCarryingADatabaseIsNotRescaledUnderIt) {
  Model model = make_demo_character_with_motion_database();
  const glm::mat4 before = model.nodes.at(1).transform;
  try {
    apply_unit_scale(model, 0.01f);
    FAIL() << "scaled a model that carries a motion database";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("motion database"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::memcmp(&before, &model.nodes.at(1).transform, sizeof(glm::mat4)), 0);
  EXPECT_NO_THROW(apply_unit_scale(model, 1.f));
}

}  // namespace
}  // namespace marrow
