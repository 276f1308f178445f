#pragma once
// Root motion (R1): the motion of one joint (the character's root) taken out of its clips and
// handed to the game, which moves the character by it.
//
// For a clip, the joint's scene-space position p(t) = W_parent * T(t) (W_parent: the joint's
// parent at its loaded pose, T(t) the joint's sampled local translation) and its yaw(t), the
// angle of its scene-space rotation about the up axis (the twist of a swing-twist split),
// unwrapped along the clip's keys so that whole turns add up. The up axis is +Y (glTF's) unless
// the options name another (+Z for a Z-up BVH file). Extraction takes the horizontal part (p
// less its part along up: the scene's X and Z when up is +Y) and, when asked, the yaw:
//   - the pose: the joint's motion since time 0 is removed (it stays above its start point,
//     facing its start direction; vertical motion stays in the pose);
//   - the delta of one update: the sum over the clock's path (playback_clock.hpp) of
//     p(to) - p(from) and yaw(to) - yaw(from): across a loop wrap (end - previous) + (current -
//     start), whole cycles counted, ping-pong round trips cancelling. One full cycle sums to the
//     clip's end-minus-start motion; from 0 to t it equals the displacement between the poses
//     at 0 and t.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/slerp.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/runtime/keyframe.hpp"
#include "marrow/runtime/playback_clock.hpp"
#include "marrow/runtime/track_sampler.hpp"

namespace marrow {

struct RootMotion {
  glm::vec3 translation{0.f};  // scene space, perpendicular to up (y = 0 when up is +Y)
  float yaw = 0.f;             // radians about up (measured whether or not it leaves the pose)
};

struct RootMotionOptions {
  std::string joint{};         // node name; empty: the root joint of the model's first skin
  bool yaw = false;            // also take the rotation about up out of the pose (the yaw is
                               // measured and reported either way)
  glm::vec3 up{0.f, 1.f, 0.f};  // the scene's up axis: finite, not zero (its direction is taken)
};

// The root's place at one clip time: its horizontal scene position and unwrapped yaw.
struct RootPlace {
  glm::vec3 position{0.f};
  float yaw = 0.f;
};

class RootMotionTrack;

// The last two places one player of a track sampled. A clock moving on asks at each update for
// the time it left (the time it reached at the last update) and the time it reaches, and the
// pose then asks for the motion since the start at that time again: with the memo each time is
// sampled once. Small and caller-owned (one per playing clip); it never changes a result.
struct RootMotionMemo {
  const RootMotionTrack* track = nullptr;  // whose places these are (none yet)
  std::array<Ticks, 2> time{};
  std::array<RootPlace, 2> place{};
  TrackCursor cursor;       // where the last sample found its keys
  std::uint8_t filled = 0;  // entries held
  std::uint8_t next = 0;    // the entry the next new time replaces
};

// One clip's motion of one joint (keys: the joint's track, empty for a joint the clip does not
// move; rest: its local transform then). Keeps a view of the keys: they must outlive it.
// Immutable after construction.
class RootMotionTrack {
 public:
  RootMotionTrack() = default;
  // up: a unit vector (RootMotionOptions::up, normalised).
  RootMotionTrack(std::span<const Keyframe> keys, const Trs& rest, const glm::mat4& parent_world,
                  const glm::vec3& up = glm::vec3(0.f, 1.f, 0.f));

  // Horizontal scene position and unwrapped yaw at clip time t: one sample of the track (the
  // cursor as the track sampler's).
  RootPlace place(Ticks t, TrackCursor& cursor) const noexcept;
  // The same, through the memo: a time it holds is not sampled again; a new one replaces the
  // older entry.
  RootPlace place(Ticks t, RootMotionMemo& memo) const noexcept;
  // The motion along one clock step.
  RootMotion along(const ClockStep& step, RootMotionMemo& memo) const noexcept;
  // The motion from time 0 to t; the memo is read, not written (a const caller's).
  RootMotion since_start(Ticks t, const RootMotionMemo& memo) const noexcept;
  std::size_t size_in_bytes() const noexcept { return sizeof(*this) + key_yaw_.capacity() * sizeof(KeyYaw); }

 private:
  struct KeyYaw {
    float unwrapped = 0.f;  // the yaw at the key, unwrapped along the keys
    float wrapped = 0.f;    // the same in (-pi, pi]
    SlerpArc arc;           // the rotation's arc to the next key (slerp.hpp), made once
  };
  const RootPlace* remembered(Ticks t, const RootMotionMemo& memo) const noexcept;
  RootPlace at_key(std::size_t k) const noexcept;
  glm::vec3 ground(const glm::vec4& p) const noexcept;

  std::span<const Keyframe> keys_;
  std::vector<KeyYaw> key_yaw_;   // per key
  glm::mat4 parent_{1.f};
  glm::vec3 up_{0.f, 1.f, 0.f};
  // parent_'s rotation, decomposed once, after the shortest turn of up onto +Y: the yaw is its
  // twist about +Y.
  glm::quat parent_rotation_{1.f, 0.f, 0.f, 0.f};
  RootPlace first_, last_;                         // at and before the first key, at and after the last
  RootPlace start_;                                // at time 0, for since_start
};

}  // namespace marrow
