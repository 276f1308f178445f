// MotionMatcher (model/motion_matcher.hpp): the controller's frame, in the header's steps.
#include "marrow/model/motion_matcher.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>


namespace marrow {

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kLn2 = 0.69314718056f;

glm::vec3 ground(const glm::vec3& v) { return {v.x, 0.f, v.z}; }

// An angle in [-pi, pi).
float wrap(float a) { return a - 2.f * kPi * std::floor((a + kPi) / (2.f * kPi)); }

// The direction of yaw (0 = +Z, pi/2 = +X) and back.
glm::vec3 direction(float yaw) { return {std::sin(yaw), 0.f, std::cos(yaw)}; }
float yaw_of(const glm::vec3& d) { return std::atan2(d.x, d.z); }

// World to the character frame (motion_database.cpp's to_character): x = the character's left.
glm::vec3 to_character(float facing, const glm::vec3& v) {
  const glm::vec3 f = direction(facing);
  return {v.x * f.z - v.z * f.x, v.y, glm::dot(v, f)};
}

// Holden's critically damped springs (header, step 2): y = 2 ln2 / halflife.
float spring_y(float halflife) { return 2.f * kLn2 / halflife; }

// e = exp(-y dt), passed in: the trajectory's times are fixed, so its factors are computed once;
// so are 1/y and 1/y^2 (`inverse`), which the position's form divides by.
void velocity_spring(glm::vec3& p, glm::vec3& v, glm::vec3& a, const glm::vec3& goal, float y, const glm::vec2& inverse, float dt,
                     float e) {
  const glm::vec3 j0 = v - goal;
  const glm::vec3 j1 = a + j0 * y;
  const float iy = inverse.x, iy2 = inverse.y;
  p += e * ((-j1) * iy2 + (-j0 - j1 * dt) * iy) + j1 * iy2 + j0 * iy + goal * dt;
  v = e * (j0 + j1 * dt) + goal;
  a = e * (a - j1 * y * dt);
}

void value_spring(float& x, float& v, float goal, float y, float dt, float e) {
  const float j0 = x - goal;
  const float j1 = v + j0 * y;
  x = e * (j0 + j1 * dt) + goal;
  v = e * (v - j1 * y * dt);
}

// rotateY(angle) * v, given (cos, sin) of the angle; from the character frame to the world
// with angle = facing.
glm::vec3 rotate_y(const glm::vec2& turn, const glm::vec3& v) {
  const float c = turn.x, s = turn.y;
  return {c * v.x + s * v.z, v.y, c * v.z - s * v.x};
}
glm::vec2 turn_of(float angle) { return {std::cos(angle), std::sin(angle)}; }
glm::vec3 rotate_y(float angle, const glm::vec3& v) { return rotate_y(turn_of(angle), v); }

// The turn by a + b from the turns by a and b.
glm::vec2 turn_sum(const glm::vec2& a, const glm::vec2& b) { return {a.x * b.x - a.y * b.y, a.y * b.x + a.x * b.y}; }

// Model to world: translate(position) * rotateY(yaw), given turn_of(yaw).
glm::mat4 character_matrix(const glm::vec3& position, const glm::vec2& turn) {
  const float c = turn.x, s = turn.y;
  return glm::mat4(glm::vec4(c, 0.f, -s, 0.f), glm::vec4(0.f, 1.f, 0.f, 0.f), glm::vec4(s, 0.f, c, 0.f), glm::vec4(position, 1.f));
}

// The part of a difference a damper closes in dt.
float damp_part(float halflife, float dt) { return 1.f - std::exp(-kLn2 * dt / halflife); }

void check_option(float value, const char* name, bool zero_ok = false) {
  if (!std::isfinite(value) || value < 0.f || (!zero_ok && value == 0.f))
    throw std::invalid_argument(std::string("MotionMatcher: option ") + name + " = " + std::to_string(value) + " is not a " +
                                (zero_ok ? "non-negative" : "positive") + " finite number");
}

}  // namespace

