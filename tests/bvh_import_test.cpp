// BVH motion capture (import_bvh, docs/formats.md "BVH"): the shape of the model, the channel
// conventions (rotation order, positions replacing OFFSETs, Euler wraps), line endings, every
// refusal, and a cross-check against three.js's BVHLoader on the shared files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/core/import_error.hpp"
#include "marrow/io/bvh/bvh_importer.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/runtime/animation_player.hpp"
#include "shared_assets.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;

std::vector<std::byte> bvh_bytes(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

Model bvh_model(const std::string& text, const ImportOptions& options = {}) {
  return import_bvh(bvh_bytes(text), options, "hand");
}

// A root with six channels in CMU order, a child with one rotation, an End Site; three frames.
const std::string kHandBvh =
    "HIERARCHY\n"
    "ROOT Hips\n"
    "{\n"
    "\tOFFSET 1 2 3\n"
    "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "\tJOINT Spine\n"
    "\t{\n"
    "\t\tOFFSET 0 10 0\n"
    "\t\tCHANNELS 1 Yrotation\n"
    "\t\tEnd Site\n"
    "\t\t{\n"
    "\t\t\tOFFSET 0 5 0\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "MOTION\n"
    "Frames: 3\n"
    "Frame Time: 0.1\n"
    "0 0 0 0 0 0 0\n"
    "4 5 6 90 0 0 30\n"
    "7 8 9 0 45 10 -60\n";

glm::mat4 bvh_euler_matrix(const std::vector<std::pair<char, float>>& rotations) {
  glm::mat4 m(1.f);
  for (const auto& [axis, degrees] : rotations) {
    const glm::vec3 a = axis == 'X' ? glm::vec3(1, 0, 0) : axis == 'Y' ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
    m = m * glm::rotate(glm::mat4(1.f), glm::radians(degrees), a);
  }
  return m;
}

void expect_bvh_rotation_near(const glm::quat& q, const glm::mat4& expected, float tolerance = 1e-5f) {
  const glm::mat4 got = glm::mat4_cast(q);
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(got[c][r], expected[c][r], tolerance) << "column " << c << " row " << r;
  }
}

const AnimationClip& only_bvh_clip(const Model& model) {
  EXPECT_EQ(model.skins.size(), 1u);
  EXPECT_EQ(model.skins[0].data.animation_clips.size(), 1u);
  return model.skins[0].data.animation_clips.begin()->second;
}

TEST(BvhImport, HandWrittenFileIsASkeletonWithOneJointPaletteClip) {
  const Model model = bvh_model(kHandBvh);
  ASSERT_EQ(model.nodes.size(), 4u);  // synthetic root, Hips, Spine, Spine_end
  EXPECT_EQ(model.nodes[1].name, "Hips");
  EXPECT_EQ(model.nodes[2].name, "Spine");
  EXPECT_EQ(model.nodes[3].name, "Spine_end");
  EXPECT_EQ(model.nodes[3].parent, 2);
  EXPECT_EQ(model.nodes[3].transform, glm::translate(glm::mat4(1.f), glm::vec3(0, 5, 0)));
  EXPECT_TRUE(model.meshes.empty());
  ASSERT_EQ(model.skins.size(), 1u);
  const SkinningData& data = model.skins[0].data;
  EXPECT_EQ(data.bone_count, 3);
  EXPECT_EQ(data.skeleton_hierarchy, (std::vector<int>{-1, 0, 1}));
  // The bind pose is the OFFSETs with zero rotations.
  EXPECT_EQ(data.inverse_bind_pose[2], glm::translate(glm::mat4(1.f), -glm::vec3(1, 17, 3)));
  ASSERT_EQ(model.animations.size(), 1u);
  EXPECT_EQ(model.animations[0].name, "hand");
  const AnimationClip& clip = only_bvh_clip(model);
  EXPECT_EQ(clip.target_space, ClipTargetSpace::JointPalette);
  EXPECT_EQ(clip.duration, Ticks(2'000'000));  // (3 - 1) * 0.1 s
  ASSERT_EQ(clip.tracks.size(), 2u);         // the End Site has no channels
  EXPECT_EQ(clip.tracks[0].keys[2].time, Ticks(2'000'000));
}

