// The runtime jobs (X1-X3): the sampling job against the one sampler, the local-to-model job
// against the obvious loop, and every job refusing bad input without writing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/skin_palette_job.hpp"
#include "marrow/runtime/skinning_data.hpp"
#include "marrow/runtime/track_sampler.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::random_rotation;
using test::near;

// A track whose rotations step by up to max_angle radians (small: the nlerp path; large: slerp),
// with equal consecutive times now and then.
BoneTrack random_track(std::mt19937& rng, int bone, int keys, float max_angle) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> gap(0, 4000);
  BoneTrack track{bone, {}};
  Ticks t{std::uniform_int_distribution<int>(-2000, 2000)(rng)};
  glm::quat q = random_rotation(rng);
  for (int k = 0; k < keys; ++k) {
    Keyframe key;
    key.time = t;
    key.translation = {u(rng) * 3, u(rng) * 3, u(rng) * 3};
    const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1e-3f));
    q = glm::normalize(glm::angleAxis(max_angle * u(rng), axis) * q);
    key.rotation = u(rng) < 0 ? -q : q;  // either sign: the shorter arc must be found
    key.scale = {1 + u(rng) * 0.5f, 1 + u(rng) * 0.5f, 1 + u(rng) * 0.5f};
    track.keys.push_back(key);
    t += Ticks{gap(rng)};
  }
  return track;
}

struct RandomRig {
  SkinningData data;
  AnimationClip clip;
};

RandomRig random_rig(std::mt19937& rng, int joints, float max_angle) {
  RandomRig rig;
  rig.data.bone_count = joints;
  for (int j = 0; j < joints; ++j) {
    rig.data.skeleton_hierarchy.push_back(j == 0 ? -1 : std::uniform_int_distribution<int>(-1, j - 1)(rng));
    rig.data.bind_pose.push_back(compose_trs(glm::vec3(0, 1, 0), random_rotation(rng), glm::vec3(1)));
    rig.data.inverse_bind_pose.push_back(glm::mat4(1.f));
  }
  rig.clip.duration = Ticks{50'000};
  std::uniform_int_distribution<int> keys(1, 12);
  for (int j = 0; j < joints; ++j) {
    if (j % 5 == 3) continue;  // some joints untracked: their rest pose
    rig.clip.tracks.push_back(random_track(rng, j, keys(rng), max_angle));
  }
  rig.clip.tracks.push_back(BoneTrack{1, {}});          // no keys: ignored
  rig.clip.tracks.push_back(random_track(rng, joints + 4, 3, max_angle));  // outside: ignored
  return rig;
}

// The sampling job's joint j against the one sampler on the same keys (or the rest pose).
void expect_matches_sampler(const RandomRig& rig, const RuntimeClip& clip, std::span<const TrsBlock> pose, Ticks t,
                            float tol) {
  std::vector<const BoneTrack*> track_of(static_cast<std::size_t>(rig.data.bone_count), nullptr);
  for (const BoneTrack& track : rig.clip.tracks) {
    if (!track.keys.empty() && track.bone_index >= 0 && track.bone_index < rig.data.bone_count) {
      track_of[static_cast<std::size_t>(track.bone_index)] = &track;
    }
  }
  for (std::size_t j = 0; j < track_of.size(); ++j) {
    const Trs expected = track_of[j] != nullptr ? sample_track(track_of[j]->keys, t)
                                                : decompose_trs(rig.data.bind_pose[j]);
    const Trs got = pose_joint(pose, j);
    ASSERT_EQ(clip.animated(j), track_of[j] != nullptr);
    ASSERT_TRUE(near(got.translation, expected.translation, tol)) << "joint " << j << " t " << t.count();
    ASSERT_TRUE(near(got.scale, expected.scale, tol)) << "joint " << j;
    const glm::vec4 a(got.rotation.x, got.rotation.y, got.rotation.z, got.rotation.w);
    const glm::vec4 b(expected.rotation.x, expected.rotation.y, expected.rotation.z, expected.rotation.w);
    ASSERT_LE(glm::length(a - b), tol) << "joint " << j << " t " << t.count();
  }
}

std::vector<Ticks> random_times(std::mt19937& rng, int count) {
  return test::random_play_times(rng, count, 400, -10'000, 60'000);
}

TEST(SamplingJob, X1_EqualsTheOneSamplerOnRandomTracksAndTimeSequences) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const float max_angle = trial % 3 == 0 ? 0.02f : (trial % 3 == 1 ? 0.3f : 3.f);
    const RandomRig rig = random_rig(rng, 1 + trial % 23, max_angle);
    const RuntimeClip clip = compile_clip(rig.clip, rig.data);
    SamplingContext context(clip.joint_count());
    std::vector<TrsBlock> pose(pose_block_count(clip.joint_count()));
    for (Ticks t : random_times(rng, 300)) {
      ASSERT_TRUE((SamplingJob{&clip, t, &context, pose}.run()));
      expect_matches_sampler(rig, clip, pose, t, 1e-6f);
    }
  }
}

