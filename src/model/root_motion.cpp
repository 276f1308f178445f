#include "marrow/model/root_motion.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/slerp.hpp"
#include "marrow/runtime/track_sampler.hpp"

#include "runtime/ik_geometry.hpp"

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

// The difference of two angles in (-pi, pi], put back into (-pi, pi].
float wrap(float angle) {
  if (angle > kPi) return angle - 2.f * kPi;
  return angle <= -kPi ? angle + 2.f * kPi : angle;
}

}  // namespace

RootMotionTrack::RootMotionTrack(std::span<const Keyframe> keys, const Trs& rest, const glm::mat4& parent_world, const glm::vec3& up)
    : keys_(keys), parent_(parent_world), up_(up) {
  // The yaw is the twist about +Y after the shortest turn of up onto +Y (none for +Y itself).
  const glm::quat to_y(detail::ik::shortest_arc(detail::ik::Vec(up), detail::ik::Vec(0, 1, 0), detail::ik::Vec(1, 0, 0)));
  parent_rotation_ = to_y * decompose_trs(parent_world).rotation;
  // Unwrapped yaw per key: each step between keys taken as the shorter turn, so whole turns
  // over a clip add up.
  key_yaw_.reserve(keys_.size());
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    const float yaw = yaw_of(parent_rotation_ * keys_[k].rotation);
    const float unwrapped = k == 0 ? yaw : key_yaw_.back().unwrapped + wrap(yaw - key_yaw_.back().wrapped);
    const SlerpArc arc = k + 1 < keys_.size() ? slerp_arc(keys_[k].rotation, keys_[k + 1].rotation) : SlerpArc{};
    key_yaw_.push_back({unwrapped, yaw, arc});
  }
  if (keys_.empty()) {
    const glm::vec4 p = parent_ * glm::vec4(rest.translation, 1.f);
    first_ = last_ = {ground(p), yaw_of(parent_rotation_ * rest.rotation)};
    return;
  }
  first_ = at_key(0);
  last_ = at_key(keys_.size() - 1);
  TrackCursor cursor;
  start_ = place(Ticks{0}, cursor);
}

// A scene point less its part along up: on the ground (for +Y exactly (x, 0, z)).
glm::vec3 RootMotionTrack::ground(const glm::vec4& p) const noexcept {
  const glm::vec3 v(p);
  return v - glm::dot(v, up_) * up_;
}

RootPlace RootMotionTrack::place(Ticks t, TrackCursor& cursor) const noexcept {
  // Held before the first key and after the last (P6): those two places are kept.
  if (keys_.empty() || t <= keys_.front().time) return first_;
  if (t >= keys_.back().time) return last_;
  const std::size_t k = find_key(keys_, t, cursor);
  const Keyframe& a = keys_[k];
  if (t == a.time) return at_key(k);
  // The track sampler's arithmetic for one joint (track_sampler.hpp): the translation's lerp
  // (a fused multiply-add, as its kernel), the rotation's shortest-arc slerp; its arc was made
  // with the track, and the yaw needs only its direction.
  const Keyframe& b = keys_[k + 1];
  const float p = key_fraction(a.time, b.time, t);
  const glm::vec3 translation{std::fma(b.translation.x - a.translation.x, p, a.translation.x),
                              std::fma(b.translation.y - a.translation.y, p, a.translation.y),
                              std::fma(b.translation.z - a.translation.z, p, a.translation.z)};
  const glm::vec4 at = parent_ * glm::vec4(translation, 1.f);
  // The turn from key k, the shorter way, on top of the key's unwrapped yaw.
  const float yaw = yaw_of(parent_rotation_ * slerp_direction(a.rotation, b.rotation, key_yaw_[k].arc, p));
  return {ground(at), key_yaw_[k].unwrapped + wrap(yaw - key_yaw_[k].wrapped)};
}

RootPlace RootMotionTrack::at_key(std::size_t k) const noexcept {
  const glm::vec4 at = parent_ * glm::vec4(keys_[k].translation, 1.f);
  return {ground(at), key_yaw_[k].unwrapped};
}

const RootPlace* RootMotionTrack::remembered(Ticks t, const RootMotionMemo& memo) const noexcept {
  if (memo.track != this) return nullptr;
  for (std::uint8_t i = 0; i < memo.filled; ++i)
    if (memo.time[i] == t) return &memo.place[i];
  return nullptr;
}

RootPlace RootMotionTrack::place(Ticks t, RootMotionMemo& memo) const noexcept {
  if (const RootPlace* known = remembered(t, memo)) return *known;
  if (memo.track != this) {
    memo = RootMotionMemo{};
    memo.track = this;
  }
  const RootPlace out = place(t, memo.cursor);
  memo.time[memo.next] = t;
  memo.place[memo.next] = out;
  memo.filled = std::max<std::uint8_t>(memo.filled, memo.next + 1);
  memo.next ^= 1;
  return out;
}

RootMotion RootMotionTrack::along(const ClockStep& step, RootMotionMemo& memo) const noexcept {
  RootMotion out;
  if (keys_.empty()) return out;
  for (std::size_t r = 0; r < step.run_count; ++r) {
    const ClockRun& run = step.runs[r];
    if (run.round_trip || run.repeat <= 0) continue;  // there and back: no motion
    const auto repeat = static_cast<float>(run.repeat);
    const RootPlace from = place(run.from, memo), to = place(run.to, memo);
    out.translation += repeat * (to.position - from.position);
    out.yaw += repeat * (to.yaw - from.yaw);
  }
  return out;
}

RootMotion RootMotionTrack::since_start(Ticks t, const RootMotionMemo& memo) const noexcept {
  RootMotion out;
  if (keys_.empty()) return out;
  const RootPlace* known = remembered(t, memo);
  TrackCursor cursor;
  const RootPlace now = known != nullptr ? *known : place(t, cursor);
  out.translation = now.position - start_.position;
  out.yaw = now.yaw - start_.yaw;
  return out;
}

}  // namespace marrow
