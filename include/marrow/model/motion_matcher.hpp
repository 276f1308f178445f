#pragma once
// The motion-matching controller (MM4, MM6, MM7; issue 29), after Holden's open demo
// (orangeduck/Motion-Matching): one MotionMatcher per character searches a MotionDatabase
// (motion_database.hpp) a few times a second and plays on from the frame it finds.
//
// MotionClips (built once, shared by every character): the database's clips gathered into one
// model of the rig, so that one Animator plays them all and inertializes between them. Each clip
// is moved rigidly so that at its time 0 the hips stand over the model's origin facing +Z (the
// database's facing: the rig's forward turned with the hips), and the motion of the hips'
// animated ancestors is folded into the hips (BVH files carry the travel in either). Each clip's
// root motion (R1 on the hips, yaw included) is then baked once: its offset at every hips key
// (root_motion(range)), and an in-place copy of the clips (in_place()) whose hips keys have that
// offset taken out. Every in-place pose keeps the hips over the origin facing about +Z: the
// Animator's inertializer, which works on local poses, sees no offset between clips where the
// character itself stands, and no character samples, blends or takes out root motion a frame.
//
// The character frame is the database's: origin the hips on the ground, facing the rig's forward
// turned with the hips; z ahead, y up, x to the character's left.
//
// A frame, MotionMatcher::update(dt, input), in order:
//  1. Input: a desired velocity v_d (world, on the ground, m/s) and facing (a ground direction;
//     zero: along v_d when |v_d| > 1 mm/s, else the last one), as a yaw y_d.
//  2. The simulation, critically damped springs (Holden's exact forms), halflife h, y = 2 ln2 / h:
//       position (velocity v, acceleration a, toward v_d):
//         j0 = v - v_d, j1 = a + j0 y, e = exp(-y dt)
//         p += e (-j1/y^2 + (-j0 - j1 dt)/y) + j1/y^2 + j0/y + v_d dt
//         v = e (j0 + j1 dt) + v_d,  a = e (a - j1 y dt)
//       yaw (angular velocity w, toward y_d taken within pi of the yaw):
//         j0 = yaw - y_d, j1 = w + j0 y;  yaw = e (j0 + j1 dt) + y_d,  w = e (w - j1 y dt)
//     The desired trajectory is the same closed forms run from the new state over the times of
//     the database's +20, +40, +60 frames: positions and facings, expressed in the character
//     frame (relative to the character's position, turned by minus its facing).
//  3. A search runs when the timer (search_interval, less 1 us of rounding) has run out, when
//     the input differs from the input of the last search by more than sharp_velocity (m/s) or
//     sharp_turn (radians of desired facing), or when the clip plays past its last candidate
//     row (its last 60 frames: row() stays that row). The query: the
//     normalized features of the row played (its pose: feet and hips, columns 0-14, as Holden
//     does), with columns 15-26 replaced by the desired trajectory normalized like
//     MotionDatabase::normalize ((raw - mean) * scale). The search excludes the rows of the
//     played clip within exclude_frames of the row played and the last end_frames rows of every
//     clip (MotionExclusion: a switch leaves room to play on, Holden's ignore_range_end).
//  4. It switches when the best row is another row and costs less than the row played (the
//     query's squared distance to it; +inf past the clip's last candidate): the Animator plays
//     the best row's clip from its time with an inertialized transition over `blend`.
//  5. Foot lock (option, MM6), then the Animator's update(dt) of the in-place clip, then root
//     motion.
//  6. The character's transform M = translate(position) * rotateY(yaw) (model to world) follows
//     the played clip's baked root motion (MotionClips::root_motion, baked_root_motion.hpp: R1's
//     offsets at the hips keys, linear between): with from and to its offsets at the clip's
//     times before and after the update, delta = to - from,
//       position += rotateY(yaw - from.yaw) * delta.translation,  yaw += delta.yaw.
//     Then it is pulled toward the simulation (Holden's "adjustment"): by the part
//     1 - exp(-ln2 dt / halflife) of the difference, at most adjust_max_ratio times this frame's
//     root motion, and then clamped within max_distance of the simulated position; the
//     simulation may be pulled toward the character (synchronization, 0: never, 1: onto it).
//     A frame's pose is drawn with the transform from before its own root motion (world()): the
//     foot lock's IK targets, which the Animator needs before update() (it runs IK inside it),
//     then map to the world exactly. The character trails its root motion by one frame.
//  7. Foot lock (MM6): a foot is in contact at a row when its height and speed (the database's
//     raw foot features) are both at or below the database's contact_quantile of all feet's
//     heights and speeds. Where a contact starts (the row of the coming frame in contact, the
//     one before not) the foot is held where it was drawn last frame (two-bone IK upper leg ->
//     lower leg -> foot, weight 1, the target mapped by the inverse of this frame's world());
//     the lock ends when the contact ends, when the foot's animated place (the row's features at
//     the character) is farther than unlock_radius, or when the IK did not reach the target;
//     then the IK weight eases from where it was to 0 over release_time (smoothstep: w0 (1 - 3u^2
//     + 2u^3), u the time since the release over release_time; the target kept), so the foot
//     returns to its animation smoothly and the IK stops at a known time.
//
// Determinism (MM7): the same clips, options, reset and inputs give the same rows, transforms and
// poses, bit for bit. Invariance (MM4): turning and moving the world (the start and the inputs)
// leaves the rows searched and switched to the same (the query is in the character frame).
//
// Allocation: after the first update (which makes the Animator's scratch, animator.hpp),
// update() allocates nothing, switches and every clip's first play included; the search uses a
// kept MotionSearchScratch.
//
//   const MotionDatabase db(models);
//   const MotionClips clips(db, models);              // once
//   MotionMatcher character(clips, {.foot_lock = true});
//   character.reset(0, {0, 0, 0}, 0.f);
//   character.update(1.f / 60.f, {.velocity = {0, 0, 1.4f}});   // each frame
//   draw(character.world() * character.animator().absolute_bone_transforms()[i]);
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/animator.hpp"
#include "marrow/model/baked_root_motion.hpp"
#include "marrow/model/compiled_model.hpp"
#include "marrow/model/model.hpp"
#include "marrow/model/motion_database.hpp"