TEST(SamplingJob, X1_FastRotationsAreWithinAMillionthOfTheExactSlerp) {
  // Keys close enough for the normalised lerp, compared with a double-precision slerp.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (int trial = 0; trial < 2000; ++trial) {
    const glm::quat a = random_rotation(rng);
    const glm::vec3 axis = glm::normalize(glm::vec3(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f + 1e-3f));
    const glm::quat b = glm::normalize(glm::angleAxis(0.0632f * u(rng), axis) * a);  // 4D angle below 0.0316
    AnimationClip authored;
    authored.duration = Ticks{1000};
    authored.tracks.push_back(BoneTrack{0, {Keyframe{Ticks{0}, {}, a, glm::vec3(1)}, Keyframe{Ticks{1000}, {}, b, glm::vec3(1)}}});
    const RuntimeClip clip = compile_clip(authored, std::vector<glm::mat4>{glm::mat4(1.f)});
    SamplingContext context(1);
    std::vector<TrsBlock> pose(1);
    const Ticks t{std::uniform_int_distribution<int>(0, 1000)(rng)};
    ASSERT_TRUE((SamplingJob{&clip, t, &context, pose}.run()));
    const double p = static_cast<double>(t.count()) / 1000.0;
    const double dot = double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z + double(a.w) * b.w;
    const double theta = std::acos(std::min(1.0, dot));
    const double wa = theta < 1e-12 ? 1 - p : std::sin((1 - p) * theta) / std::sin(theta);
    const double wb = theta < 1e-12 ? p : std::sin(p * theta) / std::sin(theta);
    const glm::quat got = pose_joint(pose, 0).rotation;
    const double err = std::sqrt(std::pow(got.x - (wa * a.x + wb * b.x), 2) + std::pow(got.y - (wa * a.y + wb * b.y), 2) +
                                 std::pow(got.z - (wa * a.z + wb * b.z), 2) + std::pow(got.w - (wa * a.w + wb * b.w), 2));
    ASSERT_LE(err, 1e-6) << "angle " << theta << " p " << p;
  }
}

TEST(SamplingJob, X1_TwoContextsOnOneClipNeverInterfere) {
  std::mt19937 rng(3);
  const RandomRig rig = random_rig(rng, 17, 0.5f);
  const RuntimeClip clip = compile_clip(rig.clip, rig.data);
  SamplingContext forward(17), seeking(17);
  std::vector<TrsBlock> pose_a(pose_block_count(17)), pose_b(pose_block_count(17));
  const std::vector<Ticks> times = random_times(rng, 200);
  for (std::size_t i = 0; i < times.size(); ++i) {
    ASSERT_TRUE((SamplingJob{&clip, Ticks{static_cast<std::int64_t>(i) * 100}, &forward, pose_a}.run()));
    ASSERT_TRUE((SamplingJob{&clip, times[i], &seeking, pose_b}.run()));
    expect_matches_sampler(rig, clip, pose_a, Ticks{static_cast<std::int64_t>(i) * 100}, 1e-6f);
    expect_matches_sampler(rig, clip, pose_b, times[i], 1e-6f);
  }
}

