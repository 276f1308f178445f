#pragma once
// Inertialization (AG4; Bollo, "Inertialization: High-Performance Animation Transitions in Gears
// of War", GDC 2018): on a switch from an old pose A to a new pose B, B plays alone at once and
// the difference between them, with its velocity, decays to zero over the duration:
//
//   out(t) = offset_j(t) applied to B(t), per joint j, for 0 <= t < t1; out(t) = B(t) from t1 on.
//
// Per joint, two offset vectors, each component decaying on its own:
//   - translation: x0 = A_t(0) - B_t(0), added to B's translation;
//   - rotation: the modified Rodrigues parameters x0 = axis * tan(angle / 4) of the rotation
//     D = A_q(0) * inverse(B_q(0)), taken the shorter way round (D_w >= 0, so |x0| <= 1);
//     the rotation of parameters p is q(p) = ((1 - |p|^2), 2 p) / (1 + |p|^2) (w, then x y z),
//     which multiplies B's rotation on the left. Both ways are exact inverses without
//     trigonometry, so a frame costs a few multiplications per joint, eight joints at a time.
// Velocity: v0 = (x0 - x_prev) / dt, x_prev the same difference for A's previous frame against
// B(0) (the rotation's in the hemisphere of D), so both carry A's whole velocity.
//
// Each component x(t) is Bollo's quintic with t1 = the duration:
//   a0 = (-8 v0 t1 - 20 x0) / t1^2
//   A  = -(a0 t1^2 + 6 v0 t1 + 12 x0) / (2 t1^5)
//   B  =  (3 a0 t1^2 + 16 v0 t1 + 30 x0) / (2 t1^4)
//   C  = -(3 a0 t1^2 + 12 v0 t1 + 20 x0) / (2 t1^3)
//   x(t) = A t^5 + B t^4 + C t^3 + (a0 / 2) t^2 + v0 t + x0      for 0 <= t < t1, 0 after
// so x(0) = x0, x'(0) = v0, x''(0) = a0 (Bollo's choice, the acceleration that brings the
// offset down without a jerk at the switch), and x, x', x'' are all 0 at t1: the pose and its
// velocity are continuous at the switch and at the end, and the offset is gone exactly at the
// duration. Unlike Bollo's scalar along a fixed direction, every component carries its own
// velocity (no part of A's velocity is dropped), and no duration is shortened: a component
// moving towards zero fast may cross it before it settles. Scale is not inertialized (B's).
// A joint whose offsets are all below 1e-7 keeps B exactly, and so does every joint from t1 on.
//
//   InertializationState state(joints);                                   // allocates, once
//   InertializationSetupJob{.previous = a_prev, .current = a_now, .next = b_now, .dt = dt,
//                           .duration = 0.2s, .state = &state}.run();    // at the switch
//   InertializationJob{.state = &state, .pose = b_t, .elapsed = t, .output = out}.run();  // each frame
//
// Both jobs: no throw, no allocation; nothing written when validate() fails.
#include <cstddef>
#include <span>
#include <vector>

#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/local_pose.hpp"

namespace marrow {

// One switch's offsets, per joint. Made by the setup job; read by every frame of the transition.
class InertializationState {
 public:
  InertializationState() = default;
  explicit InertializationState(std::size_t joints) { resize(joints); }
  void resize(std::size_t joints);  // allocates
  std::size_t joint_count() const noexcept { return joints_.size(); }
  // The transition's end: the duration (0 before a setup).
  float end() const noexcept { return end_; }

  // One decaying scalar (the header's quintic); t1 = 0: none.
  struct Quintic {
    float x0 = 0.f, v0 = 0.f, a0 = 0.f, a = 0.f, b = 0.f, c = 0.f, t1 = 0.f;
    // x(t), 0 at and after t1.
    float at(float t) const noexcept;
  };
  // Per joint: the translation's x, y, z, then the rotation parameters'.
  struct Joint {
    Quintic translation[3], rotation[3];
    bool moves = false;
  };
  std::span<const Joint> joints() const noexcept { return joints_; }

  // The same eight joints at a time, for the frame. With a0 Bollo's, every coefficient is linear
  // in x0 and v0, and with u = t / t1 the quintic is
  //   x(t) = x0 * (1 - 10 u^2 + 20 u^3 - 15 u^4 + 4 u^5) + v0 * t * (1 - u)^4,
  // two weights the whole frame shares. Per block, per component (translation x y z, rotation
  // x y z): x0 and v0 per lane; per lane 1 when the joint moves.
  struct alignas(32) Block {  // 32: its rows load aligned (448 bytes a block)
    float c[6][2][8];
    float moves[8];
    bool any = false;
    bool all = false;         // every lane moves
    bool translates = false;  // a lane's translation offset is not 0 (most joints only turn)
  };
  std::span<const Block> blocks() const noexcept { return blocks_; }

 private:
  friend struct InertializationSetupJob;
  std::vector<Joint> joints_;
  std::vector<Block> blocks_;
  float end_ = 0.f;
};

// At the switch: the offsets of A (its previous and current frames) against B's current frame.
struct InertializationSetupJob {
  std::span<const TrsBlock> previous{};  // A(-dt)
  std::span<const TrsBlock> current{};   // A(0)
  std::span<const TrsBlock> next{};      // B(0)
  float dt = 0.f;                        // seconds between previous and current (> 0)
  float duration = 0.f;                  // seconds (> 0)
  InertializationState* state = nullptr; // sized for the joints: pose_block_count(joints) blocks each

  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

// Each frame of the transition: B(t) with the offsets at `elapsed` seconds since the switch.
// output may be pose (in place).
struct InertializationJob {
  const InertializationState* state = nullptr;
  std::span<const TrsBlock> pose{};      // B(t)
  float elapsed = 0.f;                   // seconds since the switch, >= 0
  std::span<TrsBlock> output{};

  JobStatus validate() const noexcept;
  bool run() const noexcept;
};

}  // namespace marrow