MotionMatcher::MotionMatcher(const MotionClips& clips, const MotionMatcherOptions& options)
    : clips_(clips), db_(clips.database()), options_(options), animator_(clips.in_place()) {
  check_option(options.position_halflife, "position_halflife");
  check_option(options.rotation_halflife, "rotation_halflife");
  check_option(options.search_interval, "search_interval");
  check_option(options.sharp_velocity, "sharp_velocity");
  check_option(options.sharp_turn, "sharp_turn");
  check_option(options.adjust_position_halflife, "adjust_position_halflife");
  check_option(options.adjust_rotation_halflife, "adjust_rotation_halflife");
  check_option(options.adjust_max_ratio, "adjust_max_ratio", true);
  check_option(options.max_distance, "max_distance");
  check_option(options.unlock_radius, "unlock_radius");
  check_option(options.release_time, "release_time");
  if (!(options.synchronization >= 0.f && options.synchronization <= 1.f))
    throw std::invalid_argument("MotionMatcher: option synchronization = " + std::to_string(options.synchronization) + " is not in [0, 1]");
  if (options.blend < Ticks{0}) throw std::invalid_argument("MotionMatcher: option blend is negative");
  const Model& model = clips.model();
  animator_.enable_inertialization();
  position_y_ = spring_y(options.position_halflife), rotation_y_ = spring_y(options.rotation_halflife);
  position_inverse_ = {1.f / position_y_, 1.f / (position_y_ * position_y_)};
  for (std::size_t k = 0; k < 3; ++k) {
    const auto t = static_cast<float>(kMotionFutureFrames[k] / db_.rate());
    future_[k] = {t, std::exp(-position_y_ * t), std::exp(-rotation_y_ * t)};
  }
  for (std::size_t f = 0; f < 2; ++f) {
    const std::array<int, 3> leg = clips.leg(f);
    feet_[f].chain = animator_.add_two_bone_ik(model.nodes[static_cast<std::size_t>(leg[0])].name,
                                               model.nodes[static_cast<std::size_t>(leg[1])].name,
                                               model.nodes[static_cast<std::size_t>(leg[2])].name);
  }
  reset(0, glm::vec3(0.f), 0.f);
}

void MotionMatcher::reset(std::size_t row, const glm::vec3& position, float yaw) {
  if (row >= db_.size()) throw std::out_of_range("MotionMatcher::reset: row " + std::to_string(row) + " of " + std::to_string(db_.size()));
  if (!std::isfinite(position.x) || !std::isfinite(position.z) || !std::isfinite(yaw))
    throw std::invalid_argument("MotionMatcher::reset: a non-finite position or yaw");
  const MotionRange& range = db_.range_of(row);
  range_ = static_cast<std::size_t>(&range - db_.ranges().data());
  row_ = row;
  beyond_ = false;
  for (Foot& foot : feet_) {
    foot.locked = foot.contact = false, foot.weight = 0.f;
    animator_.set_two_bone_ik(foot.chain, glm::vec3(0.f), 0.f);
  }
  animator_.play(clips_.animation(range_), {.loop = LoopMode::Once, .start = db_.time_of(row)});
  position_ = ground(position);
  yaw_ = yaw;
  turn_ = turn_of(yaw_);
  world_ = character_matrix(position_, turn_);
  pose_facing_ = facing_of_pose(pose_turn_);
  sim_position_ = position_, sim_velocity_ = glm::vec3(0.f), sim_acceleration_ = glm::vec3(0.f);
  sim_yaw_ = yaw_ + pose_facing_, sim_angular_velocity_ = 0.f;
  desired_velocity_ = searched_velocity_ = glm::vec3(0.f);
  desired_yaw_ = searched_yaw_ = sim_yaw_;
  stepped_position_ = sim_position_;
  timer_ = 0.f;  // the first update searches
  searched_ = switched_ = false;
}