TEST(SamplingJob, X1_AContextMovedToAnotherClipStartsOver) {
  std::mt19937 rng(5);
  const RandomRig first = random_rig(rng, 9, 0.5f), second = random_rig(rng, 9, 0.5f);
  const RuntimeClip a = compile_clip(first.clip, first.data), b = compile_clip(second.clip, second.data);
  SamplingContext context(9);
  std::vector<TrsBlock> pose(pose_block_count(9));
  for (int i = 0; i < 50; ++i) {
    const Ticks t{i * 700};
    ASSERT_TRUE((SamplingJob{&a, t, &context, pose}.run()));
    expect_matches_sampler(first, a, pose, t, 1e-6f);
    ASSERT_TRUE((SamplingJob{&b, t, &context, pose}.run()));
    expect_matches_sampler(second, b, pose, t, 1e-6f);
  }
}

TEST(SamplingJob, X1_EverySimdLevelGivesTheSamePose) {
  std::mt19937 rng(9);
  const RandomRig rig = random_rig(rng, 29, 1.f);
  const RuntimeClip clip = compile_clip(rig.clip, rig.data);
  test::for_each_simd_level([&](SimdChoice) {
    SamplingContext context(29);
    std::vector<TrsBlock> pose(pose_block_count(29));
    for (Ticks t : random_times(rng, 100)) {
      ASSERT_TRUE((SamplingJob{&clip, t, &context, pose}.run()));
      expect_matches_sampler(rig, clip, pose, t, 1e-6f);
    }
  });
}

TEST(SamplingJob, X1_KeysKeepTheirAuthoredSignAndOrthogonalKeysBracketAsTheOneSampler) {
  // Rotations a quarter turn apart as quaternions (dot exactly 0: no flip), half a turn (dot
  // -1: flip), negated twins (the same rotation), before the first key and after the last.
  const glm::quat x(0, 1, 0, 0), y(0, 0, 1, 0), w(1, 0, 0, 0);
  BoneTrack track{0, {}};
  const glm::quat keys[] = {w, x, -x, y, -w, w, glm::normalize(glm::quat(-1, 1, 0, 0)), -y};
  for (int k = 0; k < 8; ++k) track.keys.push_back(Keyframe{Ticks{100 + 1000 * k}, glm::vec3(static_cast<float>(k)), keys[k], glm::vec3(1)});
  AnimationClip authored;
  authored.duration = Ticks{8000};
  authored.tracks.push_back(track);
  const RuntimeClip clip = compile_clip(authored, std::vector<glm::mat4>{glm::mat4(1.f)});
  SamplingContext context(1);
  std::vector<TrsBlock> pose(1);
  for (std::int64_t t = -500; t < 8500; t += 37) {
    ASSERT_TRUE((SamplingJob{&clip, Ticks{t}, &context, pose}.run()));
    const Trs expected = sample_track(track.keys, Ticks{t});
    const Trs got = pose_joint(pose, 0);
    for (int c = 0; c < 4; ++c) ASSERT_NEAR(got.rotation[c], expected.rotation[c], 1e-6f) << "t " << t;
  }
  for (int k = 0; k < 8; ++k) {  // exactly on a key: that key, bit for bit, sign included
    ASSERT_TRUE((SamplingJob{&clip, track.keys[static_cast<std::size_t>(k)].time, &context, pose}.run()));
    const glm::quat got = pose_joint(pose, 0).rotation;
    for (int c = 0; c < 4; ++c) ASSERT_EQ(got[c], keys[k][c]) << "key " << k;
  }
}

