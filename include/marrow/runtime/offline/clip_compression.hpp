#pragma once
// Compressed clips: a clip compiled for one skeleton with fewer keys and 16-bit values, within a
// bound on the error it makes where it matters, in object space.
//
// The error bound: around every joint, the points at `distance` from it (in the joint's own
// frame, so its scale applies: with unit scales, `distance` model units) may move by at most
// `tolerance` (model units) against the original clip, at any time, measured in model space
// through the whole hierarchy: a joint's error moves every point below it, and errors of a chain
// add up. The defaults, 1 mm at 10 cm, are ozz-animation's (in metres).
//
// How: every channel (translation, rotation, scale of each joint) is quantised against its own
// range (rotations as their smallest three components) and keeps only the keys that linear
// interpolation cannot replace within the channel's share of the tolerance; the shares start at
// the whole tolerance, scaled by how far the joint's error reaches (its subtree and the points
// around it). The result is then measured for real (every joint, at every key time of the clip
// and between them): where a joint's points moved too far, its own share and those of its
// ancestors shrink, and the channels are reduced again, until every joint is within the bound.
//
//   RuntimeClip walk = compress_clip(skin.animation_clips.at("Walk"), skin, ClipCompression{});
//   SamplingJob{.clip = &walk, ...}.run();   // as any compiled clip
//
// The sampling job plays a compressed clip by the one sampler's rule on its reconstructed keys
// (reconstructed_channels), within 1e-6 (X1).
#include <cstddef>
#include <string>
#include <vector>

#include "marrow/runtime/animation_clip.hpp"
#include "marrow/runtime/bone_track.hpp"
#include "marrow/runtime/runtime_clip.hpp"

namespace marrow {

struct SkinningData;

struct ClipCompression {
  float tolerance = 0.001f;  // model units
  float distance = 0.1f;     // from each joint, in the joint's frame
  // Animated channels as segments of samples (compressed_clip_data.hpp), played with no
  // per-instance state, instead of reduced keys.
  bool segmented = false;

  // The bound `marrow convert --compress TOL` and Python's compress=TOL ask for: points 100
  // tolerances from each joint (the default's 1 mm at 10 cm, in any unit).
  static ClipCompression at_tolerance(float tolerance) noexcept { return {tolerance, 100.f * tolerance}; }
};

// Why these options cannot compress (a tolerance that is not positive and finite, a distance
// that is negative or not finite), or empty: the one check compress_clip, compress_model_clips
// and the importers (ImportOptions::compression) make.
std::string compression_refusal(const ClipCompression& options);

// What compress_clip found.
struct CompressionReport {
  double max_error = 0;       // the largest displacement measured (model units)
  int max_error_joint = -1;
  std::size_t source_keys = 0;  // channel keys of the source (3 per joint key)
  std::size_t kept_keys = 0;    // channel keys kept
  int passes = 0;               // reduce-and-measure rounds
};

// Throws std::invalid_argument as compile_clip does (validate_clip, validate(SkinningData), a
// SceneNode clip), for a tolerance that is not positive and finite or a negative or non-finite
// distance, for a clip beyond what a compressed clip holds (more than 65535 distinct key times,
// or joints times key times above 2^23: the compression's work), for rotation keys that are not
// unit quaternions, and when even keeping every key cannot meet the tolerance (the 18-bit
// quantisation is too coarse for it). A constant channel within its share of the tolerance of the
// joint's rest (else of the identity) is stored as that, exactly; the clip refers to `rest`
// (compressed_rest_pose(skeleton.bind_pose); one of its own when null) for the blocks that equal it.
RuntimeClip compress_clip(const AnimationClip& clip, const SkinningData& skeleton, const ClipCompression& options,
                          CompressionReport* report = nullptr, std::shared_ptr<const CompressedRestPose> rest = nullptr);

// The keys a compressed clip plays: per joint, its translation, rotation and scale channels as
// tracks of their own (a channel's keys carry its values; the other fields are defaults). The
// one sampler on these tracks, channel by channel, is what the sampling job returns.
struct ReconstructedJoint {
  BoneTrack translation, rotation, scale;
};
std::vector<ReconstructedJoint> reconstructed_channels(const RuntimeClip& clip);

// The same as an authoring clip: per animated joint one track over the union of its channels'
// key times, each channel interpolated there by the one sampler (so playing it equals playing
// the compressed clip, within float rounding). Joints the source did not animate get no track.
AnimationClip decompress_clip(const RuntimeClip& clip);

}  // namespace marrow