void MotionMatcher::update(float dt, const MotionInput& input) {
  if (!(dt > 0.f) || !std::isfinite(dt)) throw std::invalid_argument("MotionMatcher::update: dt " + std::to_string(dt) + " is not positive");
  const auto finite = [](const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.z); };  // y is ignored
  if (!finite(input.velocity)) throw std::invalid_argument("MotionMatcher::update: the input velocity is not finite");
  if (!finite(input.facing)) throw std::invalid_argument("MotionMatcher::update: the input facing is not finite");
  searched_ = switched_ = false;
  read_input(input);
  simulate(dt);
  if (search_due(dt)) search();
  const Ticks step = ticks_from_seconds(static_cast<double>(dt));
  const Ticks before = animator_.current_time();
  const std::size_t next = row_at(before + step);  // the row this frame shows, unless the clip ends
  if (options_.foot_lock) lock_feet(dt, next);
  animator_.update(step);
  const Ticks now = animator_.current_time();
  move_character(dt, before, now);
  row_ = now == before + step ? next : row_at(now);
  const MotionRange& range = db_.ranges()[range_];
  beyond_ = row_ == range.first_row + range.rows - 1 && seconds_from_ticks(now) * db_.rate() > static_cast<double>(range.rows - 1) + 0.5;
  if (options_.foot_lock) {
    // A lock the IK could not hold ends: the foot is released from where it got to.
    for (Foot& foot : feet_)
      if (foot.locked && !animator_.two_bone_ik(foot.chain).reached) foot.release();
  }
}

void MotionMatcher::read_input(const MotionInput& input) {
  desired_velocity_ = ground(input.velocity);
  const glm::vec3 facing = ground(input.facing);
  // The desired yaw is kept within pi of the simulation's: the spring turns the short way.
  // (|facing| > 1e-6, |velocity| > 1e-3, compared squared.)
  const bool faced = glm::dot(facing, facing) > 1e-12f;
  if (faced || glm::dot(desired_velocity_, desired_velocity_) > 1e-6f) {
    // A game holds its input for frames on end: the angle of the same direction is kept.
    const glm::vec3& along = faced ? facing : desired_velocity_;
    if (along != input_direction_) input_direction_ = along, input_yaw_ = yaw_of(along);
    desired_yaw_ = sim_yaw_ + wrap(input_yaw_ - sim_yaw_);
  } else {
    desired_yaw_ = sim_yaw_ + wrap(desired_yaw_ - sim_yaw_);
  }
}

void MotionMatcher::simulate(float dt) {
  const StepFactors& f = factors(dt);
  velocity_spring(sim_position_, sim_velocity_, sim_acceleration_, desired_velocity_, position_y_, position_inverse_, dt, f.position_decay);
  value_spring(sim_yaw_, sim_angular_velocity_, desired_yaw_, rotation_y_, dt, f.rotation_decay);
  stepped_position_ = sim_position_;
}

// The same springs from the state step 2 left, over the future frames' times (only the position
// changes after it: move_character's synchronization).
void MotionMatcher::desired_trajectory(std::array<glm::vec3, 3>& positions, std::array<float, 3>& yaws) const noexcept {
  for (std::size_t k = 0; k < 3; ++k) {
    const float t = future_[k].time;
    glm::vec3 p = stepped_position_, v = sim_velocity_, a = sim_acceleration_;
    velocity_spring(p, v, a, desired_velocity_, position_y_, position_inverse_, t, future_[k].position_decay);
    float yaw = sim_yaw_, w = sim_angular_velocity_;
    value_spring(yaw, w, desired_yaw_, rotation_y_, t, future_[k].rotation_decay);
    positions[k] = p, yaws[k] = yaw;
  }
}

std::array<glm::vec3, 3> MotionMatcher::trajectory() const noexcept {
  std::array<glm::vec3, 3> positions;
  std::array<float, 3> yaws;
  desired_trajectory(positions, yaws);
  return positions;
}

