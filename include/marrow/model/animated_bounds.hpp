#pragma once
// The one animated-bounds routine (T14; the box the renderer frames its camera on): the loaded
// (bind) pose, widened by every clip sampled at each of its key times.
//
//   - the loaded pose is posed exactly, vertex by vertex (once);
//   - every key time, and kAnimatedBoundsSteps - 1 evenly spaced times between each two
//     consecutive keys, each at O(joints): the per-frame box of S5 (Animator::bounds, or
//     SkinnedBoundsJob over a rig's joint boxes), which holds every posed vertex of that frame.
//     (The seed's cap of 64 exact samples per animation is not needed: no sample touches the
//     vertices.)
//
// So every frame at a key time (and the loaded pose) is inside the box. Between keys a joint
// turns through an arc (up to half a turn per key interval), which can swing past both keys'
// boxes: the in-between samples cut each arc into quarters, and the joint boxes (axis-aligned
// around turned boxes) are loose enough to hold what is left; a test checks random times of
// every clip of every shared asset within 1 % of the box, and a camera's margin absorbs it.
//
// Two callers, one routine: the renderer and the Python module call animated_bounds(Model);
// the asset layer (seed 003) implements AnimatedBoundsSource over one mesh of a Model.
#include <cstddef>
#include <span>
#include <vector>

#include "marrow/core/bounding_box.hpp"
#include "marrow/core/ticks.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/model.hpp"
#include "marrow/runtime/bone_track.hpp"

namespace marrow {

inline constexpr int kAnimatedBoundsSteps = 4;  // samples per key interval (its start included)

// What the routine needs of a posable thing.
class AnimatedBoundsSource {
 public:
  virtual ~AnimatedBoundsSource() = default;
  // The exact box of the loaded (bind) pose.
  virtual BoundingBox loaded_pose() = 0;
  virtual std::size_t clip_count() const = 0;
  // The clip's key times (sorted, distinct).
  virtual std::vector<Ticks> key_times(std::size_t clip) const = 0;
  // The per-frame box (containing every posed vertex) of the clip at time t.
  virtual BoundingBox frame(std::size_t clip, Ticks t) = 0;
};

BoundingBox animated_bounds(AnimatedBoundsSource& source);

// A model posed by its own Animator (the caller's instances are untouched): the loaded pose's
// vertices, then Animator::bounds() at every key time of every animation (its skeletal clips on
// every skin, its rigid clip and its morph channels). A model without vertices gets the box of
// its skeleton's joints instead (skeleton_bones.hpp: not the cameras and lights beside it).
// Throws std::invalid_argument for a model validate(Model) refuses.
BoundingBox animated_bounds(const Model& model);

// The exact box of the animator's posed vertices this frame (every part posed: O(vertices),
// allocates); what the loaded pose above uses. Animator::bounds() is the O(joints) one.
BoundingBox posed_bounds(Animator& animator);

// Every key time of model.animations[index], sorted and distinct.
std::vector<Ticks> animation_key_times(const Model& model, std::size_t index);
// The key times of tracks appended to times; then sort_key_times sorts them and drops repeats.
void append_key_times(std::span<const BoneTrack> tracks, std::vector<Ticks>& times);
void sort_key_times(std::vector<Ticks>& times);

}  // namespace marrow