TEST(BvhImport, HandWrittenFileGivesTheExpectedLocalTransformAtEveryFrame) {
  const Model model = bvh_model(kHandBvh);
  const AnimationClip& clip = only_bvh_clip(model);
  const BoneTrack& hips = clip.tracks[0];
  const BoneTrack& spine = clip.tracks[1];
  EXPECT_EQ(hips.keys[0].translation, glm::vec3(0, 0, 0));  // position channels replace OFFSET 1 2 3
  EXPECT_EQ(hips.keys[1].translation, glm::vec3(4, 5, 6));
  EXPECT_EQ(hips.keys[2].translation, glm::vec3(7, 8, 9));
  expect_bvh_rotation_near(hips.keys[0].rotation, glm::mat4(1.f));
  expect_bvh_rotation_near(hips.keys[1].rotation, bvh_euler_matrix({{'Z', 90.f}, {'X', 0.f}, {'Y', 0.f}}));
  expect_bvh_rotation_near(hips.keys[2].rotation, bvh_euler_matrix({{'Z', 0.f}, {'X', 45.f}, {'Y', 10.f}}));
  EXPECT_EQ(spine.keys[1].translation, glm::vec3(0, 10, 0));  // no position channels: the OFFSET
  expect_bvh_rotation_near(spine.keys[1].rotation, bvh_euler_matrix({{'Y', 30.f}}));
  expect_bvh_rotation_near(spine.keys[2].rotation, bvh_euler_matrix({{'Y', -60.f}}));
  // The player gives the same local transforms at a key time.
  AnimationPlayer player(model.skins[0].data);
  player.start_clip(only_bvh_clip(model));
  player.update(Ticks(1'000'000), false, false);
  const glm::mat4 expected_hips = glm::translate(glm::mat4(1.f), glm::vec3(4, 5, 6)) * bvh_euler_matrix({{'Z', 90.f}});
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(player.bone_transforms()[0][c][r], expected_hips[c][r], 1e-5f);
  }
}

TEST(BvhImport, EveryRotationOrderIsTheProductInListedOrder) {
  const std::string orders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  const float angles[] = {30.f, -50.f, 70.f};
  for (const std::string& order : orders) {
    SCOPED_TRACE(order);
    std::string text = "HIERARCHY\nROOT J\n{\nOFFSET 0 0 0\nCHANNELS 3";
    std::vector<std::pair<char, float>> rotations;
    for (int i = 0; i < 3; ++i) {
      text += std::string(" ") + order[static_cast<std::size_t>(i)] + "rotation";
      rotations.emplace_back(order[static_cast<std::size_t>(i)], angles[i]);
    }
    text += "\n}\nMOTION\nFrames: 1\nFrame Time: 0.04\n30 -50 70\n";
    expect_bvh_rotation_near(only_bvh_clip(bvh_model(text)).tracks[0].keys[0].rotation, bvh_euler_matrix(rotations));
  }
}

TEST(BvhImport, PositionChannelsReplaceTheOffsetComponentsTheyName) {
  const std::string text =
      "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 0\nJOINT A\n{\nOFFSET 10 20 30\n"
      "CHANNELS 4 Yposition Xrotation Xposition Zrotation\n}\n}\nMOTION\nFrames: 1\nFrame Time: 1\n5 0 7 0\n";
  const Model model = bvh_model(text);
  const AnimationClip& clip = only_bvh_clip(model);
  ASSERT_EQ(clip.tracks.size(), 1u);
  EXPECT_EQ(clip.tracks[0].bone_index, 1);
  EXPECT_EQ(clip.tracks[0].keys[0].translation, glm::vec3(7, 5, 30));  // X and Y replaced, Z kept
  EXPECT_EQ(model.nodes[2].transform, glm::translate(glm::mat4(1.f), glm::vec3(10, 20, 30)));  // the rest pose
  EXPECT_EQ(clip.duration, Ticks(0));
}

TEST(BvhImport, EulerWrapAcross180DegreesInterpolatesTheShortWay) {
  const std::string text =
      "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 1 Yrotation\n}\nMOTION\nFrames: 2\nFrame Time: 1\n179\n-179\n";
  const Model model = bvh_model(text);
  const AnimationClip& clip = only_bvh_clip(model);
  EXPECT_GT(glm::dot(clip.tracks[0].keys[0].rotation, clip.tracks[0].keys[1].rotation), 0.f);
  AnimationPlayer player(model.skins[0].data);
  player.start_clip(clip);
  for (const double t : {0.25, 0.5, 0.75}) {
    player.update(ticks_from_seconds(t), false, false);
    const glm::mat4 expected = bvh_euler_matrix({{'Y', static_cast<float>(179.0 + 2.0 * t)}});  // through 180, not 0
    const glm::mat4& got = player.bone_transforms()[0];
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) EXPECT_NEAR(got[c][r], expected[c][r], 1e-4f) << "t " << t;
    }
  }
}