bool MotionMatcher::search_due(float dt) {
  timer_ -= dt;
  const glm::vec3 change = desired_velocity_ - searched_velocity_;
  const bool sharp = glm::dot(change, change) > options_.sharp_velocity * options_.sharp_velocity ||
                     std::abs(wrap(desired_yaw_ - searched_yaw_)) > options_.sharp_turn;
  // (A microsecond's slack: six steps of 1/60 s sum to 0.1 s only up to rounding.)
  return timer_ <= 1e-6f || sharp || beyond_;
}

void MotionMatcher::search() {
  searched_ = true;
  ++searches_;
  timer_ = options_.search_interval;
  searched_velocity_ = desired_velocity_, searched_yaw_ = desired_yaw_;
  // The query: the played row's pose, the desired trajectory in the character frame.
  const std::span<const float> current = db_.row(row_);
  for (std::size_t c = 0; c < 15; ++c) query_[c] = current[c];
  std::array<glm::vec3, 3> trajectory;
  std::array<float, 3> trajectory_yaw;
  desired_trajectory(trajectory, trajectory_yaw);
  const float facing = yaw_ + pose_facing_;
  for (std::size_t k = 0; k < 3; ++k) {
    const glm::vec3 p = to_character(facing, trajectory[k] - position_);
    const glm::vec3 d = to_character(facing, direction(trajectory_yaw[k]));
    const float raw[4] = {p.x, p.z, d.x, d.z};
    const std::size_t columns[4] = {15 + 2 * k, 16 + 2 * k, 21 + 2 * k, 22 + 2 * k};
    for (std::size_t i = 0; i < 4; ++i) query_[columns[i]] = (raw[i] - db_.mean()[columns[i]]) * db_.scale()[columns[i]];
  }
  // The row played costs its trajectory's distance; past its clip's last candidate it must go.
  float current_cost = 0.f;
  for (std::size_t c = 15; c < kMotionFeatures; ++c) current_cost += (query_[c] - current[c]) * (query_[c] - current[c]);
  if (beyond_) current_cost = std::numeric_limits<float>::infinity();
  const MotionMatch best =
      db_.search(query_, {.row = row_, .frames = options_.exclude_frames, .range_end = options_.end_frames}, &scratch_);
  best_cost_ = best.cost;
  if (best.row == row_ || !(best.cost < current_cost)) return;
  // Switch: the best row's clip from its time, the pose's difference decaying over the blend.
  switched_ = true;
  ++switches_;
  const MotionRange& next = db_.range_of(best.row);
  range_ = static_cast<std::size_t>(&next - db_.ranges().data());
  row_ = best.row;
  beyond_ = false;
  animator_.play(clips_.animation(range_), {.fade = options_.blend, .transition = Transition::Inertialize, .loop = LoopMode::Once,
                                            .start = db_.time_of(best.row)});
}

void MotionMatcher::lock_feet(float dt, std::size_t row) {
  // world_ is still last frame's, where the feet were drawn; this frame's maps the targets.
  // The same for both feet: the character frame to the world (by yaw + the pose's facing) and
  // the world to the model (by -yaw).
  const glm::vec2 to_world = turn_sum(turn_, pose_turn_), to_model(turn_.x, -turn_.y);
  for (std::size_t f = 0; f < 2; ++f) {
    Foot& foot = feet_[f];
    const bool contact = clips_.contact(row, f);
    const glm::vec3 animated = position_ + rotate_y(to_world, clips_.foot_position(row, f));
    const glm::vec3 off = ground(foot.lock - animated);
    if (foot.locked && (!contact || glm::dot(off, off) > options_.unlock_radius * options_.unlock_radius)) foot.release();
    const bool starts = contact && !foot.contact;  // a lock begins only where a contact does (Holden)
    foot.contact = contact;
    if (starts) {
      // Held where it was drawn last frame.
      const glm::mat4& drawn = animator_.absolute_bone_transforms()[static_cast<std::size_t>(clips_.leg(f)[2])];
      foot.lock = glm::vec3(world_ * drawn[3]);
      foot.locked = true;
      foot.weight = 1.f;
    }
    if (!foot.locked && foot.weight > 0.f) {
      foot.released_for += dt;
      const float u = foot.released_for / options_.release_time;
      foot.weight = u < 1.f ? foot.released_weight * (1.f - u * u * (3.f - 2.f * u)) : 0.f;
    }
    animator_.set_two_bone_ik(foot.chain, rotate_y(to_model, foot.lock - position_), foot.weight);  // to the model
  }
}