TEST(SamplingJob, X1_AContextCostsFourBytesAJoint) {
  // The context keeps a key index per joint; the values come from the shared clip.
  EXPECT_LE(SamplingContext(1000).size_in_bytes(), sizeof(SamplingContext) + 4000);
}

// The obvious loop, in double-checked glm arithmetic.
std::vector<glm::mat4> reference_models(const std::vector<int>& parents, const std::vector<glm::mat4>& locals,
                                        const std::vector<glm::mat4>& prefix, const glm::mat4& root) {
  std::vector<glm::mat4> out(parents.size());
  for (std::size_t i = 0; i < parents.size(); ++i) {
    out[i] = parents[i] >= 0 ? out[static_cast<std::size_t>(parents[i])] * locals[i]
                             : root * (prefix.empty() ? glm::mat4(1.f) : prefix[i]) * locals[i];
  }
  return out;
}

TEST(LocalToModelJob, X2_ComposesParentsRootPrefixAndRoot) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(trial) % 37;
    std::vector<int> parents;
    std::vector<TrsBlock> pose(pose_block_count(n));
    std::vector<glm::mat4> locals, prefix;
    for (std::size_t i = 0; i < n; ++i) {
      parents.push_back(i == 0 ? -1 : std::uniform_int_distribution<int>(-1, static_cast<int>(i) - 1)(rng));
      const Trs trs{{u(rng), u(rng), u(rng)}, random_rotation(rng), {1 + u(rng) * 0.2f, 1 + u(rng) * 0.2f, 1.f}};
      set_pose_joint(pose, i, trs);
      locals.push_back(compose_trs(trs));
      prefix.push_back(compose_trs({u(rng), u(rng), u(rng)}, random_rotation(rng), glm::vec3(1.5f)));
    }
    const glm::mat4 root = compose_trs({u(rng), u(rng), u(rng)}, random_rotation(rng), glm::vec3(0.5f));
    const bool with_prefix = trial % 2 == 0, with_root = trial % 3 == 0;
    const std::vector<glm::mat4> expected =
        reference_models(parents, locals, with_prefix ? prefix : std::vector<glm::mat4>{}, with_root ? root : glm::mat4(1.f));
    for (bool from_pose : {true, false}) {
      std::vector<glm::mat4> models(n);
      LocalToModelJob job;
      job.parents = parents;
      if (from_pose) job.local_pose = pose; else job.local_matrices = locals;
      if (with_prefix) job.root_prefix = prefix;
      if (with_root) job.root = &root;
      job.models = models;
      ASSERT_TRUE(job.run());
      for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(near(models[i], expected[i], 1e-4f)) << "joint " << i;
    }
  }
}

// The gathered form reads each joint's local where its source says, a row of matrices made
// from several poses or its own matrix, and gives the bits of the matrix form.
TEST(LocalToModelJob, X2_GatheredLocalsGiveTheBitsOfTheMatrixForm) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  test::for_each_simd_level([&](SimdChoice) {
    for (int trial = 0; trial < 20; ++trial) {
      const std::size_t n = 1 + static_cast<std::size_t>(trial) * 7 % 45;
      std::vector<int> parents;
      std::vector<glm::mat4> locals;
      for (std::size_t i = 0; i < n; ++i) {
        parents.push_back(i == 0 ? -1 : std::uniform_int_distribution<int>(-1, static_cast<int>(i) - 1)(rng));
        locals.push_back(compose_trs(Trs{{u(rng), u(rng), u(rng)}, random_rotation(rng), {1 + u(rng) * 0.2f, 1.f, 1.f}}));
      }
      // The rows hold the locals in another order (joint i at row 2 n - 1 - i, after n others);
      // every third joint reads its own matrix.
      std::vector<glm::mat4> rows(2 * n, glm::mat4(0.f));
      std::vector<std::uint32_t> sources(n);
      for (std::size_t i = 0; i < n; ++i) {
        rows[2 * n - 1 - i] = locals[i];
        sources[i] = i % 3 == 2 ? kLocalMatrix : static_cast<std::uint32_t>(2 * n - 1 - i);
      }
      const glm::mat4 root = compose_trs({u(rng), u(rng), u(rng)}, random_rotation(rng), glm::vec3(0.5f));
      std::vector<glm::mat4> by_matrices(n), gathered(n);
      ASSERT_TRUE((LocalToModelJob{.parents = parents, .local_matrices = locals, .root = &root, .models = by_matrices}.run()));
      LocalToModelJob job{.parents = parents, .local_matrices = locals, .local_sources = sources, .source_matrices = rows};
      job.root = &root;
      job.models = gathered;
      ASSERT_TRUE(job.run());
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(gathered[i], by_matrices[i]) << "joint " << i;
    }
  });
}