TEST(BvhImport, CrLfCrAndMixedLineEndingsWithTabsAndBlankLinesLoadLikeLf) {
  const AnimationClip reference = only_bvh_clip(bvh_model(kHandBvh));
  std::string crlf, cr, mixed;
  int n = 0;
  for (const char c : kHandBvh) {
    if (c != '\n') {
      crlf += c, cr += c, mixed += c;
      continue;
    }
    crlf += "\r\n";
    cr += "\r";
    mixed += (n % 3 == 0 ? "\r\n" : n % 3 == 1 ? "\r" : "  \t\n\n");  // trailing blanks, blank lines
    ++n;
  }
  for (const std::string* text : {&crlf, &cr, &mixed}) {
    const AnimationClip clip = only_bvh_clip(bvh_model(*text));
    ASSERT_EQ(clip.tracks.size(), reference.tracks.size());
    for (std::size_t t = 0; t < clip.tracks.size(); ++t) {
      ASSERT_EQ(clip.tracks[t].keys.size(), reference.tracks[t].keys.size());
      for (std::size_t k = 0; k < clip.tracks[t].keys.size(); ++k) {
        EXPECT_EQ(clip.tracks[t].keys[k].translation, reference.tracks[t].keys[k].translation);
        EXPECT_EQ(clip.tracks[t].keys[k].rotation, reference.tracks[t].keys[k].rotation);
      }
    }
  }
}

struct BvhRefusal {
  const char* what;
  std::string text;
  ImportErrorCode code;
  const char* message;  // a part of the message: the line and the reason
};

std::string bvh_with_motion(const std::string& motion) {
  return "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\nMOTION\n" + motion;
}

TEST(BvhImport, RefusalsNameTheLineAndWhatIsWrong) {
  using C = ImportErrorCode;
  std::string deep = "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\n";
  for (int i = 0; i < kMaxBvhDepth; ++i) deep += "JOINT J" + std::to_string(i) + "\n{\nOFFSET 0 1 0\n";
  const BvhRefusal refusals[] = {
      {"no HIERARCHY", "ROOT R\n{\n}\n", C::InvalidDocument, "line 1: expected HIERARCHY, found 'ROOT'"},
      {"no ROOT", "HIERARCHY\n\nMOTION\n", C::InvalidDocument, "line 3: expected ROOT after HIERARCHY, found 'MOTION'"},
      {"no MOTION", "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\n}\n", C::InvalidDocument, "line 6: expected ROOT or MOTION after the hierarchy, found the end of the file"},
      {"unknown keyword", "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nSCALE 1 1 1\n}\n", C::InvalidDocument, "line 5: unknown keyword 'SCALE' in joint 'R' (line 2)"},
      {"channel count 7", "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 7 Xrotation\n}\n", C::InvalidDocument, "line 5: CHANNELS count '7' of joint 'R' (line 2) is not 0 to 6"},
      {"fewer channel names than declared", "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation\n}\n", C::InvalidDocument, "line 6: CHANNELS 3 of joint 'R' (line 2): channel 3 is '}'"},
      {"a channel twice", "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Xrotation\n}\n", C::InvalidDocument, "names 'Xrotation' twice"},
      {"no OFFSET", "HIERARCHY\nROOT R\n{\nCHANNELS 0\n}\n", C::InvalidDocument, "line 5: joint 'R' (line 2) has no OFFSET"},
      {"unclosed joint", "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\n", C::InvalidDocument, "the file ends inside joint 'R' (line 2)"},
      {"too few numbers", bvh_with_motion("Frames: 1\nFrame Time: 0.1\n1 2\n"), C::InvalidDocument, "line 10: frame 0 has 2 numbers, the joints have 3 channels"},
      {"too many numbers", bvh_with_motion("Frames: 1\nFrame Time: 0.1\n1 2 3 4\n"), C::InvalidDocument, "line 10: frame 0 has 4 numbers"},
      {"not a number", bvh_with_motion("Frames: 1\nFrame Time: 0.1\n1 x 3\n"), C::InvalidDocument, "line 10: frame 0 value 2 (Yrotation of joint 'R'): 'x' is not a number"},
      {"NaN", bvh_with_motion("Frames: 1\nFrame Time: 0.1\n1 nan 3\n"), C::InvalidAnimation, "line 10: frame 0 value 2 (Yrotation of joint 'R'): 'nan' is not a finite float"},
      {"beyond float range", bvh_with_motion("Frames: 1\nFrame Time: 0.1\n1 2 1e39\n"), C::InvalidAnimation, "'1e39' is not a finite float"},
      {"fewer lines than Frames", bvh_with_motion("Frames: 3\nFrame Time: 0.1\n1 2 3\n"), C::InvalidDocument, "line 8: Frames: 3 but the file has 1 frame lines"},
      {"more lines than Frames", bvh_with_motion("Frames: 1\nFrame Time: 0.1\n1 2 3\n4 5 6\n"), C::InvalidDocument, "Frames: 1 but the file has 2 frame lines"},
      {"Frame Time 0", bvh_with_motion("Frames: 1\nFrame Time: 0\n1 2 3\n"), C::InvalidAnimation, "line 9: Frame Time '0' is not a finite number above 0"},
      {"Frame Time inf", bvh_with_motion("Frames: 1\nFrame Time: inf\n1 2 3\n"), C::InvalidAnimation, "Frame Time 'inf' is not a finite number above 0"},
      {"Frames not a number", bvh_with_motion("Frames: -1\nFrame Time: 0.1\n"), C::InvalidDocument, "line 8: Frames: '-1' is not a whole number"},
      {"too deep", deep, C::LimitExceeded, "joints nested deeper than 256 levels"},
  };
  for (const BvhRefusal& r : refusals) {
    SCOPED_TRACE(r.what);
    try {
      (void)bvh_model(r.text);
      ADD_FAILURE() << "accepted";
    } catch (const ImportError& e) {
      EXPECT_EQ(e.code(), r.code) << e.what();
      EXPECT_NE(e.detail().find(r.message), std::string::npos) << e.what();
    }
  }
}