void MotionMatcher::move_character(float dt, Ticks before, Ticks now) {
  // This frame's pose is drawn with the transform from before its root motion (header, step 6).
  world_ = character_matrix(position_, turn_);
  pose_facing_ = facing_of_pose(pose_turn_);
  // The clip's root motion over the step, and its yaw since time 0 before it (theta).
  const BakedRootMotion& path = clips_.root_motion(range_);
  const RootMotion from = path.at(before, root_cursor_), to = path.at(now, root_cursor_);
  const RootMotion delta{to.translation - from.translation, to.yaw - from.yaw};
  const float theta = from.yaw;
  const glm::vec3 step = rotate_y(yaw_ - theta, delta.translation);
  position_ += ground(step);
  yaw_ += delta.yaw;
  // Adjustment: toward the simulation, at most a part of this frame's own motion.
  glm::vec3 pull = (sim_position_ - position_) * factors(dt).adjust_position;
  const float most = options_.adjust_max_ratio * glm::length(ground(step));
  if (const float pull2 = glm::dot(pull, pull); pull2 > most * most) pull *= most / std::sqrt(pull2);
  position_ += ground(pull);
  float turn = wrap(sim_yaw_ - (yaw_ + pose_facing_)) * factors(dt).adjust_rotation;
  const float most_turn = options_.adjust_max_ratio * std::abs(delta.yaw);
  turn = std::clamp(turn, -most_turn, most_turn);
  yaw_ = wrap(yaw_ + turn);
  turn_ = turn_of(yaw_);
  // Clamping: never farther than max_distance from the simulation.
  const glm::vec3 gap = ground(position_ - sim_position_);
  if (const float gap2 = glm::dot(gap, gap); gap2 > options_.max_distance * options_.max_distance)
    position_ = sim_position_ + gap * (options_.max_distance / std::sqrt(gap2));
  // Synchronization: the simulation pulled toward the character.
  sim_position_ += (position_ - sim_position_) * options_.synchronization;
}

// A game's frames mostly share one dt: the exponentials of a dt are taken once, for the same
// values bit for bit.
const MotionMatcher::StepFactors& MotionMatcher::factors(float dt) {
  if (dt == steps_.dt) return steps_;
  steps_ = StepFactors{.dt = dt,
                       .position_decay = std::exp(-position_y_ * dt),
                       .rotation_decay = std::exp(-rotation_y_ * dt),
                       .adjust_position = damp_part(options_.adjust_position_halflife, dt),
                       .adjust_rotation = damp_part(options_.adjust_rotation_halflife, dt)};
  return steps_;
}

std::size_t MotionMatcher::row_at(Ticks time) const {
  const MotionRange& range = db_.ranges()[range_];
  const double frame = std::floor(seconds_from_ticks(time) * db_.rate() + 0.5);
  const auto index = static_cast<std::size_t>(std::max(0.0, frame));
  return range.first_row + std::min(index, range.rows - 1);
}

float MotionMatcher::facing_of_pose(glm::vec2& turn) const {
  const glm::mat4& hips = animator_.absolute_bone_transforms()[static_cast<std::size_t>(clips_.hips())];
  // The hips' matrix turns the forward as their rotation does (up to a positive scale).
  const glm::vec3 f = ground(glm::mat3(hips) * clips_.hips_forward());
  const float length = glm::length(f);
  if (!(length > 1e-6f)) {
    turn = {1.f, 0.f};
    return 0.f;
  }
  turn = glm::vec2(f.z, f.x) / length;  // (cos, sin) of the angle, without them
  return yaw_of(f);
}

}  // namespace marrow
