// The motion-matching controller (MM4, MM6, MM7, model/motion_matcher.hpp) on the Bandai
// locomotion set of the shared assets, loaded in metres: a scripted gamepad (walk, turn, stop,
// run, a U-turn, a strafe) drives one character for 12 s at 60 Hz.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "bandai_test_util.hpp"
#include "marrow/model/motion_matcher.hpp"

namespace marrow {
namespace {

#define NEED_BANDAI_METRES()                                                                            \
  if (test::bandai_locomotion(0.01f).empty()) GTEST_SKIP() << "shared assets not found at " << test::kBandaiFolder

const MotionClips& matcher_clips() {
  static const std::vector<const Model*> models = test::bandai_locomotion(0.01f);
  static const MotionDatabase db(models);
  static const MotionClips clips(db, models);
  return clips;
}

constexpr float kMatcherDt = 1.f / 60.f;
constexpr int kMatcherFrames = 720;

glm::vec3 heading(float degrees) {
  const float a = glm::radians(degrees);
  return {std::sin(a), 0.f, std::cos(a)};
}

// The gamepad at frame i, in the script's world.
MotionInput matcher_script(int i) {
  if (i < 120) return {.velocity = 1.4f * heading(0.f)};
  if (i < 300) return {.velocity = 1.4f * heading(45.f * static_cast<float>(i - 120) * kMatcherDt)};
  if (i < 360) return {};
  if (i < 480) return {.velocity = 3.5f * heading(-90.f)};
  if (i < 600) return {.velocity = 1.2f * heading(90.f)};
  return {.velocity = 1.f * heading(90.f), .facing = heading(0.f)};
}

struct MatcherWorld {
  float turn = 0.f;              // radians about +Y
  glm::vec3 shift{0.f};
  glm::vec3 operator()(const glm::vec3& v, float w) const {  // w = 1: a point, 0: a direction
    return glm::vec3(glm::rotate(glm::mat4(1.f), turn, glm::vec3(0.f, 1.f, 0.f)) * glm::vec4(v, 0.f)) + w * shift;
  }
};

struct MatcherFrame {
  std::size_t row = 0;
  bool searched = false, switched = false;
  std::array<float, kMotionFeatures> query{};
  glm::vec3 position{0.f};
};

std::vector<MatcherFrame> run_matcher(const MatcherWorld& world, const MotionMatcherOptions& options = {}) {
  MotionMatcher m(matcher_clips(), options);
  m.reset(matcher_clips().database().ranges()[0].first_row, world(glm::vec3(0.f), 1.f), world.turn);
  std::vector<MatcherFrame> frames;
  for (int i = 0; i < kMatcherFrames; ++i) {
    const MotionInput in = matcher_script(i);
    m.update(kMatcherDt, {.velocity = world(in.velocity, 0.f), .facing = world(in.facing, 0.f)});
    frames.push_back({m.row(), m.searched(), m.switched(), m.query(), m.position()});
  }
  return frames;
}

// MM1 with the clips' ends excluded too (what the matcher asks): the search finds brute force's
// row and cost, and never a row within range_end of its clip's last candidate.
TEST(MotionDatabase, MM1_RangeEndsAreExcludedByBothSearches) {
  NEED_BANDAI_METRES();
  const MotionDatabase& db = matcher_clips().database();
  MotionSearchScratch scratch;
  for (std::size_t r = 0; r < db.size(); r += 7) {
    const MotionExclusion exclude{.row = r, .frames = 20, .range_end = 20};
    const MotionMatch fast = db.search(db.row(r), exclude, &scratch), slow = db.brute_force(db.row(r), exclude);
    ASSERT_EQ(fast.row, slow.row) << r;
    ASSERT_EQ(fast.cost, slow.cost) << r;
    const MotionRange& range = db.range_of(fast.row);
    ASSERT_LT(fast.row + 20, range.first_row + range.rows) << r;
  }
}

TEST(MotionClips, MM4_EveryClipStartsOverTheOriginFacingZ) {
  NEED_BANDAI_METRES();
  const MotionClips& clips = matcher_clips();
  Animator animator(clips.compiled());
  int checked = 0;
  for (std::size_t r = 0; r < clips.database().ranges().size(); ++r) {
    if (clips.animation(r) < 0) continue;
    animator.play(clips.animation(r), {.loop = LoopMode::Once});
    const glm::mat4 hips = animator.absolute_bone_transforms()[static_cast<std::size_t>(clips.hips())];
    const glm::vec3 f = glm::mat3(hips) * clips.hips_forward();
    SCOPED_TRACE(clips.database().ranges()[r].name);
    EXPECT_NEAR(hips[3].x, 0.f, 1e-4f);
    EXPECT_NEAR(hips[3].z, 0.f, 1e-4f);
    EXPECT_GT(hips[3].y, 0.5f);  // metres: the hips ride about 0.9 m up
    EXPECT_NEAR(std::atan2(f.x, f.z), 0.f, 1e-4f);
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

// The matcher's root motion is baked (MotionClips::root_motion): at every hips key it is R1's
// offset, exactly, and the in-place clip shows R1's pose there. Between two keys (1/30 s apart
// here) the offset is their lerp and the pose the slerp of the in-place keys, where R1 takes the
// yaw of the slerped rotation: measured on the Bandai set, 1e-7 m and 0.97 mrad apart at most,
// and the poses' model matrices 1.4e-3 (a column, or metres). The bounds are about twice that: a
// bake that took the offset out wrongly misses by centimetres and tenths of a radian.
template <class Visit>
void visit_baked_keys(const MotionClips& clips, const Visit& visit) {
  Animator r1(clips.compiled()), in_place(clips.in_place());
  r1.enable_root_motion({.joint = clips.model().nodes[static_cast<std::size_t>(clips.hips())].name, .yaw = true});
  for (std::size_t r = 0; r < clips.database().ranges().size(); ++r) {
    if (clips.animation(r) < 0) continue;
    const BakedRootMotion& path = clips.root_motion(r);
    r1.play(clips.animation(r), {.loop = LoopMode::Once});
    in_place.play(clips.animation(r), {.loop = LoopMode::Once});
    std::size_t cursor = 0;
    for (std::size_t k = 0; k + 1 < path.times.size(); ++k) {
      for (const bool between : {false, true}) {
        const Ticks t = between ? path.times[k] + (path.times[k + 1] - path.times[k]) / 2 : path.times[k];
        r1.update(t, false), in_place.update(t, false);
        visit(r1, in_place, path.at(t, cursor), between);
      }
    }
  }
}

TEST(MotionClips, R1_TheBakedRootMotionIsR1sAtEveryHipsKeyAndWithinAHairBetween) {
  NEED_BANDAI_METRES();
  float far = 0.f, turned = 0.f;
  std::size_t keys = 0;
  visit_baked_keys(matcher_clips(), [&](const Animator& r1, const Animator&, const RootMotion& baked, bool between) {
    const RootMotion want = r1.root_motion_offset();
    if (!between) {
      ++keys;
      ASSERT_EQ(baked.translation, want.translation);
      ASSERT_EQ(baked.yaw, want.yaw);
      return;
    }
    far = std::max(far, glm::length(baked.translation - want.translation));
    turned = std::max(turned, std::abs(baked.yaw - want.yaw));
  });
  EXPECT_GT(keys, 3000u);
  EXPECT_LT(far, 1e-6f);     // m
  EXPECT_LT(turned, 2e-3f);  // rad
  std::printf("between keys: %.3g m, %.3g rad at most\n", static_cast<double>(far), static_cast<double>(turned));
}

TEST(MotionClips, R1_TheInPlaceClipsShowR1sPoseAtEveryHipsKeyAndWithinAHairBetween) {
  NEED_BANDAI_METRES();
  float at_keys = 0.f, between_keys = 0.f;
  visit_baked_keys(matcher_clips(), [&](const Animator& r1, const Animator& in_place, const RootMotion&, bool between) {
    const std::span<const glm::mat4> a = r1.absolute_bone_transforms(), b = in_place.absolute_bone_transforms();
    float worst = 0.f;
    for (std::size_t n = 0; n < a.size(); ++n)
      for (int c = 0; c < 4; ++c) worst = std::max(worst, glm::length(glm::vec3(a[n][c] - b[n][c])));
    (between ? between_keys : at_keys) = std::max(between ? between_keys : at_keys, worst);
  });
  EXPECT_LT(at_keys, 1e-5f);        // the round trip of the hips' local through its matrix
  EXPECT_LT(between_keys, 3e-3f);   // m (and rotation columns)
  std::printf("pose: %.3g at the keys, %.3g between\n", static_cast<double>(at_keys), static_cast<double>(between_keys));
}

// The character follows the gamepad: after two seconds' walk along +Z it is about 2.8 m on.
TEST(MotionMatcher, MM4_TheCharacterGoesWhereTheInputSays) {
  NEED_BANDAI_METRES();
  const std::vector<MatcherFrame> frames = run_matcher({});
  EXPECT_GT(frames[119].position.z, 2.0f);
  EXPECT_LT(std::abs(frames[119].position.x), 0.5f);
  // Running toward -X for two seconds (after a stop) covers several metres that way.
  EXPECT_LT(frames[479].position.x - frames[359].position.x, -4.f);
  std::size_t searches = 0, switches = 0;
  for (const MatcherFrame& f : frames) searches += f.searched, switches += f.switched;
  EXPECT_GE(searches, 110u);  // every 0.1 s at least
  EXPECT_GT(switches, 10u);
  EXPECT_LT(switches, searches);
  std::printf("MM4: %zu searches, %zu switches in %d frames\n", searches, switches, kMatcherFrames);
}

// MM4: the same script in a world turned by 2.1 rad and moved by (37, 0, -12): the same rows
// searched and switched to, every frame; the same queries (the character frame) within 1e-3.
TEST(MotionMatcher, MM4_TurningAndMovingTheWorldChangesNoChoice) {
  NEED_BANDAI_METRES();
  const MatcherWorld moved{2.1f, {37.f, 0.f, -12.f}};
  const std::vector<MatcherFrame> a = run_matcher({}), b = run_matcher(moved);
  std::size_t switches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(i);
    ASSERT_EQ(a[i].searched, b[i].searched);
    ASSERT_EQ(a[i].switched, b[i].switched);
    ASSERT_EQ(a[i].row, b[i].row);
    for (std::size_t c = 0; c < kMotionFeatures; ++c) ASSERT_NEAR(a[i].query[c], b[i].query[c], 1e-3f) << "column " << c;
    const glm::vec3 expected = moved(a[i].position, 1.f);
    ASSERT_NEAR(glm::distance(expected, b[i].position), 0.f, 1e-3f);
    switches += a[i].switched;
  }
  EXPECT_GT(switches, 10u);
}

// MM7: two characters fed the same script make the same rows, transforms and joint matrices,
// bit for bit, foot lock on (IK in the pose).
TEST(MotionMatcher, MM7_TheSameInputGivesTheSameOutputBitForBit) {
  NEED_BANDAI_METRES();
  const MotionClips& clips = matcher_clips();
  MotionMatcher a(clips, {.foot_lock = true}), b(clips, {.foot_lock = true});
  const std::size_t start = clips.database().ranges()[0].first_row;
  a.reset(start, {1.f, 0.f, 2.f}, 0.5f);
  b.reset(start, {1.f, 0.f, 2.f}, 0.5f);
  for (int i = 0; i < kMatcherFrames; ++i) {
    SCOPED_TRACE(i);
    a.update(kMatcherDt, matcher_script(i));
    b.update(kMatcherDt, matcher_script(i));
    ASSERT_EQ(a.row(), b.row());
    ASSERT_EQ(a.switched(), b.switched());
    ASSERT_EQ(0, std::memcmp(&a.position(), &b.position(), sizeof(glm::vec3)));
    ASSERT_EQ(0, std::memcmp(&a.world(), &b.world(), sizeof(glm::mat4)));
    const std::span<const glm::mat4> ja = a.animator().absolute_bone_transforms(), jb = b.animator().absolute_bone_transforms();
    ASSERT_EQ(ja.size(), jb.size());
    ASSERT_EQ(0, std::memcmp(ja.data(), jb.data(), ja.size_bytes()));
  }
  EXPECT_GT(a.switches(), 10u);
}

// MM6: while a foot is held (weight 1, the same lock as the frame before) it moves less than
// 1 mm in the world from frame to frame; without the lock the same feet slide more.
TEST(MotionMatcher, MM6_ALockedFootMovesLessThanAMillimetre) {
  NEED_BANDAI_METRES();
  const MotionClips& clips = matcher_clips();
  MotionMatcher locked(clips, {.foot_lock = true}), free(clips);
  const std::size_t start = clips.database().ranges()[0].first_row;
  locked.reset(start, glm::vec3(0.f), 0.f);
  free.reset(start, glm::vec3(0.f), 0.f);
  std::array<glm::vec3, 2> before{}, free_before{};
  std::array<bool, 2> held{};
  std::array<glm::vec3, 2> held_at{};
  int frames_held = 0;
  float worst = 0.f, worst_free = 0.f;
  for (int i = 0; i < kMatcherFrames; ++i) {
    locked.update(kMatcherDt, matcher_script(i));
    free.update(kMatcherDt, matcher_script(i));
    for (std::size_t f = 0; f < 2; ++f) {
      const auto foot = static_cast<std::size_t>(clips.leg(f)[2]);
      const glm::vec3 at = glm::vec3(locked.world() * locked.animator().absolute_bone_transforms()[foot][3]);
      const glm::vec3 free_at = glm::vec3(free.world() * free.animator().absolute_bone_transforms()[foot][3]);
      const bool now = locked.foot_locked(f) && locked.foot_lock_weight(f) == 1.f;
      if (now && held[f] && held_at[f] == locked.foot_lock_position(f)) {
        ++frames_held;
        worst = std::max(worst, glm::distance(at, before[f]));
        worst_free = std::max(worst_free, glm::distance(free_at, free_before[f]));
      }
      held[f] = now, held_at[f] = locked.foot_lock_position(f);
      before[f] = at, free_before[f] = free_at;
    }
  }
  EXPECT_GT(frames_held, 150);
  EXPECT_LT(worst, 1e-3f);
  EXPECT_GT(worst_free, 1e-3f);  // the lock is what holds them
  std::printf("MM6: %d frames held, worst step %.4f mm held, %.2f mm free\n", frames_held, 1e3f * worst, 1e3f * worst_free);
}

// MM6: a released foot's IK weight eases from its value at the release to exactly 0 over
// release_time, w0 (1 - 3u^2 + 2u^3): never rising, and the IK off once it is over.
TEST(MotionMatcher, MM6_AReleasedFootEasesBackToItsAnimationWithinTheReleaseTime) {
  NEED_BANDAI_METRES();
  const MotionClips& clips = matcher_clips();
  const MotionMatcherOptions options{.foot_lock = true, .release_time = 0.1f};
  MotionMatcher m(clips, options);
  m.reset(clips.database().ranges()[0].first_row, glm::vec3(0.f), 0.f);
  std::array<float, 2> from{}, since{};
  std::array<bool, 2> releasing{};
  int releases = 0, ended = 0;
  for (int i = 0; i < kMatcherFrames; ++i) {
    std::array<float, 2> before{m.foot_lock_weight(0), m.foot_lock_weight(1)};
    std::array<bool, 2> was_locked{m.foot_locked(0), m.foot_locked(1)};
    m.update(kMatcherDt, matcher_script(i));
    for (std::size_t f = 0; f < 2; ++f) {
      const float w = m.foot_lock_weight(f);
      if (m.foot_locked(f)) {
        releasing[f] = false;
        EXPECT_EQ(1.f, w);
        continue;
      }
      if ((was_locked[f] && before[f] > 0.f) || (!releasing[f] && w > 0.f)) {
        // Released in this frame's lock step (eased by this dt already), or after its IK missed
        // (eased from the next frame's lock step on), a lock that began in this frame included.
        releasing[f] = true, from[f] = was_locked[f] ? before[f] : 1.f, since[f] = w == from[f] ? -kMatcherDt : 0.f;
        ++releases;
      }
      if (!releasing[f]) {
        EXPECT_EQ(0.f, w) << "frame " << i;
        continue;
      }
      const bool first = since[f] < 0.f;
      since[f] = std::max(0.f, since[f] + kMatcherDt);
      const float u = since[f] / options.release_time;
      const float expected = u < 1.f ? from[f] * (1.f - u * u * (3.f - 2.f * u)) : 0.f;
      EXPECT_NEAR(expected, w, 1e-5f) << "frame " << i << " foot " << f;
      if (!first) {
        EXPECT_LE(w, before[f]);  // (a lock begun and lost in this frame rose to 1)
      }
      if (w == 0.f) {
        releasing[f] = false;
        ++ended;
        EXPECT_EQ(0.f, m.animator().two_bone_ik(f).weight);  // the chains were added left, right
      }
    }
  }
  EXPECT_GT(releases, 10);
  EXPECT_GT(ended, 10);
}


TEST(MotionClips, MM6_TheFeetsContactsAndPositionsDoNotDependOnTheSearchWeights) {
  NEED_BANDAI_METRES();
  // Weight 0 on the foot groups leaves them out of the search, not out of the foot lock.
  const std::vector<const Model*> models = test::bandai_locomotion(0.01f);
  const MotionDatabase unweighted(models, {.weights = {0.f, 0.f, 1.f, 1.f, 1.f}});
  const MotionClips clips(unweighted, models);
  const MotionClips& weighted = matcher_clips();
  EXPECT_NEAR(clips.contact_height(), weighted.contact_height(), 1e-5f);
  EXPECT_NEAR(clips.contact_speed(), weighted.contact_speed(), 1e-5f);
  EXPECT_GT(clips.contact_height(), 0.05f);
  std::size_t same = 0;
  for (std::size_t r = 0; r < unweighted.size(); ++r) {
    for (std::size_t f = 0; f < 2; ++f) {
      ASSERT_LT(glm::distance(clips.foot_position(r, f), weighted.foot_position(r, f)), 1e-4f) << "row " << r;
      same += clips.contact(r, f) == weighted.contact(r, f);
    }
  }
  EXPECT_GE(same, 2 * unweighted.size() * 99 / 100);  // thresholds equal up to float rounding
  // And the groups weighted 0 still count for nothing: feet 10 cm off cost what rounding through
  // the raw values costs (about 1e-14), where feet that counted would cost 0.1 or more.
  const std::size_t at = unweighted.size() / 2;
  std::array<float, kMotionFeatures> raw{};
  for (std::size_t c = 0; c < kMotionFeatures; ++c) raw[c] = unweighted.row(at)[c] / unweighted.scale()[c] + unweighted.mean()[c];
  for (std::size_t c = 0; c < 12; ++c) raw[c] += 0.1f;
  const MotionMatch found = unweighted.brute_force(unweighted.normalize(raw));
  EXPECT_LT(found.cost, 1e-9f);
}

// MM5: a database built with mirroring, its clips gathered with the mirrored ones.
const MotionClips& mirrored_matcher_clips() {
  static const std::vector<const Model*> models = test::bandai_locomotion(0.01f);
  static const MotionDatabase db(models, {.mirror = true});
  static const MotionClips clips(db, models);
  return clips;
}

// MM5: each mirrored clip plays the original mirrored across its starting plane (x = 0 once
// gathered: every clip starts over the origin facing +Z): its left foot where the original's
// right foot is with x negated, and so on, at every sampled time (up to the rounding of the
// mirrored keys).
// Every original clip of the mirrored database beside its mirrored clip, both posed every `step`
// frames: visit(original, mirrored, frame). Returns the frames visited; stops at a fatal failure.
template <class Visit>
std::size_t visit_mirrored_pairs(const MotionClips& clips, std::size_t step, const Visit& visit) {
  const std::span<const MotionRange> ranges = clips.database().ranges();
  const std::size_t half = ranges.size() / 2;
  Animator original(clips.compiled()), mirrored(clips.compiled());
  std::size_t frames = 0;
  for (std::size_t k = 0; k < half; ++k) {
    if (clips.animation(k) < 0) continue;
    EXPECT_TRUE(ranges[k + half].mirrored);
    SCOPED_TRACE(ranges[k + half].name);
    original.play(clips.animation(k), {.loop = LoopMode::Once});
    mirrored.play(clips.animation(k + half), {.loop = LoopMode::Once});
    for (std::size_t f = 0; f < ranges[k].frames; f += step, ++frames) {
      const Ticks t = ticks_from_seconds(static_cast<double>(f) / 60.0);
      original.update(t, false), mirrored.update(t, false);
      visit(original, mirrored, f);
      if (::testing::Test::HasFatalFailure()) return frames;
    }
  }
  return frames;
}

TEST(MotionClips, MM5_AMirroredClipPlaysTheOriginalMirrored) {
  NEED_BANDAI_METRES();
  const MotionClips& clips = mirrored_matcher_clips();
  const std::size_t frames = visit_mirrored_pairs(clips, 13, [&](const Animator& original, const Animator& mirrored, std::size_t f) {
    for (std::size_t side = 0; side < 2; ++side) {
      const auto a = static_cast<std::size_t>(clips.leg(side)[2]), b = static_cast<std::size_t>(clips.leg(1 - side)[2]);
      const glm::vec3 p(original.absolute_bone_transforms()[a][3]), q(mirrored.absolute_bone_transforms()[b][3]);
      ASSERT_NEAR(q.x, -p.x, 1e-4f) << f;
      ASSERT_NEAR(q.y, p.y, 1e-4f) << f;
      ASSERT_NEAR(q.z, p.z, 1e-4f) << f;
    }
  });
  EXPECT_GE(frames, 200u);
}

// MM5: a mirrored clip keys every joint below the hips with the rig's own offsets, as the
// original clips do. The Bandai rig's rest pose is not symmetric (its right bones point along -x
// where the left's point along +x), so each joint's correction takes the half turn that maps its
// mirror's children onto its own (motion_mirror.cpp). Without it the mirrored keys reversed those
// offsets and turned the limbs by half a turn, and every inertialized switch between an original
// and a mirrored clip swung a leg through the difference (foot sliding 319 cm/s on the zigzag).
TEST(MotionClips, MM5_AMirroredClipKeepsTheRigsOffsets) {
  NEED_BANDAI_METRES();
  const MotionClips& clips = mirrored_matcher_clips();
  const Model& model = clips.model();
  const std::size_t frames = visit_mirrored_pairs(clips, 29, [&](const Animator& original, const Animator& mirrored, std::size_t f) {
    const std::span<const glm::mat4> a = original.bone_transforms(), b = mirrored.bone_transforms();
    for (std::size_t n = static_cast<std::size_t>(clips.hips()) + 1; n < model.nodes.size(); ++n) {
      ASSERT_LT(glm::length(glm::vec3(a[n][3]) - glm::vec3(b[n][3])), 0.005f) << model.nodes[n].name << " at frame " << f;
    }
  });
  EXPECT_GE(frames, 40u);
}

// MM5: on a mirrored database the matcher switches to mirrored clips and plays them: the
// Animator plays the range's animation, and the character still follows the gamepad.
TEST(MotionMatcher, MM5_TheMatcherSwitchesToMirroredClips) {
  NEED_BANDAI_METRES();
  const MotionClips& clips = mirrored_matcher_clips();
  MotionMatcher m(clips);
  m.reset(clips.database().ranges()[0].first_row, glm::vec3(0.f), 0.f);
  std::size_t mirrored_frames = 0, mirrored_switches = 0;
  for (int i = 0; i < kMatcherFrames; ++i) {
    m.update(kMatcherDt, matcher_script(i));
    const std::size_t range = static_cast<std::size_t>(&clips.database().range_of(m.row()) - clips.database().ranges().data());
    ASSERT_EQ(m.animator().current_animation(), clips.animation(range)) << i;
    if (clips.database().ranges()[range].mirrored) ++mirrored_frames, mirrored_switches += m.switched();
    if (i == 119) {
      EXPECT_GT(m.position().z, 2.0f);
    }
  }
  EXPECT_GT(mirrored_switches, 2u);
  EXPECT_GT(mirrored_frames, 60u);
  std::printf("MM5: %zu switches to mirrored clips, %zu frames of them in %d\n", mirrored_switches, mirrored_frames, kMatcherFrames);
}

}  // namespace
}  // namespace marrow
