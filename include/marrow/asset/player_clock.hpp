#pragma once
// The clock of an asset-layer animation player (InstanceAnimationPlayer, GroupAnimationPlayer):
// the runtime's PlaybackClock (B5: loop, once, ping-pong; signed rate) in the float seconds
// this layer speaks, so an instance plays by delta like an Animator does.
#include "marrow/runtime/playback_clock.hpp"

namespace marrow::asset {

class PlayerClock {
 public:
  // Loop mode, rate 1, at 0.
  explicit PlayerClock(float duration_seconds);

  // Advances by delta_seconds * rate under the mode; returns the new time in seconds.
  float advance(float delta_seconds);
  // Jumps to t, put into range by the mode.
  void seek(float seconds);
  // std::invalid_argument for a rate that is not finite.
  void set_rate(float rate);
  void set_loop_mode(LoopMode mode);

  float time() const noexcept;
  float rate() const noexcept { return clock_.rate(); }
  LoopMode loop_mode() const noexcept { return clock_.mode(); }
  bool finished() const noexcept { return clock_.finished(); }

 private:
  PlaybackClock clock_;
};

}  // namespace marrow::asset
