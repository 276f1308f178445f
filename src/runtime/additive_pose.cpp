#include "marrow/runtime/additive_pose.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/runtime/track_sampler.hpp"

#include "kernels/blend_kernels.hpp"

namespace marrow {

namespace {

// The one definition of a delta (the blend kernels' `delta`), shared by clips and poses so that
// sampling an additive clip on a key gives exactly make_additive_pose of that key.
Trs delta_of(const glm::vec3& t, const glm::quat& r, const glm::vec3& s, const Trs& ref) {
  TrsBlock pose{}, reference{};
  for (std::size_t l = 0; l < kPoseLanes; ++l) {  // unused lanes: identity over identity
    for (int c = 0; c < 3; ++c) pose.s[c][l] = reference.s[c][l] = 1.f;
    pose.q[3][l] = reference.q[3][l] = 1.f;
  }
  set_pose_joint(std::span(&pose, 1), 0, Trs{t, r, s});
  set_pose_joint(std::span(&reference, 1), 0, ref);
  detail::blend_kernels(simd_choice()).delta(&pose, &reference, 1, &pose);
  return pose_joint(std::span<const TrsBlock>(&pose, 1), 0);
}

void check_reference(const Trs& ref, std::size_t joint) {
  const auto fail = [joint](const char* problem) {
    throw std::invalid_argument("make_additive_clip: the reference of joint " + std::to_string(joint) + " " + problem);
  };
  if (!is_finite(ref.translation) || !is_finite(ref.rotation) || !is_finite(ref.scale)) fail("is not finite");
  if (ref.scale.x == 0.f || ref.scale.y == 0.f || ref.scale.z == 0.f) fail("has a zero scale component");
  // inverse() divides by the squared length: refuse what would make it infinite.
  if (!is_finite(glm::inverse(ref.rotation))) fail("has a rotation of length zero");
}

}  // namespace

std::vector<Trs> clip_reference_pose(const AnimationClip& clip, std::span<const glm::mat4> rest_locals) {
  validate_clip(clip);  // the sampler needs sorted keys
  const std::size_t joints = rest_locals.size();
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> track_of(joints, kNone);  // the later track on a joint wins (compile_clip)
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    const BoneTrack& track = clip.tracks[i];
    if (track.keys.empty() || track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= joints) continue;
    track_of[static_cast<std::size_t>(track.bone_index)] = i;
  }
  std::vector<Trs> pose(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    pose[j] = track_of[j] == kNone ? decompose_trs(rest_locals[j]) : sample_track(clip.tracks[track_of[j]].keys, Ticks{0});
  }
  return pose;
}

AnimationClip make_additive_clip(const AnimationClip& clip, std::span<const Trs> reference) {
  validate_clip(clip);
  AnimationClip out;
  out.name = clip.name;
  out.duration = clip.duration;
  out.target_space = ClipTargetSpace::JointPalette;
  for (const BoneTrack& track : clip.tracks) {
    if (track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= reference.size()) continue;
    const auto joint = static_cast<std::size_t>(track.bone_index);
    BoneTrack& deltas = out.tracks.emplace_back(BoneTrack{track.bone_index, {}});
    if (track.keys.empty()) continue;  // ignored by players, as in the source clip
    const Trs& ref = reference[joint];
    check_reference(ref, joint);
    deltas.keys.reserve(track.keys.size());
    for (const Keyframe& key : track.keys) {
      const Trs d = delta_of(key.translation, key.rotation, key.scale, ref);
      deltas.keys.push_back(Keyframe{key.time, d.translation, d.rotation, d.scale});
    }
  }
  validate_clip(out);  // a finite reference can still overflow (a huge scale over a tiny one)
  return out;
}

RuntimeClip compile_additive_clip(const AnimationClip& additive, std::size_t joint_count) {
  // An identity rest: joints without a track hold the delta that changes nothing.
  return compile_clip(additive, std::vector<glm::mat4>(joint_count, glm::mat4(1.f)));
}

bool make_additive_pose(std::span<const TrsBlock> pose, std::span<const TrsBlock> reference, std::size_t joints,
                        std::span<TrsBlock> out) noexcept {
  const std::size_t blocks = pose_block_count(joints);
  if (joints > std::numeric_limits<std::size_t>::max() - kPoseLanes || pose.size() < blocks ||
      reference.size() < blocks || out.size() < blocks) {
    return false;
  }
  // Block by block, each read before it is written: out may be pose or reference.
  detail::blend_kernels(simd_choice()).delta(pose.data(), reference.data(), blocks, out.data());
  return true;
}

}  // namespace marrow
