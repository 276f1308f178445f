#include "marrow/model/root_motion.hpp"

#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "marrow/runtime/track_sampler.hpp"

namespace marrow {

namespace {

constexpr float kPi = 3.14159265358979f;

// The twist of q about +Y (swing-twist split), in (-pi, pi].
float yaw_of(const glm::quat& q) {
  if (q.y == 0.f && q.w == 0.f) return 0.f;  // a half turn about a horizontal axis: no twist
  float yaw = 2.f * std::atan2(q.y, q.w);
  if (yaw > kPi) yaw -= 2.f * kPi;
  if (yaw <= -kPi) yaw += 2.f * kPi;
  return yaw;
}

float wrap(float angle) {
  angle = std::remainder(angle, 2.f * kPi);
  return angle <= -kPi ? angle + 2.f * kPi : angle;
}

}  // namespace

RootMotionTrack::RootMotionTrack(std::span<const Keyframe> keys, const Trs& rest, const glm::mat4& parent_world)
    : keys_(keys), rest_(rest), parent_(parent_world), parent_rotation_(decompose_trs(parent_world).rotation) {
  // Unwrapped yaw per key: each step between keys taken as the shorter turn, so whole turns
  // over a clip add up.
  unwrapped_yaw_.reserve(keys_.size());
  float previous = 0.f;
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    const float yaw = yaw_of(parent_rotation_ * keys_[k].rotation);
    unwrapped_yaw_.push_back(k == 0 ? yaw : unwrapped_yaw_.back() + wrap(yaw - previous));
    previous = yaw;
  }
  start_position_ = position(Ticks{0});
  start_yaw_ = yaw(Ticks{0});
}

glm::vec3 RootMotionTrack::position(Ticks t) const noexcept {
  const glm::vec3 local = keys_.empty() ? rest_.translation : sample_track(keys_, t).translation;
  const glm::vec4 p = parent_ * glm::vec4(local, 1.f);
  return {p.x, 0.f, p.z};
}

float RootMotionTrack::yaw(Ticks t) const noexcept {
  const glm::quat& parent = parent_rotation_;
  if (keys_.empty()) return yaw_of(parent * rest_.rotation);
  TrackCursor cursor;
  const std::size_t k = find_key(keys_, t, cursor);
  const float at_key = yaw_of(parent * keys_[k].rotation);
  return unwrapped_yaw_[k] + wrap(yaw_of(parent * sample_track(keys_, t, cursor).rotation) - at_key);
}

RootMotion RootMotionTrack::along(const ClockStep& step) const noexcept {
  RootMotion out;
  if (keys_.empty()) return out;
  for (std::size_t r = 0; r < step.run_count; ++r) {
    const ClockRun& run = step.runs[r];
    if (run.round_trip || run.repeat <= 0) continue;  // there and back: no motion
    const auto repeat = static_cast<float>(run.repeat);
    out.translation += repeat * (position(run.to) - position(run.from));
    out.yaw += repeat * (yaw(run.to) - yaw(run.from));
  }
  return out;
}

RootMotion RootMotionTrack::since_start(Ticks t) const noexcept {
  RootMotion out;
  if (keys_.empty()) return out;
  out.translation = position(t) - start_position_;
  out.yaw = yaw(t) - start_yaw_;
  return out;
}

}  // namespace marrow
