// The humanoid profile and maps (RT1, humanoid_bone.hpp, humanoid_map.hpp): VRM's names, the map
// a VRM file carries (1.0 and 0.x, hostile entries ignored), the automatic mapper on every
// humanoid of the shared assets and on synthetic rigs of each naming convention, side
// confirmation by the rest pose, the message for a missing bone, hostile names and hierarchies,
// and the native format's HUMN section.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/humanoid_map.hpp"
#include "marrow/model/model.hpp"
#include "shared_assets.hpp"

namespace marrow {
namespace {

using HB = HumanoidBone;

// ---------------------------------------------------------------------------------------------
// Synthetic rigs: joints by name, each under a parent named before it, offset from it. Y up, the
// rig facing +Z, its left at +X (glTF's and VRM's convention).

struct HmJoint {
  std::string name;
  std::string parent;  // empty: under the synthetic root
  glm::vec3 offset{0.f};
};

// Every joint whose name holds '#' is made for both sides: '#' becomes `left` / `right` (in its
// parent's name too) and the right side's offsets are mirrored in x.
std::vector<HmJoint> hm_both_sides(const std::vector<HmJoint>& side, const std::string& left, const std::string& right) {
  std::vector<HmJoint> out;
  for (const auto& [text, mirror] : {std::pair{left, 1.f}, std::pair{right, -1.f}}) {
    for (HmJoint j : side) {
      for (std::string* s : {&j.name, &j.parent}) {
        for (std::size_t at = s->find('#'); at != std::string::npos; at = s->find('#')) s->replace(at, 1, text);
      }
      j.offset.x *= mirror;
      out.push_back(j);
    }
  }
  return out;
}

std::vector<HmJoint> hm_concat(std::vector<HmJoint> a, const std::vector<HmJoint>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Model hm_model(const std::vector<HmJoint>& joints) {
  Model model;
  model.nodes.push_back(ModelNode{"<root>", -1, glm::mat4(1.f), -1});
  std::map<std::string, int> index;
  for (const HmJoint& j : joints) {
    int parent = 0;
    if (!j.parent.empty()) {
      const auto it = index.find(j.parent);
      EXPECT_NE(it, index.end()) << j.name << ": parent " << j.parent << " comes later or not at all";
      if (it != index.end()) parent = it->second;
    }
    const int self = static_cast<int>(model.nodes.size());
    model.nodes.push_back(ModelNode{j.name, parent, glm::translate(glm::mat4(1.f), j.offset), self - 1});
    index.emplace(j.name, self);
  }
  return model;
}

std::string hm_name_of(const Model& model, const HumanoidMap& map, HB bone) {
  return map.has(bone) ? model.nodes[static_cast<std::size_t>(map.node(bone))].name : std::string();
}

// The expected node name of each listed bone ("" = absent).
void hm_expect_bones(const Model& model, const HumanoidMap& map, const std::vector<std::pair<HB, std::string>>& expected,
                     const std::string& what) {
  for (const auto& [bone, name] : expected) {
    EXPECT_EQ(hm_name_of(model, map, bone), name) << what << ": " << to_string(bone);
  }
}

std::string hm_notes(const HumanoidMap& map) {
  std::string out;
  for (const std::string& n : map.notes) out += n + "\n";
  return out;
}

// A rig in Mixamo's names (`prefix` before each): spine of three, shoulders, fingers of four
// (the fourth is the end), toes with an end.
std::vector<HmJoint> hm_mixamo(const std::string& p) {
  std::vector<HmJoint> center{{p + "Hips", "", {0, 1, 0}},
                              {p + "Spine", p + "Hips", {0, 0.1f, 0}},
                              {p + "Spine1", p + "Spine", {0, 0.1f, 0}},
                              {p + "Spine2", p + "Spine1", {0, 0.1f, 0}},
                              {p + "Neck", p + "Spine2", {0, 0.15f, 0}},
                              {p + "Head", p + "Neck", {0, 0.1f, 0}},
                              {p + "HeadTop_End", p + "Head", {0, 0.2f, 0}},
                              {p + "LeftEye", p + "Head", {0.03f, 0.05f, 0.08f}},
                              {p + "RightEye", p + "Head", {-0.03f, 0.05f, 0.08f}}};
  std::vector<HmJoint> side{{p + "#Shoulder", p + "Spine2", {0.05f, 0.12f, 0}},
                            {p + "#Arm", p + "#Shoulder", {0.1f, 0, 0}},
                            {p + "#ForeArm", p + "#Arm", {0.25f, 0, 0}},
                            {p + "#Hand", p + "#ForeArm", {0.25f, 0, 0}},
                            {p + "#UpLeg", p + "Hips", {0.1f, -0.05f, 0}},
                            {p + "#Leg", p + "#UpLeg", {0, -0.45f, 0}},
                            {p + "#Foot", p + "#Leg", {0, -0.45f, 0}},
                            {p + "#ToeBase", p + "#Foot", {0, -0.05f, 0.12f}},
                            {p + "#Toe_End", p + "#ToeBase", {0, 0, 0.05f}}};
  for (const char* finger : {"Thumb", "Index", "Middle", "Ring", "Pinky"}) {
    std::string parent = p + "#Hand";
    for (int k = 1; k <= 4; ++k) {
      const std::string name = p + "#Hand" + finger + std::to_string(k);
      side.push_back({name, parent, {0.03f, 0, 0}});
      parent = name;
    }
  }
  return hm_concat(center, hm_both_sides(side, "Left", "Right"));
}

// ---------------------------------------------------------------------------------------------
// The profile.

TEST(HumanoidMap, RT1_ProfileNamesParentsAndMirrors) {
  int required = 0;
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<HB>(b);
    EXPECT_EQ(humanoid_bone_named(to_string(bone)), bone) << to_string(bone);
    std::string upper(to_string(bone));
    std::transform(upper.begin(), upper.end(), upper.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
    EXPECT_EQ(humanoid_bone_named(upper), bone) << upper;  // ASCII case ignored
    EXPECT_EQ(mirrored(mirrored(bone)), bone);
    required += is_required(bone) ? 1 : 0;
    // Every bone reaches hips through its profile parents, in fewer steps than there are bones.
    std::optional<HB> up = bone;
    int steps = 0;
    while (up && *up != HB::Hips && steps < 10) up = profile_parent(*up), ++steps;
    EXPECT_TRUE(up && *up == HB::Hips) << to_string(bone);
  }
  EXPECT_EQ(required, 15);
  EXPECT_EQ(to_string(HB::RightThumbMetacarpal), "rightThumbMetacarpal");
  EXPECT_EQ(mirrored(HB::LeftUpperArm), HB::RightUpperArm);
  EXPECT_EQ(mirrored(HB::RightLittleDistal), HB::LeftLittleDistal);
  EXPECT_EQ(mirrored(HB::LeftEye), HB::RightEye);
  EXPECT_EQ(mirrored(HB::Chest), HB::Chest);
  EXPECT_EQ(profile_parent(HB::LeftShoulder), HB::UpperChest);
  EXPECT_EQ(profile_parent(HB::LeftUpperArm), HB::LeftShoulder);
  EXPECT_EQ(profile_parent(HB::RightIndexProximal), HB::RightHand);
  EXPECT_EQ(profile_parent(HB::RightIndexDistal), HB::RightIndexIntermediate);
  EXPECT_EQ(profile_parent(HB::LeftToes), HB::LeftFoot);
  EXPECT_FALSE(profile_parent(HB::Hips).has_value());
  // VRM 0.x's thumb names are one joint off 1.0's.
  EXPECT_EQ(humanoid_bone_named("leftThumbProximal", true), HB::LeftThumbMetacarpal);
  EXPECT_EQ(humanoid_bone_named("rightThumbIntermediate", true), HB::RightThumbProximal);
  EXPECT_EQ(humanoid_bone_named("leftThumbDistal", true), HB::LeftThumbDistal);
  EXPECT_FALSE(humanoid_bone_named("leftThumbMetacarpal", true).has_value());
  EXPECT_FALSE(humanoid_bone_named("leftThumbIntermediate").has_value());
  EXPECT_EQ(humanoid_bone_named("leftThumbProximal"), HB::LeftThumbProximal);
  EXPECT_EQ(humanoid_bone_named("upperChest", true), HB::UpperChest);
  EXPECT_FALSE(humanoid_bone_named("").has_value());
  EXPECT_FALSE(humanoid_bone_named("hips ").has_value());
}

// ---------------------------------------------------------------------------------------------
// The shared assets: every humanoid maps with no map file.

struct HmAssetCase {
  std::string file;
  std::vector<std::pair<HB, std::string>> bones;
};

// pab's files are 3ds Max bipeds renamed: the legs hang from `Spine` (biped's `Bip01 Spine`),
// so the spine chain starts below it.
std::vector<std::pair<HB, std::string>> hm_pab_bones(const std::string& toes) {
  return {{HB::Hips, "Hips"},           {HB::Spine, "Spine1"},          {HB::Chest, "Spine2"},
          {HB::UpperChest, "Spine3"},   {HB::Neck, "Neck"},             {HB::Head, "Head"},
          {HB::LeftShoulder, "LeftShoulder"}, {HB::RightShoulder, "RightShoulder"},
          {HB::LeftUpperArm, "LeftArm"}, {HB::LeftLowerArm, "LeftForeArm"}, {HB::LeftHand, "Lefthand"},
          {HB::RightUpperArm, "RightArm"}, {HB::RightLowerArm, "RightForeArm"}, {HB::RightHand, "RightHand"},
          {HB::LeftUpperLeg, "LeftUpLeg"}, {HB::LeftLowerLeg, "LeftLeg"}, {HB::LeftFoot, "LeftFoot"},
          {HB::LeftToes, toes},          {HB::RightUpperLeg, "RightUpLeg"}, {HB::RightLowerLeg, "RightLeg"},
          {HB::RightFoot, "RightFoot"},  {HB::LeftThumbMetacarpal, "LeftHandThumb1"},
          {HB::LeftThumbDistal, "LeftHandThumb3"}, {HB::LeftLittleProximal, "LeftHandRingPinky1"},
          {HB::RightLittleIntermediate, "RightHandPinky2"}};
}

std::vector<HmAssetCase> hm_asset_cases() {
  const std::vector<std::pair<HB, std::string>> kaykit{
      {HB::Hips, "hips"},          {HB::Spine, "spine"},          {HB::Chest, "chest"},
      {HB::UpperChest, ""},        {HB::Neck, ""},                {HB::Head, "head"},
      {HB::LeftShoulder, ""},      {HB::RightShoulder, ""},       {HB::LeftUpperArm, "upperarm.l"},
      {HB::LeftLowerArm, "lowerarm.l"}, {HB::LeftHand, "wrist.l"}, {HB::RightUpperArm, "upperarm.r"},
      {HB::RightLowerArm, "lowerarm.r"}, {HB::RightHand, "wrist.r"}, {HB::LeftUpperLeg, "upperleg.l"},
      {HB::LeftLowerLeg, "lowerleg.l"}, {HB::LeftFoot, "foot.l"},  {HB::LeftToes, "toes.l"},
      {HB::RightUpperLeg, "upperleg.r"}, {HB::RightLowerLeg, "lowerleg.r"}, {HB::RightFoot, "foot.r"},
      {HB::RightToes, "toes.r"}};
  const std::vector<std::pair<HB, std::string>> bandai{
      {HB::Hips, "Hips"},          {HB::Spine, "Spine"},          {HB::Chest, "Chest"},
      {HB::UpperChest, ""},        {HB::Neck, "Neck"},            {HB::Head, "Head"},
      {HB::LeftShoulder, "Shoulder_L"}, {HB::RightShoulder, "Shoulder_R"}, {HB::LeftUpperArm, "UpperArm_L"},
      {HB::LeftLowerArm, "LowerArm_L"}, {HB::LeftHand, "Hand_L"},  {HB::RightUpperArm, "UpperArm_R"},
      {HB::RightLowerArm, "LowerArm_R"}, {HB::RightHand, "Hand_R"}, {HB::LeftUpperLeg, "UpperLeg_L"},
      {HB::LeftLowerLeg, "LowerLeg_L"}, {HB::LeftFoot, "Foot_L"},  {HB::LeftToes, "Toes_L"},
      {HB::RightUpperLeg, "UpperLeg_R"}, {HB::RightLowerLeg, "LowerLeg_R"}, {HB::RightFoot, "Foot_R"},
      {HB::RightToes, "Toes_R"}};
  std::vector<HmAssetCase> cases{
      {"gltf/KayKitRigMedium/manny_med_mod.gltf", kaykit},
      {"gltf/KayKitRigMedium/Med_MovementBasic.glb", kaykit},
      {"bvh/animateddrawings/jumping.bvh",
       {{HB::Hips, "Hips"},          {HB::Spine, "Spine"},          {HB::Chest, "Spine2"},
        {HB::UpperChest, "Spine3"},  {HB::Neck, "Neck"},            {HB::Head, "Head"},
        {HB::LeftShoulder, "LeftShoulder"}, {HB::RightShoulder, "RightShoulder"}, {HB::LeftUpperArm, "LeftArm"},
        {HB::LeftLowerArm, "LeftForeArm"}, {HB::LeftHand, "LeftHand"}, {HB::RightUpperArm, "RightArm"},
        {HB::RightLowerArm, "RightForeArm"}, {HB::RightHand, "RightHand"}, {HB::LeftUpperLeg, "LeftUpLeg"},
        {HB::LeftLowerLeg, "LeftLeg"}, {HB::LeftFoot, "LeftFoot"},  {HB::LeftToes, "LeftToeBase"},
        {HB::RightUpperLeg, "RightUpLeg"}, {HB::RightLowerLeg, "RightLeg"}, {HB::RightFoot, "RightFoot"},
        {HB::RightToes, "RightToeBase"}, {HB::LeftThumbMetacarpal, "LeftHandThumb1"},
        {HB::LeftThumbProximal, ""}}},
      {"bvh/threejs/pirouette.bvh",
       {{HB::Hips, "hip"},           {HB::Spine, "abdomen"},        {HB::Chest, "chest"},
        {HB::UpperChest, ""},        {HB::Neck, "neck"},            {HB::Head, "head"},
        {HB::LeftEye, "leftEye"},    {HB::RightEye, "rightEye"},    {HB::LeftShoulder, "lCollar"},
        {HB::RightShoulder, "rCollar"}, {HB::LeftUpperArm, "lShldr"}, {HB::LeftLowerArm, "lForeArm"},
        {HB::LeftHand, "lHand"},     {HB::RightUpperArm, "rShldr"}, {HB::RightLowerArm, "rForeArm"},
        {HB::RightHand, "rHand"},    {HB::LeftUpperLeg, "lThigh"},  {HB::LeftLowerLeg, "lShin"},
        {HB::LeftFoot, "lFoot"},     {HB::LeftToes, ""},            {HB::RightUpperLeg, "rThigh"},
        {HB::RightLowerLeg, "rShin"}, {HB::RightFoot, "rFoot"},     {HB::RightToes, ""},
        {HB::LeftThumbMetacarpal, "lThumb1"}, {HB::LeftThumbProximal, "lThumb2"}, {HB::LeftThumbDistal, ""},
        {HB::RightMiddleProximal, "rMid1"}, {HB::RightLittleIntermediate, "rPinky2"}}},
      {"fbx/pab/skeleton.fbx", hm_pab_bones("LeftFootThumb1")},
      {"fbx/pab/jog.fbx", hm_pab_bones("LeftFootThumb1")},
      {"fbx/pab/arnaud.fbx", hm_pab_bones("LeftFootThumb1")},
      {"dae/pab/skeleton.dae", hm_pab_bones("LeftFootThumb1")},
      {"dae/pab/walk.dae", hm_pab_bones("LeftFootThumb1")},
      // seymour: root -> {l_hip, pelvis, r_hip}; pelvis -> spine -> {arms, neck -> null_head}.
      {"dae/seymour.dae",
       {{HB::Hips, "root"},          {HB::Spine, "pelvis"},         {HB::Chest, "spine"},
        {HB::UpperChest, ""},        {HB::Neck, "neck"},            {HB::Head, "null_head"},
        {HB::LeftShoulder, ""},      {HB::RightShoulder, ""},       {HB::LeftUpperArm, "l_humerus"},
        {HB::LeftLowerArm, "l_ulna"}, {HB::LeftHand, "l_wrist"},    {HB::RightUpperArm, "r_humerus"},
        {HB::RightLowerArm, "r_ulna"}, {HB::RightHand, "r_wrist"},  {HB::LeftUpperLeg, "l_hip"},
        {HB::LeftLowerLeg, "l_knee"}, {HB::LeftFoot, "l_ankle"},    {HB::LeftToes, "l_null_toe"},
        {HB::RightUpperLeg, "r_hip"}, {HB::RightLowerLeg, "r_knee"}, {HB::RightFoot, "r_ankle"},
        {HB::RightToes, "r_null_toe"}}},
  };
  const std::filesystem::path bandai_folder = test::kAssets / "bvh/bandai-locomotion";
  if (std::filesystem::is_directory(bandai_folder)) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(bandai_folder)) {
      if (entry.path().extension() == ".bvh") files.push_back("bvh/bandai-locomotion/" + entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) cases.push_back({f, bandai});
  }
  return cases;
}

TEST(HumanoidMap, RT1_MapsEveryHumanoidOfTheSharedAssets) {
  if (!std::filesystem::is_directory(test::kAssets)) GTEST_SKIP() << "shared assets not found at " << test::kAssets;
  for (const HmAssetCase& c : hm_asset_cases()) {
    const std::filesystem::path file = test::kAssets / c.file;
    if (!std::filesystem::exists(file)) {
      ADD_FAILURE() << "missing shared asset " << file;
      continue;
    }
    SCOPED_TRACE(c.file);
    const Model model = load_model_file(file);
    HumanoidMap map;
    try {
      map = auto_humanoid_map(model);
    } catch (const std::invalid_argument& e) {
      ADD_FAILURE() << c.file << ": " << e.what();
      continue;
    }
    hm_expect_bones(model, map, c.bones, c.file);
    EXPECT_NO_THROW(validate(map, model));
    EXPECT_EQ(hm_notes(map).find("sides swapped"), std::string::npos) << hm_notes(map);
  }
}

// The choices the mapper notes: KayKit's hand is its wrist, seymour's hips is the legs' parent,
// pab's Hips is chosen over Pelvis, skeleton.dae's Hips over `Hips 1`.
TEST(HumanoidMap, RT1_NotesSayWhatWasDecided) {
  if (!std::filesystem::is_directory(test::kAssets)) GTEST_SKIP() << "shared assets not found at " << test::kAssets;
  const auto notes_of = [](const char* file) {
    return hm_notes(auto_humanoid_map(load_model_file(test::kAssets / file)));
  };
  const std::string kaykit = notes_of("gltf/KayKitRigMedium/manny_med_mod.gltf");
  EXPECT_NE(kaykit.find("leftHand: \"wrist.l\""), std::string::npos) << kaykit;
  EXPECT_NE(kaykit.find("\"hand.l\""), std::string::npos) << kaykit;
  const std::string seymour = notes_of("dae/seymour.dae");
  EXPECT_NE(seymour.find("hips: \"root\""), std::string::npos) << seymour;
  EXPECT_NE(seymour.find("\"pelvis\""), std::string::npos) << seymour;
  const std::string pab = notes_of("dae/pab/skeleton.dae");
  EXPECT_NE(pab.find("hips: \"Hips\""), std::string::npos) << pab;
  EXPECT_NE(pab.find("\"Hips 1\""), std::string::npos) << pab;
  EXPECT_NE(pab.find("\"Pelvis\""), std::string::npos) << pab;
  EXPECT_NE(pab.find("spine: the chain starts below \"Spine\""), std::string::npos) << pab;
}

// ---------------------------------------------------------------------------------------------
// VRM files: the map they carry.

TEST(HumanoidMap, RT1_VrmFileMapIsReadAndAgreesWithTheAutomaticMap) {
  const std::filesystem::path file = test::kAssets / "vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const Model model = load_model_file(file);
  ASSERT_TRUE(model.humanoid.has_value());
  const HumanoidMap& own = *model.humanoid;
  int present = 0;
  for (int node : own.nodes) present += node >= 0 ? 1 : 0;
  EXPECT_EQ(present, 53);
  hm_expect_bones(model, own,
                  {{HB::Hips, "hips"}, {HB::LeftUpperArm, "upper_arm.L"}, {HB::LeftThumbMetacarpal, "thumb.proximal.L"},
                   {HB::LeftThumbProximal, "thumb.intermediate.L"}, {HB::RightEye, "eye.R"}, {HB::UpperChest, ""},
                   {HB::Jaw, ""}},
                  "the file's map");
  EXPECT_EQ(find_diagnostic(model.diagnostics, "vrm-humanoid-entry-ignored"), nullptr);
  EXPECT_EQ(find_diagnostic(model.diagnostics, "vrm-humanoid-dropped"), nullptr);
  // humanoid_map gives the file's own map; auto_humanoid_map agrees on every bone both have.
  EXPECT_EQ(humanoid_map(model).nodes, own.nodes);
  const HumanoidMap automatic = auto_humanoid_map(model);
  int compared = 0;
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    if (own.nodes[b] < 0 || automatic.nodes[b] < 0) continue;
    ++compared;
    EXPECT_EQ(automatic.nodes[b], own.nodes[b]) << to_string(static_cast<HB>(b));
  }
  EXPECT_EQ(compared, 53);
}

// A minimal glTF with a humanoid's nodes (all in the scene but the last, "outside") and the
// given `extensions` text.
std::string hm_vrm_json(const std::string& extensions) {
  const std::vector<std::pair<std::string, std::vector<int>>> nodes{
      {"hips", {1, 11, 14}},        {"spine", {2}},           {"chest", {3, 5, 8}},   {"neck", {4}},
      {"head", {}},                 {"shoulder.L", {6}},      {"upper_arm.L", {7}},   {"lower_arm.L", {17}},
      {"shoulder.R", {9}},          {"upper_arm.R", {10}},    {"lower_arm.R", {19}},  {"upper_leg.L", {12}},
      {"lower_leg.L", {13}},        {"foot.L", {}},           {"upper_leg.R", {15}},  {"lower_leg.R", {16}},
      {"foot.R", {}},               {"hand.L", {18}},         {"thumb.L", {}},        {"hand.R", {}},
      {"outside", {}}};
  std::string json = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[)";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    json += (i > 0 ? "," : "") + std::string(R"({"name":")") + nodes[i].first + "\"";
    if (!nodes[i].second.empty()) {
      json += R"(,"children":[)";
      for (std::size_t c = 0; c < nodes[i].second.size(); ++c) json += (c > 0 ? "," : "") + std::to_string(nodes[i].second[c]);
      json += "]";
    }
    json += "}";
  }
  return json + "]," + extensions + "}";
}

// VRM 0.x's array of {"bone", "node"} (file node indices).
std::string hm_vrm0_bones(const std::string& extra = "") {
  return R"("extensions":{"VRM":{"humanoid":{"humanBones":[)"
         R"({"bone":"hips","node":0},{"bone":"spine","node":1},{"bone":"chest","node":2},{"bone":"neck","node":3},)"
         R"({"bone":"head","node":4},{"bone":"leftShoulder","node":5},{"bone":"leftUpperArm","node":6},)"
         R"({"bone":"leftLowerArm","node":7},{"bone":"rightShoulder","node":8},{"bone":"rightUpperArm","node":9},)"
         R"({"bone":"rightLowerArm","node":10},{"bone":"leftUpperLeg","node":11},{"bone":"leftLowerLeg","node":12},)"
         R"({"bone":"leftFoot","node":13},{"bone":"rightUpperLeg","node":14},{"bone":"rightLowerLeg","node":15},)"
         R"({"bone":"rightFoot","node":16},{"bone":"leftHand","node":17},{"bone":"leftThumbProximal","node":18},)"
         R"({"bone":"rightHand","node":19})" +
         extra + "]}}}";
}

Model hm_import_json(const std::string& json) {
  const auto* p = reinterpret_cast<const std::byte*>(json.data());
  return import_gltf(std::span<const std::byte>(p, json.size()));
}

TEST(HumanoidMap, RT1_Vrm0MapIsReadWithItsThumbNames) {
  const Model model = hm_import_json(hm_vrm_json(hm_vrm0_bones()));
  ASSERT_TRUE(model.humanoid.has_value());
  hm_expect_bones(model, *model.humanoid,
                  {{HB::Hips, "hips"}, {HB::Head, "head"}, {HB::LeftHand, "hand.L"}, {HB::RightHand, "hand.R"},
                   {HB::LeftThumbMetacarpal, "thumb.L"}, {HB::LeftThumbProximal, ""}, {HB::RightFoot, "foot.R"}},
                  "VRM 0.x");
  EXPECT_TRUE(model.diagnostics.empty());
  // The document keeps the entries as the file names them, and writes them back the same way.
  std::vector<Diagnostic> diagnostics;
  const std::string json = hm_vrm_json(hm_vrm0_bones());
  const gltf::Document doc = gltf::parse_gltf_json(json, ImportLimits{}, diagnostics);
  ASSERT_TRUE(doc.vrm_humanoid.has_value());
  EXPECT_EQ(doc.vrm_humanoid->version, 0);
  EXPECT_EQ(doc.vrm_humanoid->bones[18].bone, "leftThumbProximal");
  EXPECT_EQ(gltf::parse_gltf_json(gltf::serialize_gltf_json(doc), ImportLimits{}, diagnostics), doc);
}

TEST(HumanoidMap, RT1_Vrm1MapIsWrittenBackByTheJsonWriter) {
  const std::string json = hm_vrm_json(
      R"("extensions":{"VRMC_vrm":{"specVersion":"1.0","humanoid":{"humanBones":{"hips":{"node":0},"head":{"node":4}}}}})");
  std::vector<Diagnostic> diagnostics;
  const gltf::Document doc = gltf::parse_gltf_json(json, ImportLimits{}, diagnostics);
  ASSERT_TRUE(doc.vrm_humanoid.has_value());
  EXPECT_EQ(doc.vrm_humanoid->version, 1);
  ASSERT_EQ(doc.vrm_humanoid->bones.size(), 2u);
  EXPECT_EQ(doc.vrm_humanoid->bones[1].bone, "head");
  EXPECT_EQ(doc.vrm_humanoid->bones[1].node, 4u);
  EXPECT_EQ(gltf::parse_gltf_json(gltf::serialize_gltf_json(doc), ImportLimits{}, diagnostics), doc);
}

// Hostile entries are ignored one by one, each counted; the rest of the map stands.
TEST(HumanoidMap, RT1_HostileVrmEntriesAreIgnored) {
  const std::string extra =
      R"(,{"bone":"jaw","node":20},)"         // outside the scene
      R"({"bone":"leftEye","node":99},)"     // no such node
      R"({"bone":"leftEye","node":-1},)"     // not an index
      R"({"bone":"leftEye","node":"4"},)"    // not a number
      R"({"bone":"tail","node":4},)"         // not a VRM bone
      R"({"bone":"leftThumbMetacarpal","node":4},)"  // a 1.0 name in a 0.x file
      R"({"bone":"head","node":5},)"         // a bone twice
      R"({"bone":"rightEye","node":4},)"     // a node twice
      R"({"bone":7,"node":4},)"              // a name that is not a string
      R"(17,null,[],)"                       // entries that are not objects
      R"({"bone":"leftEye"})";               // no node
  const Model model = hm_import_json(hm_vrm_json(hm_vrm0_bones(extra)));
  ASSERT_TRUE(model.humanoid.has_value());
  EXPECT_EQ(hm_name_of(model, *model.humanoid, HB::Head), "head");
  EXPECT_FALSE(model.humanoid->has(HB::Jaw));
  EXPECT_FALSE(model.humanoid->has(HB::LeftEye));
  EXPECT_FALSE(model.humanoid->has(HB::RightEye));
  const Diagnostic* ignored = find_diagnostic(model.diagnostics, "vrm-humanoid-entry-ignored");
  ASSERT_NE(ignored, nullptr);
  EXPECT_EQ(ignored->count, 13);
  EXPECT_EQ(find_diagnostic(model.diagnostics, "vrm-humanoid-dropped"), nullptr);
}

TEST(HumanoidMap, RT1_VrmMapWithoutARequiredBoneIsDropped) {
  std::string bones = hm_vrm0_bones();
  const std::string foot = R"({"bone":"rightFoot","node":16},)";
  bones.erase(bones.find(foot), foot.size());
  const Model model = hm_import_json(hm_vrm_json(bones));
  EXPECT_FALSE(model.humanoid.has_value());
  const Diagnostic* dropped = find_diagnostic(model.diagnostics, "vrm-humanoid-dropped");
  ASSERT_NE(dropped, nullptr);
  EXPECT_NE(dropped->message.find("rightFoot"), std::string::npos) << dropped->message;
  EXPECT_EQ(model.nodes.size(), 21u);  // the file itself loads: the root and 20 nodes in the scene
}

TEST(HumanoidMap, RT1_VrmMapOfTheWrongShapeIsNotRead) {
  for (const char* ext : {R"("extensions":{"VRMC_vrm":{"humanoid":{"humanBones":[1,2]}}})",
                          R"("extensions":{"VRMC_vrm":{"humanoid":{"humanBones":{"hips":3}}}})",
                          R"("extensions":{"VRMC_vrm":{"humanoid":"hips"}})", R"("extensions":{"VRMC_vrm":12})",
                          R"("extensions":{"VRM":{"humanoid":{"humanBones":{"hips":{"node":0}}}}})",
                          R"("extensions":{"VRM":{}})", R"("extensions":[1])"}) {
    SCOPED_TRACE(ext);
    Model model;
    ASSERT_NO_THROW(model = hm_import_json(hm_vrm_json(ext)));
    EXPECT_FALSE(model.humanoid.has_value());
    EXPECT_EQ(model.nodes.size(), 21u);
  }
  const Model wrong = hm_import_json(hm_vrm_json(R"("extensions":{"VRMC_vrm":{"humanoid":{"humanBones":[1]}}})"));
  EXPECT_NE(find_diagnostic(wrong.diagnostics, "vrm-humanoid-dropped"), nullptr);
}

// ---------------------------------------------------------------------------------------------
// Naming conventions, on synthetic rigs.

TEST(HumanoidMap, RT1_MixamoNamespaces) {
  for (const std::string prefix : {"mixamorig:", "mixamorig1:", "mixamorig12:", "", "mixamorig_"}) {
    SCOPED_TRACE(prefix);
    const Model model = hm_model(hm_mixamo(prefix));
    const HumanoidMap map = auto_humanoid_map(model);
    const std::string p = prefix;
    hm_expect_bones(model, map,
                    {{HB::Hips, p + "Hips"},
                     {HB::Spine, p + "Spine"},
                     {HB::Chest, p + "Spine1"},
                     {HB::UpperChest, p + "Spine2"},
                     {HB::Neck, p + "Neck"},
                     {HB::Head, p + "Head"},
                     {HB::LeftEye, p + "LeftEye"},
                     {HB::LeftShoulder, p + "LeftShoulder"},
                     {HB::LeftUpperArm, p + "LeftArm"},
                     {HB::LeftLowerArm, p + "LeftForeArm"},
                     {HB::LeftHand, p + "LeftHand"},
                     {HB::RightHand, p + "RightHand"},
                     {HB::LeftUpperLeg, p + "LeftUpLeg"},
                     {HB::LeftLowerLeg, p + "LeftLeg"},
                     {HB::LeftFoot, p + "LeftFoot"},
                     {HB::LeftToes, p + "LeftToeBase"},
                     {HB::RightToes, p + "RightToeBase"},
                     {HB::LeftThumbMetacarpal, p + "LeftHandThumb1"},
                     {HB::LeftThumbProximal, p + "LeftHandThumb2"},
                     {HB::LeftThumbDistal, p + "LeftHandThumb3"},
                     {HB::LeftIndexProximal, p + "LeftHandIndex1"},
                     {HB::LeftIndexIntermediate, p + "LeftHandIndex2"},
                     {HB::LeftIndexDistal, p + "LeftHandIndex3"},
                     {HB::RightLittleDistal, p + "RightHandPinky3"},
                     {HB::RightRingProximal, p + "RightHandRing1"}},
                    "mixamo");
    EXPECT_TRUE(map.notes.empty()) << hm_notes(map);
  }
}

// CMU's BVH: LHipJoint sits between Hips and LeftUpLeg and is not the upper leg; LowerBack,
// Spine and Spine1 are the spine, chest and upperChest; Neck (not Neck1) is the neck.
TEST(HumanoidMap, RT1_CmuMotionCapture) {
  const std::vector<HmJoint> center{{"Hips", "", {0, 1, 0}},        {"LowerBack", "Hips", {0, 0.05f, 0}},
                                    {"Spine", "LowerBack", {0, 0.1f, 0}}, {"Spine1", "Spine", {0, 0.1f, 0}},
                                    {"Neck", "Spine1", {0, 0.1f, 0}},   {"Neck1", "Neck", {0, 0.05f, 0}},
                                    {"Head", "Neck1", {0, 0.05f, 0}},   {"Head_end", "Head", {0, 0.1f, 0}}};
  const std::vector<HmJoint> side{{"#HipJoint", "Hips", {0.05f, 0, 0}},     {"#UpLeg", "#HipJoint", {0.05f, -0.05f, 0}},
                                  {"#Leg", "#UpLeg", {0, -0.45f, 0}},     {"#Foot", "#Leg", {0, -0.45f, 0}},
                                  {"#ToeBase", "#Foot", {0, -0.05f, 0.1f}}, {"#Shoulder", "Spine1", {0.05f, 0.1f, 0}},
                                  {"#Arm", "#Shoulder", {0.1f, 0, 0}},    {"#ForeArm", "#Arm", {0.25f, 0, 0}},
                                  {"#Hand", "#ForeArm", {0.25f, 0, 0}},   {"#FingerBase", "#Hand", {0.05f, 0, 0}},
                                  {"#HandIndex1", "#FingerBase", {0.03f, 0, 0}}};
  std::vector<HmJoint> joints = center;
  for (const HmJoint& j : hm_both_sides(side, "Left", "Right")) joints.push_back(j);
  for (HmJoint& j : joints) {  // CMU writes the hip joints LHipJoint / RHipJoint
    for (std::string* s : {&j.name, &j.parent}) {
      if (*s == "LeftHipJoint") *s = "LHipJoint";
      if (*s == "RightHipJoint") *s = "RHipJoint";
    }
  }
  const Model model = hm_model(joints);
  const HumanoidMap map = auto_humanoid_map(model);
  hm_expect_bones(model, map,
                  {{HB::Hips, "Hips"},          {HB::Spine, "LowerBack"},      {HB::Chest, "Spine"},
                   {HB::UpperChest, "Spine1"},  {HB::Neck, "Neck"},            {HB::Head, "Head"},
                   {HB::LeftUpperLeg, "LeftUpLeg"}, {HB::RightUpperLeg, "RightUpLeg"}, {HB::LeftLowerLeg, "LeftLeg"},
                   {HB::LeftToes, "LeftToeBase"}, {HB::LeftShoulder, "LeftShoulder"}, {HB::LeftHand, "LeftHand"},
                   {HB::LeftIndexProximal, "LeftHandIndex1"}},
                  "cmu");
}

// The Unreal mannequin (UE5: five spine bones, two necks, twist and corrective bones beside the
// limbs, IK bones under the root, metacarpals of the fingers).
TEST(HumanoidMap, RT1_UnrealMannequin) {
  const std::vector<HmJoint> center{{"root", "", {0, 0, 0}},        {"pelvis", "root", {0, 1, 0}},
                                    {"spine_01", "pelvis", {0, 0.05f, 0}}, {"spine_02", "spine_01", {0, 0.05f, 0}},
                                    {"spine_03", "spine_02", {0, 0.05f, 0}}, {"spine_04", "spine_03", {0, 0.05f, 0}},
                                    {"spine_05", "spine_04", {0, 0.05f, 0}}, {"neck_01", "spine_05", {0, 0.1f, 0}},
                                    {"neck_02", "neck_01", {0, 0.05f, 0}},  {"head", "neck_02", {0, 0.05f, 0}},
                                    {"ik_foot_root", "root", {0, 0, 0}},    {"ik_hand_root", "root", {0, 0, 0}}};
  const std::vector<HmJoint> side{{"thigh_#", "pelvis", {0.1f, -0.05f, 0}},   {"thigh_twist_01_#", "thigh_#", {0, -0.2f, 0}},
                                  {"calf_#", "thigh_#", {0, -0.45f, 0}},      {"calf_twist_01_#", "calf_#", {0, -0.2f, 0}},
                                  {"foot_#", "calf_#", {0, -0.45f, 0}},       {"ball_#", "foot_#", {0, -0.05f, 0.12f}},
                                  {"clavicle_#", "spine_05", {0.05f, 0.05f, 0}}, {"upperarm_#", "clavicle_#", {0.1f, 0, 0}},
                                  {"upperarm_twist_01_#", "upperarm_#", {0.1f, 0, 0}},
                                  {"upperarm_correctiveRoot_#", "upperarm_#", {0, 0, 0}},
                                  {"lowerarm_#", "upperarm_#", {0.25f, 0, 0}}, {"lowerarm_twist_01_#", "lowerarm_#", {0.1f, 0, 0}},
                                  {"hand_#", "lowerarm_#", {0.25f, 0, 0}},    {"index_metacarpal_#", "hand_#", {0.03f, 0, 0}},
                                  {"index_01_#", "index_metacarpal_#", {0.03f, 0, 0}}, {"index_02_#", "index_01_#", {0.03f, 0, 0}},
                                  {"thumb_01_#", "hand_#", {0.02f, 0, 0.02f}}, {"ik_foot_#", "ik_foot_root", {0.1f, 0, 0}},
                                  {"ik_hand_#", "ik_hand_root", {0.5f, 1.4f, 0}}};
  const Model model = hm_model(hm_concat(center, hm_both_sides(side, "l", "r")));
  const HumanoidMap map = auto_humanoid_map(model);
  hm_expect_bones(model, map,
                  {{HB::Hips, "pelvis"},        {HB::Spine, "spine_01"},        {HB::Chest, "spine_03"},
                   {HB::UpperChest, "spine_05"}, {HB::Neck, "neck_01"},         {HB::Head, "head"},
                   {HB::LeftShoulder, "clavicle_l"}, {HB::LeftUpperArm, "upperarm_l"}, {HB::LeftLowerArm, "lowerarm_l"},
                   {HB::LeftHand, "hand_l"},    {HB::RightHand, "hand_r"},      {HB::LeftUpperLeg, "thigh_l"},
                   {HB::LeftLowerLeg, "calf_l"}, {HB::LeftFoot, "foot_l"},      {HB::LeftToes, "ball_l"},
                   {HB::RightToes, "ball_r"},   {HB::LeftIndexProximal, "index_01_l"}, {HB::LeftIndexIntermediate, "index_02_l"},
                   {HB::LeftThumbMetacarpal, "thumb_01_l"}},
                  "unreal");
  for (int node : map.nodes) {
    if (node < 0) continue;
    EXPECT_EQ(model.nodes[static_cast<std::size_t>(node)].name.find("twist"), std::string::npos);
  }
}

// Blender styles: Rigify's deform bones (split limbs: `DEF-upper_arm.L.001` below
// `DEF-upper_arm.L`), Quaternius' capitalised names, VRoid's VRM 0.x names, 3ds Max biped
// (whose thighs hang from `Bip01 Spine`: that bone is not part of the spine chain).
TEST(HumanoidMap, RT1_RigifyQuaterniusVroidAndBiped) {
  struct Case {
    const char* what;
    std::vector<HmJoint> joints;
    std::vector<std::pair<HB, std::string>> expected;
  };
  const std::vector<Case> cases{
      {"rigify",
       hm_concat({{"DEF-spine", "", {0, 1, 0}}, {"DEF-spine.001", "DEF-spine", {0, 0.1f, 0}},
                  {"DEF-spine.002", "DEF-spine.001", {0, 0.1f, 0}}, {"DEF-spine.003", "DEF-spine.002", {0, 0.1f, 0}},
                  {"DEF-neck", "DEF-spine.003", {0, 0.1f, 0}}, {"DEF-head", "DEF-neck", {0, 0.1f, 0}}},
                 hm_both_sides({{"DEF-pelvis.#", "DEF-spine", {0.05f, 0, 0}}, {"DEF-thigh.#", "DEF-spine", {0.1f, -0.05f, 0}},
                                {"DEF-thigh.#.001", "DEF-thigh.#", {0, -0.2f, 0}}, {"DEF-shin.#", "DEF-thigh.#.001", {0, -0.25f, 0}},
                                {"DEF-shin.#.001", "DEF-shin.#", {0, -0.2f, 0}}, {"DEF-foot.#", "DEF-shin.#.001", {0, -0.25f, 0}},
                                {"DEF-toe.#", "DEF-foot.#", {0, -0.05f, 0.1f}}, {"DEF-shoulder.#", "DEF-spine.003", {0.05f, 0.05f, 0}},
                                {"DEF-upper_arm.#", "DEF-shoulder.#", {0.1f, 0, 0}},
                                {"DEF-upper_arm.#.001", "DEF-upper_arm.#", {0.12f, 0, 0}},
                                {"DEF-forearm.#", "DEF-upper_arm.#.001", {0.13f, 0, 0}},
                                {"DEF-forearm.#.001", "DEF-forearm.#", {0.12f, 0, 0}}, {"DEF-hand.#", "DEF-forearm.#.001", {0.13f, 0, 0}},
                                {"DEF-thumb.01.#", "DEF-hand.#", {0.02f, 0, 0.02f}}, {"DEF-f_index.01.#", "DEF-hand.#", {0.05f, 0, 0}}},
                               "L", "R")),
       {{HB::Hips, "DEF-spine"},        {HB::Spine, "DEF-spine.001"},     {HB::Chest, "DEF-spine.002"},
        {HB::UpperChest, "DEF-spine.003"}, {HB::Neck, "DEF-neck"},        {HB::LeftUpperArm, "DEF-upper_arm.L"},
        {HB::LeftLowerArm, "DEF-forearm.L"}, {HB::LeftHand, "DEF-hand.L"}, {HB::LeftUpperLeg, "DEF-thigh.L"},
        {HB::LeftLowerLeg, "DEF-shin.L"}, {HB::LeftFoot, "DEF-foot.L"},   {HB::RightToes, "DEF-toe.R"},
        {HB::LeftShoulder, "DEF-shoulder.L"}, {HB::LeftIndexProximal, "DEF-f_index.01.L"}}},
      {"quaternius",
       hm_concat({{"Hips", "", {0, 1, 0}}, {"Abdomen", "Hips", {0, 0.1f, 0}}, {"Torso", "Abdomen", {0, 0.15f, 0}},
                  {"Neck", "Torso", {0, 0.2f, 0}}, {"Head", "Neck", {0, 0.1f, 0}}},
                 hm_both_sides({{"Shoulder_#", "Torso", {0.05f, 0.15f, 0}}, {"UpperArm_#", "Shoulder_#", {0.1f, 0, 0}},
                                {"LowerArm_#", "UpperArm_#", {0.25f, 0, 0}}, {"Fist_#", "LowerArm_#", {0.25f, 0, 0}},
                                {"Thigh_#", "Hips", {0.1f, -0.05f, 0}}, {"Shin_#", "Thigh_#", {0, -0.45f, 0}},
                                {"Foot_#", "Shin_#", {0, -0.45f, 0}}, {"Hand_#", "LowerArm_#", {0.25f, 0, 0}}},
                               "L", "R")),
       {{HB::Hips, "Hips"}, {HB::Spine, "Abdomen"}, {HB::Chest, "Torso"}, {HB::LeftUpperArm, "UpperArm_L"},
        {HB::RightHand, "Hand_R"}, {HB::LeftUpperLeg, "Thigh_L"}, {HB::RightLowerLeg, "Shin_R"}}},
      {"vroid",
       hm_concat({{"Root", "", {0, 0, 0}}, {"J_Bip_C_Hips", "Root", {0, 1, 0}}, {"J_Bip_C_Spine", "J_Bip_C_Hips", {0, 0.1f, 0}},
                  {"J_Bip_C_Chest", "J_Bip_C_Spine", {0, 0.1f, 0}}, {"J_Bip_C_UpperChest", "J_Bip_C_Chest", {0, 0.1f, 0}},
                  {"J_Bip_C_Neck", "J_Bip_C_UpperChest", {0, 0.1f, 0}}, {"J_Bip_C_Head", "J_Bip_C_Neck", {0, 0.1f, 0}}},
                 hm_both_sides({{"J_Bip_#_Shoulder", "J_Bip_C_UpperChest", {0.05f, 0.05f, 0}},
                                {"J_Bip_#_UpperArm", "J_Bip_#_Shoulder", {0.1f, 0, 0}},
                                {"J_Bip_#_LowerArm", "J_Bip_#_UpperArm", {0.25f, 0, 0}},
                                {"J_Bip_#_Hand", "J_Bip_#_LowerArm", {0.25f, 0, 0}},
                                {"J_Bip_#_Thumb1", "J_Bip_#_Hand", {0.02f, 0, 0.02f}},
                                {"J_Bip_#_Little1", "J_Bip_#_Hand", {0.05f, 0, -0.02f}},
                                {"J_Bip_#_UpperLeg", "J_Bip_C_Hips", {0.1f, -0.05f, 0}},
                                {"J_Bip_#_LowerLeg", "J_Bip_#_UpperLeg", {0, -0.45f, 0}},
                                {"J_Bip_#_Foot", "J_Bip_#_LowerLeg", {0, -0.45f, 0}},
                                {"J_Bip_#_ToeBase", "J_Bip_#_Foot", {0, -0.05f, 0.1f}}},
                               "L", "R")),
       {{HB::Hips, "J_Bip_C_Hips"}, {HB::Spine, "J_Bip_C_Spine"}, {HB::Chest, "J_Bip_C_Chest"},
        {HB::UpperChest, "J_Bip_C_UpperChest"}, {HB::LeftUpperArm, "J_Bip_L_UpperArm"}, {HB::RightFoot, "J_Bip_R_Foot"},
        {HB::LeftToes, "J_Bip_L_ToeBase"}, {HB::LeftThumbMetacarpal, "J_Bip_L_Thumb1"}, {HB::RightLittleProximal, "J_Bip_R_Little1"}}},
      {"biped",
       hm_concat({{"Bip01", "", {0, 0, 0}}, {"Bip01 Pelvis", "Bip01", {0, 1, 0}}, {"Bip01 Spine", "Bip01 Pelvis", {0, 0.05f, 0}},
                  {"Bip01 Spine1", "Bip01 Spine", {0, 0.1f, 0}}, {"Bip01 Spine2", "Bip01 Spine1", {0, 0.1f, 0}},
                  {"Bip01 Neck", "Bip01 Spine2", {0, 0.15f, 0}}, {"Bip01 Head", "Bip01 Neck", {0, 0.1f, 0}},
                  {"Bip01 HeadNub", "Bip01 Head", {0, 0.2f, 0}}},
                 hm_both_sides({{"Bip01 # Thigh", "Bip01 Spine", {0.1f, -0.1f, 0}}, {"Bip01 # Calf", "Bip01 # Thigh", {0, -0.45f, 0}},
                                {"Bip01 # Foot", "Bip01 # Calf", {0, -0.45f, 0}}, {"Bip01 # Toe0", "Bip01 # Foot", {0, -0.05f, 0.1f}},
                                {"Bip01 # Clavicle", "Bip01 Neck", {0.05f, 0, 0}}, {"Bip01 # UpperArm", "Bip01 # Clavicle", {0.1f, 0, 0}},
                                {"Bip01 # Forearm", "Bip01 # UpperArm", {0.25f, 0, 0}}, {"Bip01 # Hand", "Bip01 # Forearm", {0.25f, 0, 0}},
                                {"Bip01 # Finger0", "Bip01 # Hand", {0.02f, 0, 0.02f}}, {"Bip01 # Finger01", "Bip01 # Finger0", {0.02f, 0, 0}},
                                {"Bip01 # Finger1", "Bip01 # Hand", {0.05f, 0, 0}}, {"Bip01 # Finger1Nub", "Bip01 # Finger1", {0.02f, 0, 0}}},
                               "L", "R")),
       {{HB::Hips, "Bip01 Pelvis"}, {HB::Spine, "Bip01 Spine1"}, {HB::Chest, "Bip01 Spine2"}, {HB::UpperChest, ""},
        {HB::Neck, "Bip01 Neck"}, {HB::Head, "Bip01 Head"}, {HB::LeftShoulder, "Bip01 L Clavicle"},
        {HB::LeftUpperArm, "Bip01 L UpperArm"}, {HB::LeftLowerArm, "Bip01 L Forearm"}, {HB::LeftHand, "Bip01 L Hand"},
        {HB::RightUpperLeg, "Bip01 R Thigh"}, {HB::RightLowerLeg, "Bip01 R Calf"}, {HB::LeftToes, "Bip01 L Toe0"},
        {HB::LeftThumbMetacarpal, "Bip01 L Finger0"}, {HB::LeftThumbProximal, "Bip01 L Finger01"},
        {HB::LeftIndexProximal, "Bip01 L Finger1"}, {HB::LeftIndexIntermediate, ""}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const Model model = hm_model(c.joints);
    HumanoidMap map;
    ASSERT_NO_THROW(map = auto_humanoid_map(model));
    hm_expect_bones(model, map, c.expected, c.what);
  }
}

// KayKit's hand: lowerarm -> wrist -> hand (a leaf): the wrist is VRM's hand. With fingers under
// the hand bone, the hand bone is.
TEST(HumanoidMap, RT1_HandIsTheWristWhenTheHandBoneHoldsNoFingers) {
  std::vector<HmJoint> joints = hm_mixamo("");
  for (HmJoint& j : joints) {
    if (j.name == "LeftHand") j.name = "LeftWrist";
    if (j.parent == "LeftHand") j.parent = "LeftWrist";
  }
  joints.push_back({"LeftHand", "LeftWrist", {0.05f, 0, 0}});
  joints.push_back({"LeftHandSocket", "LeftHand", {0.05f, 0, 0}});
  // The right side: the hand holds the fingers, the wrist is between it and the forearm.
  for (HmJoint& j : joints) {
    if (j.name == "RightHand") j.parent = "RightWrist";
  }
  joints.insert(std::find_if(joints.begin(), joints.end(), [](const HmJoint& j) { return j.name == "RightHand"; }),
                HmJoint{"RightWrist", "RightForeArm", {0.2f, 0, 0}});
  const Model model = hm_model(joints);
  const HumanoidMap map = auto_humanoid_map(model);
  EXPECT_EQ(hm_name_of(model, map, HB::LeftHand), "LeftWrist");
  EXPECT_EQ(hm_name_of(model, map, HB::LeftIndexProximal), "LeftHandIndex1");  // fingers below the wrist
  EXPECT_EQ(hm_name_of(model, map, HB::RightHand), "RightHand");
}

// ---------------------------------------------------------------------------------------------
// Sides, missing bones, hostile input.

// A rig whose "Left" bones lie on its right (a mirrored export): sides are swapped, with a note.
TEST(HumanoidMap, RT1_MirroredRigSwapsSides) {
  std::vector<HmJoint> joints = hm_mixamo("mixamorig:");
  for (HmJoint& j : joints) {
    const bool sided = j.name.find("Left") != std::string::npos || j.name.find("Right") != std::string::npos;
    if (sided) j.offset.x = -j.offset.x;
  }
  const Model model = hm_model(joints);
  const HumanoidMap map = auto_humanoid_map(model);
  EXPECT_EQ(hm_name_of(model, map, HB::LeftUpperArm), "mixamorig:RightArm");
  EXPECT_EQ(hm_name_of(model, map, HB::RightFoot), "mixamorig:LeftFoot");
  EXPECT_EQ(hm_name_of(model, map, HB::LeftThumbDistal), "mixamorig:RightHandThumb3");
  EXPECT_EQ(hm_name_of(model, map, HB::RightEye), "mixamorig:LeftEye");
  EXPECT_NE(hm_notes(map).find("sides swapped"), std::string::npos);
  EXPECT_NO_THROW(validate(map, model));
  // The same rig turned about any axis, standing on its head or lying down, still swaps; its
  // rest pose given apart from the nodes' transforms (rest_locals) is what is read.
  for (const glm::vec3 axis : {glm::vec3(1, 0, 0), glm::vec3(0, 0, 1), glm::vec3(1, 1, 1)}) {
    std::vector<glm::mat4> rest(model.nodes.size());
    for (std::size_t i = 0; i < rest.size(); ++i) rest[i] = model.nodes[i].transform;
    rest[1] = glm::rotate(glm::mat4(1.f), 2.5f, glm::normalize(axis)) * rest[1];
    const HumanoidMap turned = auto_humanoid_map(model, rest);
    EXPECT_EQ(turned.nodes, map.nodes);
  }
  // Unmirrored: no swap.
  const Model plain = hm_model(hm_mixamo("mixamorig:"));
  EXPECT_EQ(hm_name_of(plain, auto_humanoid_map(plain), HB::LeftUpperArm), "mixamorig:LeftArm");
}

// A required bone missing: the message names it and the nodes that look closest.
TEST(HumanoidMap, RT1_MissingRequiredBoneIsNamedWithCandidates) {
  std::vector<HmJoint> joints = hm_mixamo("mixamorig:");
  for (HmJoint& j : joints) {
    if (j.name == "mixamorig:LeftForeArm") j.name = "mixamorig:LeftElbo";
    if (j.parent == "mixamorig:LeftForeArm") j.parent = "mixamorig:LeftElbo";
  }
  try {
    (void)auto_humanoid_map(hm_model(joints));
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("no leftLowerArm: candidates seen: ", 0), 0u) << message;
    EXPECT_NE(message.find("\"mixamorig:LeftArm\""), std::string::npos) << message;
    EXPECT_NE(message.find("\"mixamorig:RightForeArm\""), std::string::npos) << message;
    EXPECT_NE(message.find("\"mixamorig:LeftElbo\""), std::string::npos) << message;  // below the upper arm
    EXPECT_EQ(message.find("\"mixamorig:Head\""), std::string::npos) << message;
  }
  // Nothing humanoid at all: hips is the first bone missing, and nothing looks like it.
  Model empty;
  empty.nodes.push_back(ModelNode{"<root>", -1, glm::mat4(1.f), -1});
  empty.nodes.push_back(ModelNode{"Cube", 0, glm::mat4(1.f), 0});
  try {
    (void)auto_humanoid_map(empty);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "no hips: candidates seen: none");
  }
  EXPECT_THROW((void)auto_humanoid_map(Model{}), std::invalid_argument);
  // A rest pose of the wrong size is refused.
  const Model model = hm_model(hm_mixamo(""));
  std::vector<glm::mat4> rest(3, glm::mat4(1.f));
  EXPECT_THROW((void)auto_humanoid_map(model, rest), std::invalid_argument);
}

// Names of any bytes and length, duplicates, deep chains, broken parents and any rest matrices:
// the mapper answers (a map or std::invalid_argument), in time linear in the nodes.
TEST(HumanoidMap, RT1_HostileNamesHierarchiesAndRestPoses) {
  Model model = hm_model(hm_mixamo("mixamorig:"));
  // Every node named again, NaN and zero-scale transforms, a huge name, binary bytes, a parent
  // after its node and one far out of range.
  const std::size_t n = model.nodes.size();
  for (std::size_t i = 1; i < n; ++i) {
    model.nodes.push_back(ModelNode{model.nodes[i].name, static_cast<int>(i), glm::mat4(0.f), -1});
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  model.nodes.push_back(ModelNode{std::string(1 << 20, 'L'), 0, glm::mat4(nan), -1});
  model.nodes.push_back(ModelNode{std::string("\0\xff\x80Hips\x01", 8), 0, glm::mat4(1.f), -1});
  model.nodes.push_back(ModelNode{"", 0, glm::mat4(1.f), -1});
  model.nodes.push_back(ModelNode{"LeftHand", 100000, glm::mat4(1.f), -1});
  model.nodes.push_back(ModelNode{"RightHand", -7, glm::mat4(1.f), -1});
  HumanoidMap map;
  ASSERT_NO_THROW(map = auto_humanoid_map(model));
  EXPECT_EQ(hm_name_of(model, map, HB::LeftHand), "mixamorig:LeftHand");
  EXPECT_LT(map.node(HB::LeftHand), static_cast<int>(n));  // the originals: more descendants
  EXPECT_NO_THROW(validate(map, model));
  // NaN everywhere in the rest pose: the names stand.
  std::vector<glm::mat4> rest(model.nodes.size(), glm::mat4(nan));
  ASSERT_NO_THROW(map = auto_humanoid_map(model, rest));
  EXPECT_EQ(hm_name_of(model, map, HB::LeftUpperArm), "mixamorig:LeftArm");

  // A humanoid at the bottom of a chain 200,000 nodes deep, and 200,000 nodes named Hips.
  Model deep;
  deep.nodes.push_back(ModelNode{"<root>", -1, glm::mat4(1.f), -1});
  for (int i = 0; i < 200000; ++i) deep.nodes.push_back(ModelNode{"Hips", i, glm::mat4(1.f), -1});
  const int bottom = static_cast<int>(deep.nodes.size()) - 1;
  for (const HmJoint& j : hm_mixamo("x:")) {
    int parent = bottom;
    for (std::size_t k = static_cast<std::size_t>(bottom) + 1; k < deep.nodes.size(); ++k) {
      if (deep.nodes[k].name == j.parent) parent = static_cast<int>(k);
    }
    deep.nodes.push_back(ModelNode{j.name, parent, glm::translate(glm::mat4(1.f), j.offset), -1});
  }
  const auto start = std::chrono::steady_clock::now();
  ASSERT_NO_THROW(map = auto_humanoid_map(deep));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(map.node(HB::Hips), 1);  // the top Hips: the most descendants
  // The legs hang from x:Hips at the bottom of the chain: the spine starts below it.
  EXPECT_EQ(hm_name_of(deep, map, HB::Spine), "x:Spine");
  EXPECT_EQ(hm_name_of(deep, map, HB::LeftFoot), "x:LeftFoot");
  EXPECT_NO_THROW(validate(map, deep));
}

// ---------------------------------------------------------------------------------------------
// validate, humanoid_map and the native format.

TEST(HumanoidMap, RT1_ValidateRefusesBrokenMaps) {
  const Model model = hm_model(hm_mixamo(""));
  const HumanoidMap good = auto_humanoid_map(model);
  EXPECT_NO_THROW(validate(good, model));
  const auto refusal = [&](HumanoidMap map) {
    try {
      validate(map, model);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  HumanoidMap m = good;
  m.set(HB::Jaw, 999);
  EXPECT_NE(refusal(m).find("jaw names node 999"), std::string::npos) << refusal(m);
  m = good;
  m.set(HB::Jaw, m.node(HB::Head));
  EXPECT_NE(refusal(m).find("head and jaw"), std::string::npos) << refusal(m);
  m = good;
  m.set(HB::LeftFoot, -1);
  EXPECT_NE(refusal(m).find("no leftFoot"), std::string::npos) << refusal(m);
  m = good;
  m.set(HB::Jaw, 0);  // the synthetic root: above hips
  EXPECT_NE(refusal(m).find("jaw (node 0 \"<root>\") is not below hips"), std::string::npos) << refusal(m);
  m = good;
  m.set(HB::Jaw, -2);
  EXPECT_NE(refusal(m).find("jaw names node -2"), std::string::npos) << refusal(m);
}

TEST(HumanoidMap, RT1_HumanoidMapPrefersTheFileMap) {
  Model model = hm_model(hm_mixamo(""));
  HumanoidMap own = auto_humanoid_map(model);
  own.set(HB::Chest, -1);
  own.set(HB::UpperChest, -1);
  model.humanoid = own;
  EXPECT_EQ(humanoid_map(model).nodes, own.nodes);
  EXPECT_NE(auto_humanoid_map(model).nodes, own.nodes);
  model.humanoid->set(HB::Hips, -1);  // a broken own map is refused, not silently replaced
  EXPECT_THROW((void)humanoid_map(model), std::invalid_argument);
}

TEST(HumanoidMap, RT1_NativeFormatKeepsTheMap) {
  Model model = hm_model(hm_mixamo("mixamorig:"));
  model.source.node_to_bone.clear();
  HumanoidMap own = auto_humanoid_map(model);
  own.notes = {"a note", ""};
  model.humanoid = own;
  const std::vector<std::byte> bytes = write_native(model);
  const Model back = read_native(bytes);
  ASSERT_TRUE(back.humanoid.has_value());
  EXPECT_EQ(back.humanoid->nodes, own.nodes);
  EXPECT_EQ(back.humanoid->notes, own.notes);
  // Without a map, no section and no map.
  Model plain = model;
  plain.humanoid.reset();
  EXPECT_FALSE(read_native(write_native(plain)).humanoid.has_value());
  EXPECT_LT(write_native(plain).size(), bytes.size());
  // Hostile: a node out of range, a map that is not valid, a wrong bone count.
  const auto find_section = [&](const std::vector<std::byte>& b) {
    for (std::size_t at = 0; at + 4 <= b.size(); ++at) {
      if (std::memcmp(b.data() + at, "HUMN", 4) == 0) return at + 16;  // the payload
    }
    return std::size_t{0};
  };
  const std::size_t payload = find_section(bytes);
  ASSERT_GT(payload, 0u);
  const auto refused_with = [&](std::vector<std::byte> b) {
    try {
      (void)read_native(b);
    } catch (const ImportError& e) {
      return e.code();
    }
    return ImportErrorCode{};
  };
  std::vector<std::byte> b = bytes;
  const std::int32_t far = 100000, twice = own.node(HB::Head), count = 54;
  std::memcpy(b.data() + payload + 8 + 4 * static_cast<std::size_t>(HB::Jaw), &far, 4);
  EXPECT_EQ(refused_with(b), ImportErrorCode::IndexOutOfRange);
  b = bytes;
  std::memcpy(b.data() + payload + 8 + 4 * static_cast<std::size_t>(HB::Jaw), &twice, 4);
  EXPECT_EQ(refused_with(b), ImportErrorCode::InvalidDocument);
  b = bytes;
  std::memcpy(b.data() + payload, &count, 4);
  EXPECT_EQ(refused_with(b), ImportErrorCode::InvalidDocument);
  // The writer refuses a map the reader would refuse.
  Model broken = model;
  broken.humanoid->set(HB::Jaw, broken.humanoid->node(HB::Head));
  EXPECT_THROW((void)write_native(broken), std::invalid_argument);
}

}  // namespace
}  // namespace marrow
