#pragma once
// Private to the humanoid mapper (humanoid_map.cpp): what a node's name says it is. A name is
// split into lower-case words (at ' ', '_', '.', '-', ':', any other byte that is not an ASCII
// letter or digit, between letters and digits, and at camel-case humps: "LeftUpLeg" -> left up
// leg, "LHipJoint" -> l hip joint), after dropping a namespace ("mixamorig:"). Side words (left,
// right, l, r, and a "left"/"right" glued to the next word: "Lefthand"), numbers and rig prefixes
// (mixamorig, DEF, Bip01, J_Bip_C) are set aside; the remaining words, joined, name the part
// ("upperarm", "forearm", "upleg", "toebase"). Fingers are found by their word anywhere in the
// name ("LeftHandIndex1", "thumb.proximal.L", "Bip01 L Finger0" by its number).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace marrow::humanoid_names {

enum class Part : std::uint8_t {
  None,
  Hips,
  Spine,  // spine, chest, abdomen, lower back: informative only, the spine bones are found by the hierarchy
  Neck,
  Head,
  Eye,
  Jaw,
  Shoulder,
  UpperArm,
  LowerArm,
  Hand,
  Wrist,
  UpperLeg,
  LowerLeg,
  Foot,
  Toes,
  Finger,
};
inline constexpr std::size_t kPartCount = static_cast<std::size_t>(Part::Finger) + 1;

enum class Side : std::uint8_t { None, Left, Right };
inline constexpr std::size_t kSideCount = 3;

// Fingers in VRM's order.
inline constexpr std::uint8_t kThumb = 0, kIndex = 1, kMiddle = 2, kRing = 3, kLittle = 4;

// Names longer than this are never bones (and are not read further): real bone names are short,
// and a hostile file's megabyte names cost nothing.
inline constexpr std::size_t kMaxNameBytes = 256;

struct NodeName {
  Part part = Part::None;
  Side side = Side::None;
  std::uint8_t finger = 0;  // Part::Finger: kThumb .. kLittle
  // An end marker ("Head_end", "Bip01 L Finger0Nub", "null_head", "tip"): a candidate only when
  // no other node of its part fits.
  bool end = false;
  // A helper that never maps ("$AssimpFbx$" pivots, twist, roll, IK, control, socket bones); the
  // spine chain skips it too.
  bool helper = false;
};

NodeName classify_node_name(std::string_view name);

// The name's lower-case words (sides, numbers and prefixes included), for listing the nodes that
// look closest to a bone the mapper could not find.
std::vector<std::string> name_words(std::string_view name);

// How much the words look like a part: the number of the part's hint words each word contains
// ("upperarm" holds "upper" and "arm"); 0 for none.
int hint_score(const std::vector<std::string>& words, Part part);

}  // namespace marrow::humanoid_names
