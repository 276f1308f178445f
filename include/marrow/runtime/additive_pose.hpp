#pragma once
// Additive animation (B3): a clip or a pose expressed as its difference from a reference pose,
// for the additive layers of the blending job (blending_job.hpp).
//
//   dT = T - T_ref,   dR = inverse(R_ref) * R,   dS = S / S_ref        (per joint)
//
// Sampling an additive clip gives the additive pose of the sampled clip exactly (up to float
// rounding): lerp commutes with the subtraction and the division by constants, and slerp with
// the left multiplication by a constant unit quaternion.
#include <cstddef>
#include <span>
#include <vector>

#include "marrow/core/trs.hpp"
#include "marrow/runtime/animation_clip.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/runtime_clip.hpp"

namespace marrow {

// The reference pose a clip's additive form is taken against by default: the clip sampled at
// time 0 by the one sampler (each track's first key when it starts at or after 0), rest
// (decompose_trs) for joints it does not animate; the later of two tracks on a joint wins, as
// in compile_clip. One entry per joint of rest_locals. Throws std::invalid_argument as
// validate_clip does.
std::vector<Trs> clip_reference_pose(const AnimationClip& clip, std::span<const glm::mat4> rest_locals);

// The clip's keys as deltas from reference (one Trs per joint; a track whose bone has no
// reference entry is dropped, an empty track stays empty). Tracks keep their key times; the
// result is a JointPalette clip of the same name and duration. Throws std::invalid_argument as
// validate_clip does (also for a delta that overflows), or, naming the joint, when the
// reference of a joint a track animates has a non-finite value, a zero scale component or a
// rotation of length zero (references of joints without a track are not used or checked).
AnimationClip make_additive_clip(const AnimationClip& clip, std::span<const Trs> reference);

// Compiles an additive clip for a skeleton of joint_count joints: joints it does not animate
// hold the identity delta (no translation, identity rotation, unit scale).
RuntimeClip compile_additive_clip(const AnimationClip& additive, std::size_t joint_count);

// out = the deltas of pose from reference, eight joints per instruction, with the same
// arithmetic as make_additive_clip (all three pose_block_count(joints) blocks at least; out may
// be pose or reference; padding lanes may be written with anything, as local_pose.hpp allows).
// False (nothing written) when a size is short. The reference is not checked: a zero scale
// gives Inf or NaN.
bool make_additive_pose(std::span<const TrsBlock> pose, std::span<const TrsBlock> reference, std::size_t joints,
                        std::span<TrsBlock> out) noexcept;

}  // namespace marrow