namespace marrow {

struct MotionClipsOptions {
  // The joints, as MotionDatabaseOptions names them (empty: the humanoid map of the first
  // model); the lower legs are the foot lock's IK chains.
  std::string hips{}, left_foot{}, right_foot{}, left_upper_leg{}, right_upper_leg{};
  std::string left_lower_leg{}, right_lower_leg{};
  float contact_quantile = 0.4f;  // (0, 1): contact thresholds, quantiles of feet heights and speeds
};

class MotionClips {
 public:
  // `models` are the database's (the same list, in the same order). A mirrored range (MM5) gets
  // its clip mirrored as the database mirrored it (motion_database.hpp), so it plays what its
  // rows describe. Keeps a reference to the
  // database, which must outlive it. Throws std::invalid_argument naming the model, clip or
  // joint at fault (a model of another rig, a clip with no hips track, a live retarget clip).
  MotionClips(const MotionDatabase& database, std::span<const Model* const> models, const MotionClipsOptions& options = {});
  // The clips of a model that is already gathered and holds its database (model.motion_database,
  // as gathered_model() makes it and `marrow match build` writes it): nothing is moved again;
  // range k plays animation ranges()[k].animation. Keeps the database alive. Throws
  // std::invalid_argument for a model without a database or one validate(MotionDatabase, Model)
  // refuses, and as the other constructor does.
  explicit MotionClips(const Model& gathered, const MotionClipsOptions& options = {});

  // model() holding the database with its ranges renamed to model()'s animations (model 0),
  // as motion_database: what a file needs to make these clips again (the constructor above).
  Model gathered_model() const;

  const MotionDatabase& database() const noexcept { return db_; }
  const Model& model() const noexcept { return *model_; }
  const std::shared_ptr<const CompiledModel>& compiled() const noexcept { return compiled_; }
  // The model's animation playing database range `range` (-1 for a range without rows).
  int animation(std::size_t range) const { return animation_of_range_.at(range); }
  // The same clips in place, as the matcher plays them: each hips key has R1's offset at its
  // time taken out (the pose Animator::enable_root_motion({hips, yaw}) shows at that time), and
  // root_motion(range) holds those offsets (baked_root_motion.hpp). Made once, here. It plays
  // keys: a compressed model's clips play decompressed (compress_model_clips keeps their keys).
  const std::shared_ptr<const CompiledModel>& in_place() const noexcept { return in_place_; }
  const BakedRootMotion& root_motion(std::size_t range) const { return root_motion_.at(range); }

  // Scene nodes of the model: hips, then per foot (0 left, 1 right) the leg's three joints.
  int hips() const noexcept { return hips_; }
  std::array<int, 3> leg(std::size_t foot) const { return legs_.at(foot); }
  // The rig's forward in the hips' frame (the database's).
  const glm::vec3& hips_forward() const noexcept { return hips_forward_; }