// validate() checks what a run reads: the parents and sources of the joints composed. A broken
// entry outside [from, to) is never read, so it does not refuse the run; inside, it does.
TEST(LocalToModelJob, X2_ASubRangeChecksTheJointsItComposes) {
  const std::vector<int> parents = {-1, 0, 1, 9, 1};  // joint 3's parent is after it
  const std::vector<glm::mat4> locals(5, glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)));
  std::vector<glm::mat4> models(5, glm::mat4(1.f));
  LocalToModelJob job{.parents = parents, .local_matrices = locals, .models = models};
  EXPECT_STREQ(job.validate().field, "parents");
  job.to = 3;
  EXPECT_TRUE(job.run());
  job.from = 4, job.to = 5;
  EXPECT_TRUE(job.run());
  job.from = 2, job.to = 4;
  EXPECT_STREQ(job.validate().field, "parents");
  // Gathered: a source past the rows at joint 1 only.
  const std::vector<int> chain = {-1, 0, 1};
  const std::vector<std::uint32_t> sources = {0, 7, 1};
  const std::vector<glm::mat4> rows(2, glm::mat4(1.f));
  std::vector<glm::mat4> out(3, glm::mat4(1.f));
  LocalToModelJob gathered{.parents = chain, .local_sources = sources, .source_matrices = rows, .models = out};
  EXPECT_STREQ(gathered.validate().field, "local_sources");
  gathered.from = 2;
  EXPECT_TRUE(gathered.run());
  gathered.from = 0, gathered.to = 1;
  EXPECT_TRUE(gathered.run());
}

TEST(LocalToModelJob, X2_ASubRangeRecomposesOnlyItsJoints) {
  const std::vector<int> parents = {-1, 0, 1, 2, 1};
  std::vector<glm::mat4> locals(5, glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)));
  std::vector<glm::mat4> models(5);
  LocalToModelJob job;
  job.parents = parents;
  job.local_matrices = locals;
  job.models = models;
  ASSERT_TRUE(job.run());
  // Bend joint 2 and recompose from it: joints 0 and 1 are not written, 2..4 follow.
  locals[2] = glm::translate(glm::mat4(1.f), glm::vec3(1, 0, 0));
  models[0] = glm::mat4(0.f);  // a sentinel: must stay as it is
  job.from = 2;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(models[0], glm::mat4(0.f));
  EXPECT_TRUE(near(glm::vec3(models[2][3]), {1, 2, 0}));
  EXPECT_TRUE(near(glm::vec3(models[3][3]), {1, 3, 0}));
  EXPECT_TRUE(near(glm::vec3(models[4][3]), {0, 3, 0}));
  // to: only [2, 3).
  locals[3] = glm::translate(glm::mat4(1.f), glm::vec3(0, 0, 5));
  models[4] = glm::mat4(0.f);
  job.to = 3;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(models[4], glm::mat4(0.f));
  EXPECT_TRUE(near(glm::vec3(models[3][3]), {1, 3, 0}));  // not recomposed
}