TEST(BvhImport, LimitsAreCheckedBeforeAllocating) {
  ImportOptions few_nodes;
  few_nodes.limits.max_nodes = 3;  // the synthetic root and two joints
  EXPECT_THROW((void)bvh_model(kHandBvh, few_nodes), ImportError);
  ImportOptions few_keys;
  few_keys.limits.max_animation_keys = 5;  // 2 tracks * 3 frames
  try {
    (void)bvh_model(kHandBvh, few_keys);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::LimitExceeded) << e.what();
    EXPECT_NE(e.detail().find("max_animation_keys"), std::string::npos) << e.what();
  }
  ImportOptions small_file;
  small_file.limits.max_file_bytes = 16;
  EXPECT_THROW((void)bvh_model(kHandBvh, small_file), ImportError);
}

TEST(BvhImport, AJointAtTheDepthLimitMayStillCloseWithAnEndSite) {
  // kMaxBvhDepth counts joints (ROOT is 1); the End Site below the deepest joint is not one.
  std::string chain = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  for (int i = 1; i < kMaxBvhDepth; ++i) chain += "JOINT J" + std::to_string(i) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  chain += "End Site\n{\nOFFSET 0 1 0\n}\n";
  for (int i = 0; i < kMaxBvhDepth; ++i) chain += "}\n";
  chain += "MOTION\nFrames: 1\nFrame Time: 0.1\n";
  for (int i = 0; i < kMaxBvhDepth; ++i) chain += "0 0 0 ";
  chain += "\n";
  const Model model = bvh_model(chain);
  EXPECT_EQ(model.nodes.size(), static_cast<std::size_t>(kMaxBvhDepth) + 2);  // the synthetic root and the End Site
}