  // Foot `foot` of row `row`: in contact, and its position in the row's character frame.
  bool contact(std::size_t row, std::size_t foot) const { return contacts_.at(2 * row + foot) != 0; }
  glm::vec3 foot_position(std::size_t row, std::size_t foot) const;
  float contact_height() const noexcept { return contact_height_; }  // m above the ground
  float contact_speed() const noexcept { return contact_speed_; }    // m/s

 private:
  void finish(const MotionClipsOptions& options);
  void bake_root_motion();

  std::shared_ptr<const MotionDatabase> kept_db_;  // a gathered model's (null otherwise)
  const MotionDatabase& db_;
  std::unique_ptr<Model> model_;  // kept in place: the compiled model refers into it
  std::shared_ptr<const CompiledModel> compiled_;
  std::unique_ptr<Model> in_place_model_;  // as model_, for in_place_
  std::shared_ptr<const CompiledModel> in_place_;
  std::vector<BakedRootMotion> root_motion_;  // per range (empty for a range without rows)
  std::vector<int> animation_of_range_;
  int hips_ = -1;
  std::array<std::array<int, 3>, 2> legs_{};
  glm::vec3 hips_forward_{0.f, 0.f, 1.f};
  std::vector<std::uint8_t> contacts_;  // 2 per row
  std::array<float, 6> foot_unscale_{};  // 1 / the feet positions' scales (0 for 0): features to metres
  float contact_height_ = 0.f, contact_speed_ = 0.f;
};

struct MotionInput {
  glm::vec3 velocity{0.f};  // desired, world, on the ground (y ignored), m/s
  glm::vec3 facing{0.f};    // desired facing direction on the ground; zero: along the velocity
};

struct MotionMatcherOptions {
  float position_halflife = 0.27f;     // s: the simulation's velocity spring
  float rotation_halflife = 0.27f;     // s: the simulation's yaw spring
  float search_interval = 0.1f;        // s between searches
  float sharp_velocity = 0.5f;         // m/s of input change since the last search: search at once
  float sharp_turn = 0.5f;             // radians of desired facing change since the last search
  std::size_t exclude_frames = 20;     // around the row played
  std::size_t end_frames = 20;         // a switch leaves at least this many candidate rows to play
  Ticks blend = ticks_from_seconds(0.2);  // the inertialized transition
  float adjust_position_halflife = 0.1f;  // s: the character pulled toward the simulation
  float adjust_rotation_halflife = 0.2f;
  float adjust_max_ratio = 0.5f;       // the pull's step at most this times the frame's root motion
  float max_distance = 0.15f;          // m: the character kept this close to the simulation
  float synchronization = 0.f;         // [0, 1]: the simulation pulled onto the character
  bool foot_lock = false;              // MM6
  float unlock_radius = 0.2f;          // m between the held foot and its animated place
  float release_time = 0.15f;          // s: the IK weight's ease to 0 after a release
};

class MotionMatcher {
 public:
  // Makes the character's Animator from clips.in_place() with inertialization enabled, and
  // resets to row 0 at the origin facing +Z. Keeps a reference to clips. Throws
  // std::invalid_argument naming a non-finite or non-positive option.
  explicit MotionMatcher(const MotionClips& clips, const MotionMatcherOptions& options = {});

  // Plays `row` at once with the character at `position` (on the ground) facing `yaw` (radians
  // about +Y, 0 = +Z); the simulation starts there at rest; the next update searches.
  void reset(std::size_t row, const glm::vec3& position, float yaw);
  // One frame (dt > 0 s): the steps of the header. Throws std::invalid_argument for a dt that is
  // not a positive finite number, or an input velocity or facing with a non-finite x or z.
  void update(float dt, const MotionInput& input);

  // The row played (the frame of the pose shown, in its clip), and this frame's decisions.
  std::size_t row() const noexcept { return row_; }
  bool searched() const noexcept { return searched_; }
  bool switched() const noexcept { return switched_; }
  std::size_t searches() const noexcept { return searches_; }
  std::size_t switches() const noexcept { return switches_; }
  // The last search's query (normalized) and the cost of its best row.
  const std::array<float, kMotionFeatures>& query() const noexcept { return query_; }
  float best_cost() const noexcept { return best_cost_; }