TEST(SkinPaletteJob, X2_PaletteIsRootTimesModelTimesInverseBind) {
  const std::vector<glm::mat4> models = {glm::translate(glm::mat4(1.f), {1, 0, 0}), glm::translate(glm::mat4(1.f), {0, 2, 0})};
  const std::vector<glm::mat4> ibms = {glm::translate(glm::mat4(1.f), {0, 0, 3}), glm::scale(glm::mat4(1.f), glm::vec3(2.f))};
  const std::vector<int> joints = {1, 0};
  const glm::mat4 root = glm::translate(glm::mat4(1.f), {0, 0, -50});
  std::vector<glm::mat4> palette(2);
  SkinPaletteJob job{models, ibms, joints, &root, palette};
  ASSERT_TRUE(job.run());
  EXPECT_TRUE(near(palette[0], root * models[1] * ibms[0]));
  EXPECT_TRUE(near(palette[1], root * models[0] * ibms[1]));
}

// X3: fill outputs with a sentinel, break one field, expect false, the field named, nothing written.
template <class T>
bool unchanged(const std::vector<T>& v, const std::vector<T>& before) {
  return std::memcmp(v.data(), before.data(), v.size() * sizeof(T)) == 0;
}

TEST(RuntimeJobs, X3_SamplingJobRefusesBadInputWithoutWriting) {
  std::mt19937 rng(17);
  const RandomRig rig = random_rig(rng, 12, 0.5f);
  const RuntimeClip clip = compile_clip(rig.clip, rig.data);
  SamplingContext context(12), small(11);
  std::vector<TrsBlock> pose(pose_block_count(12)), short_pose(1);
  std::memset(pose.data(), 0x5a, pose.size() * sizeof(TrsBlock));
  std::memset(short_pose.data(), 0x5a, sizeof(TrsBlock));
  const std::vector<TrsBlock> before = pose, short_before = short_pose;
  const struct {
    SamplingJob job;
    const char* field;
  } cases[] = {{{nullptr, Ticks{0}, &context, pose}, "clip"},
               {{&clip, Ticks{0}, nullptr, pose}, "context"},
               {{&clip, Ticks{0}, &small, pose}, "context"},
               {{&clip, Ticks{0}, &context, short_pose}, "output"}};
  for (const auto& c : cases) {
    EXPECT_STREQ(c.job.validate().field, c.field);
    EXPECT_FALSE(c.job.run());
    EXPECT_TRUE(unchanged(pose, before) && unchanged(short_pose, short_before)) << c.field;
  }
  EXPECT_EQ(cases[3].job.validate().message("SamplingJob"), "SamplingJob: output has fewer blocks than pose_block_count(clip joints)");
}

TEST(RuntimeJobs, X3_LocalToModelJobRefusesBadInputWithoutWriting) {
  const std::vector<int> parents = {-1, 0, 1}, bad_parents = {-1, 2, 1};
  const std::vector<glm::mat4> locals(3, glm::mat4(1.f)), two(2, glm::mat4(1.f));
  const std::vector<TrsBlock> pose(1);
  std::vector<glm::mat4> models(3, glm::mat4(7.f)), short_models(2, glm::mat4(7.f));
  const std::vector<glm::mat4> before = models, short_before = short_models;
  auto job = [&] {
    LocalToModelJob j;
    j.parents = parents;
    j.local_matrices = locals;
    j.models = models;
    return j;
  };
  std::vector<std::pair<LocalToModelJob, const char*>> cases;
  cases.emplace_back(job(), "parents"), cases.back().first.parents = bad_parents;
  cases.emplace_back(job(), "models"), cases.back().first.models = short_models;
  cases.emplace_back(job(), "local_pose"), cases.back().first.local_pose = pose;  // both given
  cases.emplace_back(job(), "local_pose"), cases.back().first.local_matrices = {};  // neither
  cases.emplace_back(job(), "local_matrices"), cases.back().first.local_matrices = two;
  cases.emplace_back(job(), "root_prefix"), cases.back().first.root_prefix = two;
  cases.emplace_back(job(), "from"), cases.back().first.from = 4;
  // The gathered form: a source past the rows, a matrix source without matrices, a source
  // count that is not the joints', rows without sources.
  const std::vector<std::uint32_t> sources = {0, 1, kLocalMatrix}, beyond = {0, 2, 1}, short_sources = {0, 1};
  auto gathered = [&](std::span<const std::uint32_t> s, bool matrices) {
    LocalToModelJob j = job();
    if (!matrices) j.local_matrices = {};
    j.local_sources = s;
    j.source_matrices = two;
    return j;
  };
  cases.emplace_back(gathered(beyond, true), "local_sources");
  cases.emplace_back(gathered(sources, false), "local_matrices");
  cases.emplace_back(gathered(short_sources, true), "local_sources");
  cases.emplace_back(job(), "source_matrices"), cases.back().first.source_matrices = two;  // without sources
  for (const auto& [j, field] : cases) {
    EXPECT_STREQ(j.validate().field, field);
    EXPECT_FALSE(j.run());
    EXPECT_TRUE(unchanged(models, before) && unchanged(short_models, short_before)) << field;
  }
  EXPECT_TRUE(job().run());
  EXPECT_TRUE(gathered(sources, true).run());
}