TEST(BvhImport, LoadModelFilePicksBvhByExtensionAndByContent) {
  const fs::path dir = fs::temp_directory_path() / "marrow_bvh_pick";
  fs::create_directories(dir);
  for (const char* name : {"walk.bvh", "walk.txt", "walk"}) {
    std::ofstream(dir / name, std::ios::binary) << kHandBvh;
    const Model model = load_model_file(dir / name);
    ASSERT_EQ(model.animations.size(), 1u) << name;
    EXPECT_EQ(model.animations[0].name, "walk") << name;
  }
  std::ofstream(dir / "broken.bvh", std::ios::binary) << "HIERARCHY\nROOT\n";
  try {
    (void)load_model_file(dir / "broken.bvh");
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.bvh: line 2: ROOT without a name"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

std::vector<fs::path> shared_bvh_files() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(test::kAssets / "bvh")) {
    if (entry.path().extension() == ".bvh") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(BvhImport, EverySharedBvhFileLoadsAsASkeletonWithOneClip) {
  if (!fs::exists(test::kAssets / "bvh")) GTEST_SKIP() << "shared assets not found at " << test::kAssets / "bvh";
  const std::vector<fs::path> files = shared_bvh_files();
  EXPECT_GE(files.size(), 26u);  // threejs 1, animateddrawings 1, bandai-locomotion 24
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Model model = load_model_file(file);
    EXPECT_TRUE(model.meshes.empty());
    ASSERT_EQ(model.animations.size(), 1u);
    EXPECT_EQ(model.animations[0].name, file.stem().string());
    const AnimationClip& clip = only_bvh_clip(model);
    EXPECT_EQ(clip.target_space, ClipTargetSpace::JointPalette);
    EXPECT_GT(clip.duration, Ticks(0));
    EXPECT_EQ(model.skins[0].data.bone_count + 1, static_cast<int>(model.nodes.size()));
  }
}

// The bandai files repeat every joint's OFFSET in its position channels: replacing (not adding)
// keeps each bone its rest length in every frame.
TEST(BvhImport, BandaiPositionChannelsKeepBoneLengths) {
  const fs::path file = test::kAssets / "bvh/bandai-locomotion/dataset-2_walk_normal_001.bvh";
  if (!fs::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const Model model = load_model_file(file);
  const SkinningData& data = model.skins[0].data;
  AnimationPlayer player(data);
  player.start_clip(only_bvh_clip(model));
  for (const double t : {0.0, 1.0, 3.0}) {
    player.update(ticks_from_seconds(t), false, false);
    for (int j = 1; j < data.bone_count; ++j) {
      const int parent = data.skeleton_hierarchy[static_cast<std::size_t>(j)];
      if (parent <= 0) continue;  // joint_Root's child Hips carries the trajectory
      const float rest = glm::length(glm::vec3(data.bind_pose[static_cast<std::size_t>(j)][3]));
      const float posed = glm::distance(glm::vec3(player.world_transforms()[static_cast<std::size_t>(j)][3]),
                                        glm::vec3(player.world_transforms()[static_cast<std::size_t>(parent)][3]));
      EXPECT_NEAR(posed, rest, 1e-3f * (1.f + rest)) << model.nodes[static_cast<std::size_t>(j) + 1].name << " at " << t;
    }
  }
}

// tests/data/bvh/threejs_reference_world.tsv: three.js's BVHLoader world positions (every bone,
// End Sites included, in file order) at frame times and one time between frames.
TEST(BvhImport, WorldPositionsMatchThreeJsBvhLoader) {
  if (!fs::exists(test::kAssets / "bvh")) GTEST_SKIP() << "shared assets not found at " << test::kAssets / "bvh";
  std::ifstream in(fs::path(MARROW_TEST_DATA) / "bvh" / "threejs_reference_world.tsv");
  ASSERT_TRUE(in);
  std::map<std::string, Model> models;
  std::string line;
  int rows = 0;
  float worst = 0.f;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string file, name;
    double time = 0;
    int bone = 0;
    glm::vec3 expected;
    std::getline(fields, file, '\t');
    fields >> time >> bone >> name >> expected.x >> expected.y >> expected.z;
    auto it = models.find(file);
    if (it == models.end()) it = models.emplace(file, load_model_file(test::kAssets / "bvh" / file)).first;
    const Model& model = it->second;
    AnimationPlayer player(model.skins[0].data);
    player.start_clip(only_bvh_clip(model));
    player.update(ticks_from_seconds(time), false, false);
    const glm::vec3 got(player.world_transforms()[static_cast<std::size_t>(bone)][3]);
    worst = std::max(worst, glm::length(got - expected));
    EXPECT_LT(glm::length(got - expected), 2e-3f) << file << " " << name << " at " << time;
    ++rows;
  }
  EXPECT_GE(rows, 500);
  std::cout << "[ bvh ] max distance to three.js: " << worst << "\n";
}

}  // namespace
}  // namespace marrow