  // The character after this frame's root motion, and the transform this frame's pose is drawn
  // with (model to world).
  const glm::vec3& position() const noexcept { return position_; }
  float yaw() const noexcept { return yaw_; }
  const glm::mat4& world() const noexcept { return world_; }
  // The simulation, and this frame's desired trajectory (world) at +20, +40, +60 frames.
  const glm::vec3& simulation_position() const noexcept { return sim_position_; }
  float simulation_yaw() const noexcept { return sim_yaw_; }
  std::array<glm::vec3, 3> trajectory() const noexcept;

  // Foot lock: the foot (0 left, 1 right) is held, and where (world).
  bool foot_locked(std::size_t foot) const { return feet_.at(foot).locked; }
  const glm::vec3& foot_lock_position(std::size_t foot) const { return feet_.at(foot).lock; }
  float foot_lock_weight(std::size_t foot) const { return feet_.at(foot).weight; }

  const Animator& animator() const noexcept { return animator_; }
  const MotionClips& clips() const noexcept { return clips_; }

 private:
  struct Foot {
    std::size_t chain = 0;
    bool locked = false, contact = false;
    float weight = 0.f;
    float released_weight = 0.f, released_for = 0.f;  // the weight at the release, and the time since
    glm::vec3 lock{0.f};
    void release() { locked = false, released_weight = weight, released_for = 0.f; }
  };
  // Per dt: the springs' decays exp(-y dt) and the dampers' parts (motion_matcher.cpp).
  struct StepFactors {
    float dt = 0.f;  // none yet: dt > 0
    float position_decay = 0.f, rotation_decay = 0.f;
    float adjust_position = 0.f, adjust_rotation = 0.f;
  };
  const StepFactors& factors(float dt);
  void read_input(const MotionInput& input);
  void simulate(float dt);
  // The desired trajectory (step 2) from the simulation as this frame's step left it.
  void desired_trajectory(std::array<glm::vec3, 3>& positions, std::array<float, 3>& yaws) const noexcept;
  bool search_due(float dt);
  void search();
  void lock_feet(float dt, std::size_t row);  // row: the one this frame shows
  void move_character(float dt, Ticks before, Ticks now);  // the clip's times before and after the update
  std::size_t row_at(Ticks time) const;
  float facing_of_pose(glm::vec2& turn) const;  // the shown pose's facing, in model space (radians about +Y), and its turn

  const MotionClips& clips_;
  const MotionDatabase& db_;
  MotionMatcherOptions options_;
  Animator animator_;
  MotionSearchScratch scratch_;
  std::size_t range_ = 0, row_ = 0;
  std::size_t root_cursor_ = 0;  // BakedRootMotion::at's, in the range played
  bool beyond_ = false;  // the clip plays past its last candidate row (row_ is that row)
  // Input: this frame's and the last search's.
  glm::vec3 desired_velocity_{0.f};
  float desired_yaw_ = 0.f;
  glm::vec3 input_direction_{0.f};  // the last direction read_input took an angle of, and the angle
  float input_yaw_ = 0.f;
  glm::vec3 searched_velocity_{0.f};
  float searched_yaw_ = 0.f;
  float timer_ = 0.f;
  bool searched_ = false, switched_ = false;
  std::size_t searches_ = 0, switches_ = 0;
  std::array<float, kMotionFeatures> query_{};
  float best_cost_ = 0.f;
  // The simulation.
  glm::vec3 sim_position_{0.f}, sim_velocity_{0.f}, sim_acceleration_{0.f};
  float sim_yaw_ = 0.f, sim_angular_velocity_ = 0.f;
  // The simulated position as step 2 left it (move_character may then pull it toward the
  // character): the desired trajectory starts there.
  glm::vec3 stepped_position_{0.f};
  // The springs' y = 2 ln2 / halflife, and 1/y and 1/y^2 of the position's.
  float position_y_ = 0.f, rotation_y_ = 0.f;
  glm::vec2 position_inverse_{0.f};
  StepFactors steps_;
  struct Future {
    float time = 0.f;  // s ahead
    float position_decay = 0.f, rotation_decay = 0.f;  // exp(-y t) of the position and yaw springs
  };
  std::array<Future, 3> future_{};
  float pose_facing_ = 0.f;  // facing_of_pose() of the pose shown
  glm::vec2 pose_turn_{1.f, 0.f};  // its (cos, sin)
  // The character.
  glm::vec3 position_{0.f};
  float yaw_ = 0.f;
  glm::vec2 turn_{1.f, 0.f};  // (cos, sin) of yaw_
  glm::mat4 world_{1.f};
  std::array<Foot, 2> feet_{};
};

}  // namespace marrow
