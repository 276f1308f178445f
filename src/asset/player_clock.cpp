#include "marrow/asset/player_clock.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace marrow::asset {

PlayerClock::PlayerClock(float duration_seconds)
    : clock_(ticks_from_seconds(std::isfinite(duration_seconds) ? duration_seconds : 0.0), 1.f, LoopMode::Loop) {}

float PlayerClock::advance(float delta_seconds) {
  if (!std::isfinite(delta_seconds)) {
    throw std::invalid_argument("animation player: update delta " + std::to_string(delta_seconds) + " is not finite");
  }
  clock_.advance(ticks_from_seconds(delta_seconds));
  return time();
}

void PlayerClock::seek(float seconds) {
  if (!std::isfinite(seconds)) return;  // set_time_point evaluates it and reports the error
  clock_.seek(ticks_from_seconds(seconds));
}

void PlayerClock::set_rate(float rate) {
  if (!std::isfinite(rate)) throw std::invalid_argument("animation player: rate " + std::to_string(rate) + " is not finite");
  clock_.set_rate(rate);
}

void PlayerClock::set_loop_mode(LoopMode mode) {
  const Ticks at = clock_.time();
  clock_ = PlaybackClock(clock_.duration(), clock_.rate(), mode, at);
}

float PlayerClock::time() const noexcept { return static_cast<float>(seconds_from_ticks(clock_.time())); }

}  // namespace marrow::asset
