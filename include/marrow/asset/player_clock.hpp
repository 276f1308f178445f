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

// What both asset-layer players (InstanceAnimationPlayer, GroupAnimationPlayer) share: posing at
// an absolute time or playing on by a delta through their own clock. Player::pose(seconds) poses.
template <class Player>
class ClockedPlayer {
 public:
  // Poses at that time (seconds; keys hold outside their range) and moves the clock there.
  void set_time_point(float seconds) {
    self().pose(seconds);
    clock_.seek(seconds);
  }
  // Plays on: advances the clock by delta_seconds times the rate under the loop mode (Loop by
  // default; a negative delta or rate plays backward; B5) and poses at the new time.
  // std::invalid_argument for a delta that is not finite.
  void update(float delta_seconds) { self().pose(clock_.advance(delta_seconds)); }
  void set_rate(float rate) { clock_.set_rate(rate); }  // std::invalid_argument if not finite
  void set_loop_mode(LoopMode mode) { clock_.set_loop_mode(mode); }
  float time() const noexcept { return clock_.time(); }  // seconds
  float rate() const noexcept { return clock_.rate(); }
  LoopMode loop_mode() const noexcept { return clock_.loop_mode(); }
  bool finished() const noexcept { return clock_.finished(); }  // Once: the end was reached

 protected:
  explicit ClockedPlayer(float duration_seconds) : clock_(duration_seconds) {}

 private:
  Player& self() { return static_cast<Player&>(*this); }
  PlayerClock clock_;
};

}  // namespace marrow::asset