// The index checks (validate(); run() unless indices_checked) scan whole arrays in vector lanes:
// one bad index is found wherever it lies (the 3-joint cases above reach only the scalar
// remainder).
TEST(RuntimeJobs, X3_ParentAndJointScansFindOneBadIndexAnywhere) {
  constexpr int n = 37;
  std::vector<int> parents(n), joints(n);
  // Index through a size_t so the clang -Wsign-conversion build stays quiet.
  const auto at = [](std::vector<int>& v, int i) -> int& { return v[static_cast<std::size_t>(i)]; };
  for (int i = 0; i < n; ++i) at(parents, i) = i - 1, at(joints, i) = n - 1 - i;
  const std::vector<glm::mat4> locals(n, glm::mat4(1.f));
  std::vector<glm::mat4> models(n), palette(n);
  LocalToModelJob compose;
  compose.parents = parents;
  compose.local_matrices = locals;
  compose.models = models;
  const SkinPaletteJob skin{models, locals, joints, nullptr, palette};
  ASSERT_TRUE(compose.validate());
  ASSERT_TRUE(skin.validate());
  for (int i = 0; i < n; ++i) {
    for (const int bad : {i, i + 1, n + 5}) {  // itself, a later joint, past the end
      at(parents, i) = bad;
      EXPECT_STREQ(compose.validate().field, "parents") << "joint " << i << " parent " << bad;
      at(parents, i) = i - 1;
    }
    for (const int bad : {-1, n, std::numeric_limits<int>::min()}) {
      at(joints, i) = bad;
      EXPECT_STREQ(skin.validate().field, "joints") << "entry " << i << " joint " << bad;
      at(joints, i) = n - 1 - i;
    }
  }
  EXPECT_TRUE(compose.validate());
  EXPECT_TRUE(skin.validate());
}

