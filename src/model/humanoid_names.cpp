#include "humanoid_names.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

namespace marrow::humanoid_names {

namespace {

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
bool is_alnum(unsigned char c) { return is_digit(c) || is_upper(c) || is_lower(c); }
char to_lower(unsigned char c) { return static_cast<char>(is_upper(c) ? c - 'A' + 'a' : c); }

// "mixamorig1:LeftArm" -> "LeftArm"; "Character_Ctrl:Reference" -> "Reference".
std::string_view without_namespace(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::string current;
  const auto flush = [&] {
    if (!current.empty()) words.push_back(std::move(current));
    current.clear();
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (!is_alnum(c)) {
      flush();
      continue;
    }
    if (!current.empty()) {
      const auto prev = static_cast<unsigned char>(s[i - 1]);
      const bool next_lower = i + 1 < s.size() && is_lower(static_cast<unsigned char>(s[i + 1]));
      // Letters and digits part ("Spine1", "Bip01"); a capital after a small letter starts a word
      // ("LeftArm"), and so does a capital before a small letter after capitals ("LHipJoint").
      const bool hump = is_upper(c) && (is_lower(prev) || (is_upper(prev) && next_lower));
      if (is_digit(c) != is_digit(prev) || hump) flush();
    }
    current.push_back(to_lower(c));
  }
  flush();
  return words;
}

bool is_number(std::string_view w) { return !w.empty() && is_digit(static_cast<unsigned char>(w[0])); }

template <std::size_t N>
bool one_of(std::string_view w, const std::array<std::string_view, N>& list) {
  for (std::string_view item : list) {
    if (w == item) return true;
  }
  return false;
}

// Rig prefixes that say nothing about the bone: Mixamo's namespace written with '_', Rigify's
// deform bones, 3ds Max biped's "Bip01", VRoid's "J_Bip_C_" / "J_Bip_L_".
constexpr std::array<std::string_view, 6> kPrefixWords{"mixamorig", "def", "bip", "j", "c", "jnt"};
// End markers: BVH End Sites ("_end"), biped's "Nub"s, Maya's "null_" joints, tips.
constexpr std::array<std::string_view, 4> kEndWords{"end", "nub", "null", "tip"};
// Helpers that are never a humanoid bone.
constexpr std::array<std::string_view, 26> kHelperWords{
    "twist", "roll",     "ik",        "fk",      "pole",      "target", "tgt",      "ctrl",  "ctl",
    "control", "mch",    "org",       "helper",  "driver",    "tweak",  "socket",   "slot",  "prop",
    "weapon", "effector", "reference", "corrective", "assimp", "parent", "wgt",     "dummy"};

struct PartWord {
  std::string_view word;
  Part unsided;  // the part when the name has no side
  Part sided;    // the part when it has one
};
constexpr std::array<PartWord, 55> kPartWords{{
    {"hips", Part::Hips, Part::UpperLeg},  // "l_hip" (anatomical) is the hip joint: the thigh
    {"hip", Part::Hips, Part::UpperLeg},
    {"pelvis", Part::Hips, Part::None},
    {"spine", Part::Spine, Part::None},
    {"chest", Part::Spine, Part::None},
    {"upperchest", Part::Spine, Part::None},
    {"abdomen", Part::Spine, Part::None},
    {"abdomenlower", Part::Spine, Part::None},
    {"abdomenupper", Part::Spine, Part::None},
    {"chestlower", Part::Spine, Part::None},
    {"chestupper", Part::Spine, Part::None},
    {"lowerback", Part::Spine, Part::None},
    {"torso", Part::Spine, Part::None},
    {"neck", Part::Neck, Part::None},
    {"necklower", Part::Neck, Part::None},
    {"neckupper", Part::Neck, Part::None},
    {"head", Part::Head, Part::None},
    {"eye", Part::None, Part::Eye},
    {"jaw", Part::Jaw, Part::None},
    {"shoulder", Part::None, Part::Shoulder},
    {"clavicle", Part::None, Part::Shoulder},
    {"collar", Part::None, Part::Shoulder},
    {"collarbone", Part::None, Part::Shoulder},
    {"upperarm", Part::None, Part::UpperArm},
    {"arm", Part::None, Part::UpperArm},  // Mixamo / CMU: LeftArm, LeftForeArm
    {"uparm", Part::None, Part::UpperArm},
    {"shldr", Part::None, Part::UpperArm},  // Daz: lCollar, lShldr, lForeArm
    {"shldrbend", Part::None, Part::UpperArm},
    {"humerus", Part::None, Part::UpperArm},
    {"lowerarm", Part::None, Part::LowerArm},
    {"forearm", Part::None, Part::LowerArm},
    {"forearmbend", Part::None, Part::LowerArm},
    {"lowarm", Part::None, Part::LowerArm},
    {"elbow", Part::None, Part::LowerArm},
    {"ulna", Part::None, Part::LowerArm},
    {"hand", Part::None, Part::Hand},
    {"wrist", Part::None, Part::Wrist},
    {"upperleg", Part::None, Part::UpperLeg},
    {"upleg", Part::None, Part::UpperLeg},
    {"thigh", Part::None, Part::UpperLeg},
    {"thighbend", Part::None, Part::UpperLeg},
    {"femur", Part::None, Part::UpperLeg},
    {"lowerleg", Part::None, Part::LowerLeg},
    {"leg", Part::None, Part::LowerLeg},  // Mixamo / CMU: LeftUpLeg, LeftLeg
    {"lowleg", Part::None, Part::LowerLeg},
    {"calf", Part::None, Part::LowerLeg},
    {"shin", Part::None, Part::LowerLeg},
    {"knee", Part::None, Part::LowerLeg},  // anatomical: l_hip, l_knee, l_ankle
    {"foot", Part::None, Part::Foot},
    {"ankle", Part::None, Part::Foot},
    {"toe", Part::None, Part::Toes},
    {"toes", Part::None, Part::Toes},
    {"toebase", Part::None, Part::Toes},
    {"ball", Part::None, Part::Toes},       // Unreal: ball_l
    {"footthumb", Part::None, Part::Toes},  // biped exports: LeftFoot -> LeftFootThumb1 -> Bip01 L Toe0Nub
}};

struct FingerWord {
  std::string_view word;
  std::uint8_t finger;
};
constexpr std::array<FingerWord, 8> kFingerWords{{{"thumb", kThumb},
                                                  {"index", kIndex},
                                                  {"middle", kMiddle},
                                                  {"mid", kMiddle},
                                                  {"ring", kRing},
                                                  {"pinky", kLittle},
                                                  {"pinkie", kLittle},
                                                  {"little", kLittle}}};

std::optional<Side> side_word(std::string_view w) {
  if (w == "l" || w == "left") return Side::Left;
  if (w == "r" || w == "right") return Side::Right;
  return std::nullopt;
}

Part part_of(std::string_view core, Side side) {
  for (const PartWord& p : kPartWords) {
    if (p.word == core) return side == Side::None ? p.unsided : p.sided;
  }
  return Part::None;
}

// What the words other than the part say, gathered while the part's words are joined.
struct Reading {
  std::string core;
  int finger = -1;  // the last finger word: "LeftHandRingPinky1" is the little finger
  bool metacarpal = false;
};

// One word of a name into `out` (side, end, helper) and `r` (the part's words, finger).
void read_word(std::string_view w, std::string_view next, NodeName& out, Reading& r) {
  if (const std::optional<Side> side = side_word(w)) {
    if (out.side == Side::None) out.side = *side;
    return;
  }
  // "Lefthand" (one word: no camel-case hump between the two).
  constexpr std::array<std::pair<std::string_view, Side>, 2> kGlued{{{"left", Side::Left}, {"right", Side::Right}}};
  for (const auto& [prefix, side] : kGlued) {
    if (w.size() > prefix.size() && w.starts_with(prefix)) {
      if (out.side == Side::None) out.side = side;
      w.remove_prefix(prefix.size());
    }
  }
  if (is_number(w) || one_of(w, kPrefixWords)) return;
  if (one_of(w, kEndWords)) {
    out.end = true;
    return;
  }
  if (one_of(w, kHelperWords)) out.helper = true;
  if (w == "metacarpal") r.metacarpal = true;
  for (const FingerWord& f : kFingerWords) {
    if (w == f.word) r.finger = f.finger;
  }
  // 3ds Max biped: "Finger0" is the thumb, "Finger01" its second joint, "Finger1" the index.
  if (w == "finger" && is_number(next) && next[0] <= '4') r.finger = next[0] - '0';
  r.core += w;
}

}  // namespace

NodeName classify_node_name(std::string_view name) {
  NodeName out;
  if (name.size() > kMaxNameBytes) return out;
  const std::vector<std::string> words = split_words(without_namespace(name));
  Reading r;
  for (std::size_t i = 0; i < words.size(); ++i) {
    read_word(words[i], i + 1 < words.size() ? std::string_view(words[i + 1]) : std::string_view(), out, r);
  }
  if (out.helper) return out;
  out.part = part_of(r.core, out.side);
  // Fingers other than the thumb have no metacarpal bone in VRM (Unreal's index_metacarpal_l).
  if (out.part == Part::None && r.finger >= 0 && (!r.metacarpal || r.finger == kThumb)) {
    out.part = Part::Finger;
    out.finger = static_cast<std::uint8_t>(r.finger);
  }
  return out;
}

std::vector<std::string> name_words(std::string_view name) {
  return split_words(name.substr(0, std::min(name.size(), kMaxNameBytes)));
}

int hint_score(const std::vector<std::string>& words, Part part) {
  std::vector<std::string_view> hints;
  switch (part) {
    case Part::Hips: hints = {"hip", "pelvis", "root", "waist"}; break;
    case Part::Spine: hints = {"spine", "chest", "abdomen", "back", "torso"}; break;
    case Part::Neck:
    case Part::Head: hints = {"head", "neck", "skull"}; break;
    case Part::Shoulder:
    case Part::UpperArm: hints = {"arm", "upper", "shldr", "humerus", "shoulder", "clavicle"}; break;
    case Part::LowerArm: hints = {"arm", "fore", "lower", "elbow", "ulna"}; break;
    case Part::Hand:
    case Part::Wrist: hints = {"hand", "wrist", "palm"}; break;
    case Part::UpperLeg: hints = {"leg", "up", "thigh", "hip", "femur"}; break;
    case Part::LowerLeg: hints = {"leg", "low", "calf", "shin", "knee"}; break;
    case Part::Foot:
    case Part::Toes: hints = {"foot", "ankle", "toe", "heel"}; break;
    default: break;
  }
  int score = 0;
  for (const std::string& w : words) {
    for (std::string_view h : hints) {
      if (w.find(h) != std::string::npos) ++score;
    }
  }
  return score;
}

}  // namespace marrow::humanoid_names
