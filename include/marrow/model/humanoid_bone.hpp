#pragma once
// The humanoid profile (RT1): the bone set of VRM 1.0's humanoid, the one vocabulary every rig is
// mapped to for retargeting (retarget_map.hpp). A rig's map names the scene node of each bone it
// has (humanoid_map.hpp).
//
// Required (a rig without one of them is not a humanoid): hips, spine, head, and per side
// upperArm, lowerArm, hand, upperLeg, lowerLeg, foot. Optional: chest, upperChest, neck, eyes,
// jaw, shoulders, toes and the fingers (VRM 1.0: thumb metacarpal, proximal, distal; the other
// fingers proximal, intermediate, distal).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace marrow {

enum class HumanoidBone : std::uint8_t {
  Hips, Spine, Chest, UpperChest, Neck, Head, LeftEye, RightEye, Jaw,
  LeftShoulder, LeftUpperArm, LeftLowerArm, LeftHand,
  RightShoulder, RightUpperArm, RightLowerArm, RightHand,
  LeftUpperLeg, LeftLowerLeg, LeftFoot, LeftToes,
  RightUpperLeg, RightLowerLeg, RightFoot, RightToes,
  LeftThumbMetacarpal, LeftThumbProximal, LeftThumbDistal,
  LeftIndexProximal, LeftIndexIntermediate, LeftIndexDistal,
  LeftMiddleProximal, LeftMiddleIntermediate, LeftMiddleDistal,
  LeftRingProximal, LeftRingIntermediate, LeftRingDistal,
  LeftLittleProximal, LeftLittleIntermediate, LeftLittleDistal,
  RightThumbMetacarpal, RightThumbProximal, RightThumbDistal,
  RightIndexProximal, RightIndexIntermediate, RightIndexDistal,
  RightMiddleProximal, RightMiddleIntermediate, RightMiddleDistal,
  RightRingProximal, RightRingIntermediate, RightRingDistal,
  RightLittleProximal, RightLittleIntermediate, RightLittleDistal,
};
inline constexpr std::size_t kHumanoidBoneCount = 55;

// VRM 1.0's name: "hips", "leftUpperArm", "rightThumbMetacarpal".
std::string_view to_string(HumanoidBone bone) noexcept;
// The bone of a VRM 1.0 name or a VRM 0.x name (0.x's thumb proximal, intermediate, distal are
// 1.0's metacarpal, proximal, distal; 0.x files name them so), ASCII case ignored; nullopt for
// any other text.
std::optional<HumanoidBone> humanoid_bone_named(std::string_view name, bool vrm0 = false) noexcept;
bool is_required(HumanoidBone bone) noexcept;
// The same bone on the other side (a bone of the middle is its own mirror).
HumanoidBone mirrored(HumanoidBone bone) noexcept;
// The profile's parent: the bone this one hangs from in a full VRM hierarchy (hips has none).
// A rig may lack the optional ones in between (chest, upperChest, neck, shoulder).
std::optional<HumanoidBone> profile_parent(HumanoidBone bone) noexcept;

}  // namespace marrow