// A caller that made the indices itself (an Animator's frame) may skip run()'s per-joint scans:
// validate() still scans them, run() still checks every size, and the output is the same bits.
TEST(RuntimeJobs, X3_IndicesCheckedSkipsOnlyTheIndexScansOfRun) {
  constexpr int n = 19;
  std::vector<int> parents(n), joints(n);
  std::vector<glm::mat4> locals(n);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    parents[k] = i - 1 - (i % 3 == 2 ? 1 : 0), joints[k] = n - 1 - i;
    locals[k] = glm::translate(glm::mat4(1.f), glm::vec3(0.1f * static_cast<float>(i), 1.f, -0.5f)) *
                glm::mat4_cast(glm::angleAxis(0.3f * static_cast<float>(i), glm::normalize(glm::vec3(1.f, 2.f, 3.f))));
  }
  std::vector<glm::mat4> scanned(n), trusted(n), palette_scanned(n), palette_trusted(n);
  LocalToModelJob compose{.parents = parents, .local_matrices = locals, .models = scanned};
  ASSERT_TRUE(compose.run());
  compose.models = trusted;
  compose.indices_checked = true;
  ASSERT_TRUE(compose.run());
  EXPECT_EQ(0, std::memcmp(scanned.data(), trusted.data(), sizeof(glm::mat4) * n));
  SkinPaletteJob skin{.models = trusted, .inverse_binds = locals, .joints = joints, .palette = palette_scanned};
  ASSERT_TRUE(skin.run());
  skin.palette = palette_trusted;
  skin.indices_checked = true;
  ASSERT_TRUE(skin.run());
  EXPECT_EQ(0, std::memcmp(palette_scanned.data(), palette_trusted.data(), sizeof(glm::mat4) * n));
  // validate() scans whatever the flag says.
  parents[5] = 7;
  joints[3] = n;
  EXPECT_STREQ(compose.validate().field, "parents");
  EXPECT_STREQ(skin.validate().field, "joints");
  parents[5] = 4;
  joints[3] = n - 4;
  // run() still refuses wrong sizes, writing nothing.
  std::vector<glm::mat4> short_models(n - 1, glm::mat4(7.f));
  compose.models = short_models;
  EXPECT_FALSE(compose.run());
  skin.palette = std::span<glm::mat4>(short_models);
  EXPECT_FALSE(skin.run());
  EXPECT_TRUE(unchanged(short_models, std::vector<glm::mat4>(n - 1, glm::mat4(7.f))));
}

TEST(RuntimeJobs, X3_SkinPaletteJobRefusesBadInputWithoutWriting) {
  const std::vector<glm::mat4> models(3, glm::mat4(1.f)), ibms(2, glm::mat4(1.f));
  const std::vector<int> out_of_range = {0, 3}, negative = {-1, 0}, three = {0, 1, 2};
  std::vector<glm::mat4> palette(2, glm::mat4(7.f)), wrong(3, glm::mat4(7.f));
  const std::vector<glm::mat4> before = palette, wrong_before = wrong;
  const struct {
    SkinPaletteJob job;
    const char* field;
  } cases[] = {{{models, ibms, out_of_range, nullptr, palette}, "joints"},
               {{models, ibms, negative, nullptr, palette}, "joints"},
               {{models, ibms, three, nullptr, palette}, "joints"},
               {{models, ibms, {}, nullptr, wrong}, "palette"},
               {{std::span<const glm::mat4>(models).first(1), ibms, {}, nullptr, palette}, "models"}};
  for (const auto& c : cases) {
    EXPECT_STREQ(c.job.validate().field, c.field);
    EXPECT_FALSE(c.job.run());
    EXPECT_TRUE(unchanged(palette, before) && unchanged(wrong, wrong_before)) << c.field;
  }
}

TEST(RuntimeClip, X1_CompileRefusesWhatValidateClipRefuses) {
  AnimationClip clip;
  clip.tracks.push_back(BoneTrack{0, {Keyframe{Ticks{5}}, Keyframe{Ticks{4}}}});
  EXPECT_THROW(compile_clip(clip, std::vector<glm::mat4>{glm::mat4(1.f)}), std::invalid_argument);
  clip.tracks[0].keys[1].time = Ticks{6};
  clip.target_space = ClipTargetSpace::SceneNode;
  SkinningData data;
  data.bone_count = 1;
  data.skeleton_hierarchy = {-1};
  data.bind_pose = data.inverse_bind_pose = {glm::mat4(1.f)};
  EXPECT_THROW(compile_clip(clip, data), std::invalid_argument);
  EXPECT_THROW(compile_clip(clip, std::vector<glm::mat4>{glm::mat4(NAN)}), std::invalid_argument);
}

}  // namespace
}  // namespace marrow
