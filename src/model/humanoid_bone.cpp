#include "marrow/model/humanoid_bone.hpp"

#include <array>

namespace marrow {

namespace {

// VRM 1.0's names, in enum order.
constexpr std::array<std::string_view, kHumanoidBoneCount> kNames{
    "hips", "spine", "chest", "upperChest", "neck", "head", "leftEye", "rightEye", "jaw",
    "leftShoulder", "leftUpperArm", "leftLowerArm", "leftHand",
    "rightShoulder", "rightUpperArm", "rightLowerArm", "rightHand",
    "leftUpperLeg", "leftLowerLeg", "leftFoot", "leftToes",
    "rightUpperLeg", "rightLowerLeg", "rightFoot", "rightToes",
    "leftThumbMetacarpal", "leftThumbProximal", "leftThumbDistal",
    "leftIndexProximal", "leftIndexIntermediate", "leftIndexDistal",
    "leftMiddleProximal", "leftMiddleIntermediate", "leftMiddleDistal",
    "leftRingProximal", "leftRingIntermediate", "leftRingDistal",
    "leftLittleProximal", "leftLittleIntermediate", "leftLittleDistal",
    "rightThumbMetacarpal", "rightThumbProximal", "rightThumbDistal",
    "rightIndexProximal", "rightIndexIntermediate", "rightIndexDistal",
    "rightMiddleProximal", "rightMiddleIntermediate", "rightMiddleDistal",
    "rightRingProximal", "rightRingIntermediate", "rightRingDistal",
    "rightLittleProximal", "rightLittleIntermediate", "rightLittleDistal",
};
static_assert(kNames.size() == static_cast<std::size_t>(HumanoidBone::RightLittleDistal) + 1);

// The enum's blocks of sided bones: each left bone's right twin is `offset` values after it.
struct SidedBlock {
  HumanoidBone first_left;
  HumanoidBone last_left;
  std::uint8_t offset;
};
constexpr std::array<SidedBlock, 4> kSidedBlocks{{
    {HumanoidBone::LeftEye, HumanoidBone::LeftEye, 1},
    {HumanoidBone::LeftShoulder, HumanoidBone::LeftHand, 4},
    {HumanoidBone::LeftUpperLeg, HumanoidBone::LeftToes, 4},
    {HumanoidBone::LeftThumbMetacarpal, HumanoidBone::LeftLittleDistal, 15},
}};

constexpr std::uint8_t value(HumanoidBone bone) { return static_cast<std::uint8_t>(bone); }

bool equal_ignoring_ascii_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// VRM 0.x's thumb names: its proximal, intermediate and distal are 1.0's metacarpal, proximal and
// distal (the 0.x names are one joint off; 1.0 renamed them to match the hand's anatomy).
struct Vrm0Thumb {
  std::string_view name;
  HumanoidBone bone;
};
constexpr std::array<Vrm0Thumb, 6> kVrm0Thumbs{{
    {"leftThumbProximal", HumanoidBone::LeftThumbMetacarpal},
    {"leftThumbIntermediate", HumanoidBone::LeftThumbProximal},
    {"leftThumbDistal", HumanoidBone::LeftThumbDistal},
    {"rightThumbProximal", HumanoidBone::RightThumbMetacarpal},
    {"rightThumbIntermediate", HumanoidBone::RightThumbProximal},
    {"rightThumbDistal", HumanoidBone::RightThumbDistal},
}};

bool is_thumb(HumanoidBone bone) noexcept {
  return (bone >= HumanoidBone::LeftThumbMetacarpal && bone <= HumanoidBone::LeftThumbDistal) ||
         (bone >= HumanoidBone::RightThumbMetacarpal && bone <= HumanoidBone::RightThumbDistal);
}

}  // namespace

std::string_view to_string(HumanoidBone bone) noexcept {
  const std::size_t i = value(bone);
  return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

std::optional<HumanoidBone> humanoid_bone_named(std::string_view name, bool vrm0) noexcept {
  if (vrm0) {
    for (const Vrm0Thumb& t : kVrm0Thumbs) {
      if (equal_ignoring_ascii_case(name, t.name)) return t.bone;
    }
  }
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (!equal_ignoring_ascii_case(name, kNames[i])) continue;
    const auto bone = static_cast<HumanoidBone>(i);
    // 0.x has no thumb metacarpal, and its thumb names were matched above.
    if (vrm0 && is_thumb(bone)) return std::nullopt;
    return bone;
  }
  return std::nullopt;
}

bool is_required(HumanoidBone bone) noexcept {
  switch (bone) {
    case HumanoidBone::Hips:
    case HumanoidBone::Spine:
    case HumanoidBone::Head:
    case HumanoidBone::LeftUpperArm:
    case HumanoidBone::LeftLowerArm:
    case HumanoidBone::LeftHand:
    case HumanoidBone::RightUpperArm:
    case HumanoidBone::RightLowerArm:
    case HumanoidBone::RightHand:
    case HumanoidBone::LeftUpperLeg:
    case HumanoidBone::LeftLowerLeg:
    case HumanoidBone::LeftFoot:
    case HumanoidBone::RightUpperLeg:
    case HumanoidBone::RightLowerLeg:
    case HumanoidBone::RightFoot: return true;
    default: return false;
  }
}

HumanoidBone mirrored(HumanoidBone bone) noexcept {
  const std::uint8_t v = value(bone);
  for (const SidedBlock& block : kSidedBlocks) {
    const std::uint8_t first = value(block.first_left), last = value(block.last_left);
    if (v >= first && v <= last) return static_cast<HumanoidBone>(v + block.offset);
    if (v >= first + block.offset && v <= last + block.offset) return static_cast<HumanoidBone>(v - block.offset);
  }
  return bone;
}

std::optional<HumanoidBone> profile_parent(HumanoidBone bone) noexcept {
  using B = HumanoidBone;
  switch (bone) {
    case B::Hips: return std::nullopt;
    case B::Spine: return B::Hips;
    case B::Chest: return B::Spine;
    case B::UpperChest: return B::Chest;
    case B::Neck: return B::UpperChest;
    case B::Head: return B::Neck;
    case B::LeftEye:
    case B::RightEye:
    case B::Jaw: return B::Head;
    case B::LeftShoulder:
    case B::RightShoulder: return B::UpperChest;
    case B::LeftUpperLeg:
    case B::RightUpperLeg: return B::Hips;
    default: break;
  }
  // Limbs and fingers: each block lists a chain from its root down, so a bone's parent is the one
  // before it, and a chain's first bone hangs from the shoulder, hips or hand.
  const std::uint8_t v = value(bone);
  const bool left = v < value(B::RightShoulder) || (v >= value(B::LeftUpperLeg) && v < value(B::RightUpperLeg)) ||
                    (v >= value(B::LeftThumbMetacarpal) && v < value(B::RightThumbMetacarpal));
  const B hand = left ? B::LeftHand : B::RightHand;
  if (v >= value(B::LeftThumbMetacarpal)) {
    const std::uint8_t first_finger = left ? value(B::LeftThumbMetacarpal) : value(B::RightThumbMetacarpal);
    const int joint = (v - first_finger) % 3;  // each finger is three joints
    return joint == 0 ? hand : static_cast<B>(v - 1);
  }
  return static_cast<B>(v - 1);  // upperArm <- shoulder, lowerArm <- upperArm, ..., toes <- foot
}

}  // namespace marrow
