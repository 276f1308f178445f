// Compressed clips (offline/clip_compression.hpp, offline/compressed_clip_data.hpp): the sampling
// job plays them by the one sampler's rule on their reconstructed keys (X1), their error against
// the source stays under the tolerance in object space, and malformed compressed data is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <vector>

#include "marrow/core/trs.hpp"
#include "conformance_fixtures.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/model_file.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/compiled_animations.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/runtime/offline/clip_compression.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/runtime/skinning_data.hpp"
#include "marrow/runtime/track_sampler.hpp"
#include "compression_test_util.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::random_rotation;
namespace fs = std::filesystem;

// A skeleton of `joints` (random parents, 10 cm bones) and a clip whose channels move smoothly
// (sums of sines) or not at all, so that compression drops keys, keeps constants, uses uniform
// scales; keys every 1/30 s, some tracks shorter than the clip, and one joint left untracked.
struct Rig {
  SkinningData data;
  AnimationClip clip;
};

Rig smooth_rig(std::mt19937& rng, int joints, int keys) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Rig rig;
  rig.data.bone_count = joints;
  for (int j = 0; j < joints; ++j) {
    rig.data.skeleton_hierarchy.push_back(j == 0 ? -1 : std::uniform_int_distribution<int>(0, j - 1)(rng));
    rig.data.bind_pose.push_back(compose_trs(glm::vec3(0, 0.1f, 0), random_rotation(rng), glm::vec3(1)));
    rig.data.inverse_bind_pose.push_back(glm::mat4(1.f));
  }
  const Ticks frame{kTicksPerSecond / 30};
  rig.clip.duration = frame * (keys - 1);
  for (int j = 0; j < joints; ++j) {
    if (j == joints / 2) continue;  // the rest pose
    const float f[3] = {1 + 2 * std::fabs(u(rng)), 1 + 2 * std::fabs(u(rng)), 1 + 2 * std::fabs(u(rng))};
    const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1e-3f));
    const glm::quat base = random_rotation(rng);
    const bool moves = j % 4 != 1, scales = j % 3 == 0, uniform = j % 2 == 0;
    const int first = j % 5 == 4 ? keys / 4 : 0, last = j % 7 == 6 ? 3 * keys / 4 : keys - 1;
    BoneTrack track{j, {}};
    for (int k = first; k <= last; ++k) {
      const float t = static_cast<float>(k) / 30.f;
      Keyframe key;
      key.time = frame * k;
      key.translation = glm::vec3(0, 0.1f, 0) + (moves ? 0.02f * glm::vec3(std::sin(f[0] * t), std::cos(f[1] * t), 0) : glm::vec3(0));
      key.rotation = glm::angleAxis(0.6f * std::sin(f[2] * t + static_cast<float>(j)), axis) * base;
      if (k % 11 == 3) key.rotation = -key.rotation;  // signs must not matter
      const float s = scales ? 1 + 0.05f * std::sin(f[0] * t) : 1.f;
      key.scale = uniform ? glm::vec3(s) : glm::vec3(s, 1 + 0.03f * std::sin(f[1] * t), 1);
      track.keys.push_back(key);
    }
    rig.clip.tracks.push_back(track);
  }
  return rig;
}

std::vector<Ticks> random_times(std::mt19937& rng, Ticks duration, int count) {
  return test::random_play_times(rng, count, kTicksPerSecond / 20, -duration.count() / 4, duration.count() * 5 / 4);
}

// The job's joint j against the one sampler on the reconstructed channels.
void expect_matches_reconstruction(const std::vector<ReconstructedJoint>& keys, std::span<const TrsBlock> pose, Ticks t) {
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const Trs got = pose_joint(pose, j);
    const glm::vec3 tr = sample_track(keys[j].translation.keys, t).translation;
    const glm::quat r = sample_track(keys[j].rotation.keys, t).rotation;
    const glm::vec3 s = sample_track(keys[j].scale.keys, t).scale;
    ASSERT_TRUE(test::near(got.translation, tr, 1e-6f)) << "joint " << j << " t " << t.count();
    ASSERT_TRUE(test::near(got.scale, s, 1e-6f)) << "joint " << j << " t " << t.count();
    for (int c = 0; c < 4; ++c) ASSERT_NEAR(got.rotation[c], r[c], 1e-6f) << "joint " << j << " t " << t.count();
  }
}

// Plays clip at `count` random times at every SIMD level, with a context that decodes every run
// and one that caches: each pose as the one sampler plays the reconstructed keys, then check(pose).
template <class Check>
void expect_plays_its_keys(const RuntimeClip& clip, std::mt19937& rng, int count, Check&& check) {
  const std::vector<ReconstructedJoint> keys = reconstructed_channels(clip);
  test::for_each_simd_level([&](SimdChoice) {
    for (CompressedKeys mode : {CompressedKeys::decode_every_run, CompressedKeys::cache}) {
      SamplingContext context(clip.joint_count(), mode);
      std::vector<TrsBlock> pose(pose_block_count(clip.joint_count()));
      for (Ticks t : random_times(rng, clip.duration(), count)) {
        ASSERT_TRUE((SamplingJob{&clip, t, &context, pose}.run()));
        expect_matches_reconstruction(keys, pose, t);
        check(pose);
      }
    }
  });
}

// Either form: reduced keys, or segments of samples (whose boundaries' two samples at one time
// come back as two keys).
void expect_plays_its_reconstruction(bool segmented) {
  std::mt19937 rng(21);
  for (int trial = 0; trial < 12; ++trial) {
    const Rig rig = smooth_rig(rng, 3 + trial * 5, 40 + trial * 17);
    ClipCompression options;
    options.tolerance = trial % 2 == 0 ? 1e-3f : 1e-2f;  // loose enough to drop most keys
    options.segmented = segmented;
    const RuntimeClip clip = compress_clip(rig.clip, rig.data, options);
    ASSERT_TRUE(clip.compressed());
    ASSERT_EQ(clip.caches_keys(), !segmented);
    std::size_t source_keys = 0;
    for (const BoneTrack& track : rig.clip.tracks) source_keys += 3 * track.keys.size();
    ASSERT_LT(clip.key_count(), segmented ? source_keys : source_keys / 2);
    const std::vector<ReconstructedJoint> keys = reconstructed_channels(clip);
    test::for_each_simd_level([&](SimdChoice) {
      for (CompressedKeys mode : {CompressedKeys::decode_every_run, CompressedKeys::cache}) {
        SamplingContext context(clip.joint_count(), mode);
        std::vector<TrsBlock> pose(pose_block_count(clip.joint_count()));
        for (Ticks t : random_times(rng, clip.duration(), 150)) {
          ASSERT_TRUE((SamplingJob{&clip, t, &context, pose}.run()));
          expect_matches_reconstruction(keys, pose, t);
        }
        for (const ReconstructedJoint& joint : keys) {  // exactly on every key, and a tick either side
          for (const Keyframe& key : joint.rotation.keys) {
            for (Ticks t : {key.time - Ticks{1}, key.time, key.time + Ticks{1}}) {
              ASSERT_TRUE((SamplingJob{&clip, t, &context, pose}.run()));
              expect_matches_reconstruction(keys, pose, t);
            }
          }
        }
      }
    });
  }
}

TEST(CompressedClip, X1_EqualsTheOneSamplerOnItsReconstructedKeysAtEverySimdLevel) { expect_plays_its_reconstruction(false); }

TEST(CompressedClip, X1_SegmentedEqualsTheOneSamplerOnItsReconstructedKeysAtEverySimdLevel) { expect_plays_its_reconstruction(true); }

// A clip's times are kept as ticks since its first (4 bytes a time) when they span less than 2^31
// ticks, else as they are (8 bytes). Either way the clip gives back its exact times and plays as
// its reconstruction, at every level, with and without a cache.
// The times' three forms (compressed_storage.hpp's TimeView): a rig sampled at a rate is on a
// grid (no bytes a time); a time moved by a tick puts it on none (4 bytes a time since the
// first); a last time four minutes on (a key held that long) needs the wide form (8 bytes).
TEST(CompressedClip, X1_KeyTimesOfEveryFormComeBackExactlyAndPlayByTheRule) {
  std::mt19937 rng(47);
  const Rig rig = smooth_rig(rng, 11, 90);
  const RuntimeClip grid_clip = compress_clip(rig.clip, rig.data, {});
  CompressedClipData short_data = compressed_clip_data(grid_clip);
  short_data.times[1] += Ticks{1};
  const RuntimeClip short_clip = make_compressed_clip("short", short_data.times.back(), short_data);
  CompressedClipData far_data = compressed_clip_data(grid_clip);
  far_data.times.back() += ticks_from_seconds(240.0);
  const RuntimeClip far_clip = make_compressed_clip("far", far_data.times.back(), far_data);
  const std::size_t n = far_data.times.size();
  EXPECT_EQ(short_clip.size_in_bytes() - grid_clip.size_in_bytes(), 4 * n);
  EXPECT_EQ(far_clip.size_in_bytes() - grid_clip.size_in_bytes(), 8 * n);
  for (const RuntimeClip* clip : {&grid_clip, &short_clip, &far_clip}) {
    SCOPED_TRACE(clip->name());
    const std::vector<Ticks> times = compressed_clip_data(*clip).times;
    EXPECT_EQ(times, clip == &far_clip     ? far_data.times
                     : clip == &short_clip ? short_data.times
                                           : compressed_clip_data(make_compressed_clip("again", clip->duration(), compressed_clip_data(*clip))).times);
    const std::vector<ReconstructedJoint> keys = reconstructed_channels(*clip);
    test::for_each_simd_level([&](SimdChoice) {
      for (CompressedKeys mode : {CompressedKeys::decode_every_run, CompressedKeys::cache}) {
        SamplingContext context(clip->joint_count(), mode);
        std::vector<TrsBlock> pose(pose_block_count(clip->joint_count()));
        for (Ticks t : random_times(rng, clip->duration(), 100)) {
          ASSERT_TRUE((SamplingJob{clip, t, &context, pose}.run()));
          expect_matches_reconstruction(keys, pose, t);
        }
        for (const Ticks key : times) {
          for (Ticks t : {key - Ticks{1}, key, key + Ticks{1}}) {
            ASSERT_TRUE((SamplingJob{clip, t, &context, pose}.run()));
            expect_matches_reconstruction(keys, pose, t);
          }
        }
      }
    });
  }
}

// A rate's multiples rounded to ticks (1/30 s is 333,333.3 ticks), from any first multiple, lie on
// a grid: the times take no bytes and come back exactly. One of them a tick off is on none.
TEST(CompressedClip, X1_TimesSampledAtARateTakeNoBytes) {
  std::mt19937 rng(59);
  const Rig rig = smooth_rig(rng, 5, 70);
  const RuntimeClip base = compress_clip(rig.clip, rig.data, {});
  const CompressedClipData data = compressed_clip_data(base);
  for (const double rate : {30.0, 24.0, 120.0, 29.97}) {
    for (const int offset : {0, 1, 7}) {
      SCOPED_TRACE(std::to_string(rate) + " Hz from multiple " + std::to_string(offset));
      CompressedClipData d = data;
      for (std::size_t i = 0; i < d.times.size(); ++i)
        d.times[i] = Ticks{std::llround(static_cast<double>(i + static_cast<std::size_t>(offset)) * 1e7 / rate)};
      const RuntimeClip clip = make_compressed_clip("rate", d.times.back(), d);
      EXPECT_EQ(clip.size_in_bytes(), base.size_in_bytes());
      EXPECT_EQ(compressed_clip_data(clip).times, d.times);
      d.times[d.times.size() / 2] += Ticks{1};
      const RuntimeClip off = make_compressed_clip("rate", d.times.back(), d);
      EXPECT_EQ(off.size_in_bytes(), base.size_in_bytes() + 4 * d.times.size());
      EXPECT_EQ(compressed_clip_data(off).times, d.times);
    }
  }
}

// Key times a few ticks off a rate's multiples (float seconds rounded to ticks), two channels of
// a joint ending a tick apart (one track, the same pose twice), and a track starting late just
// after a grid time are compressed on the grid they lie near: its times take no bytes, and the
// clip stays within the bound at the source's own times. A step (two keys a tick apart that
// differ) keeps its times.
TEST(CompressedClip, X1_KeyTimesNearAGridAreCompressedOnItWithinTheBound) {
  std::mt19937 rng(61);
  Rig rig = smooth_rig(rng, 9, 60);
  for (BoneTrack& track : rig.clip.tracks)
    for (Keyframe& key : track.keys) key.time += Ticks{(key.time.count() / 333333) % 5 * 9};
  rig.clip.tracks[0].keys.push_back(rig.clip.tracks[0].keys.back());
  rig.clip.tracks[0].keys.back().time += Ticks{1};
  rig.clip.duration = rig.clip.tracks[0].keys.back().time;
  // A track that starts late, its keys 20 ticks after the grid's times: it starts at the nearest.
  std::vector<Keyframe>& late = rig.clip.tracks[1].keys;
  late.erase(late.begin(), late.begin() + 10);
  for (Keyframe& key : late) key.time += Ticks{20};
  late[1].rotation = glm::angleAxis(0.5f, glm::vec3(0, 1, 0)) * late[0].rotation;  // a turn in its first frame
  std::set<Ticks> source_times;
  for (const BoneTrack& track : rig.clip.tracks)
    for (const Keyframe& key : track.keys) source_times.insert(key.time);
  for (const bool segmented : {false, true}) {
    SCOPED_TRACE(segmented ? "segmented" : "keyed");
    const ClipCompression options{.segmented = segmented};
    const RuntimeClip clip = compress_clip(rig.clip, rig.data, options);
    CompressedClipData data = compressed_clip_data(clip);
    EXPECT_EQ(data.times.size(), 60u);
    EXPECT_EQ(data.times.front(), *source_times.begin());
    EXPECT_EQ(data.times.back(), *source_times.rbegin());
    const std::size_t on = make_compressed_clip("on", clip.duration(), data).size_in_bytes();
    data.times[1] += Ticks{1};  // off the grid: the times take their 4 bytes each
    EXPECT_EQ(make_compressed_clip("off", clip.duration(), data).size_in_bytes(), on + 4 * data.times.size());
    const RuntimeClip source = compile_clip(rig.clip, rig.data);
    SamplingContext ca(9), cb(9);
    std::vector<TrsBlock> a(pose_block_count(9)), b(pose_block_count(9));
    int joint = -1;
    double worst = test::measured_error(rig.clip, rig.data, clip, options.distance, rng, &joint);
    for (const Ticks t : source_times) {
      SamplingJob{&source, t, &ca, a}.run();
      SamplingJob{&clip, t, &cb, b}.run();
      worst = std::max(worst, test::max_displacement(rig.data, a, b, options.distance, &joint));
    }
    EXPECT_LE(worst, options.tolerance);
  }
  // Tracks that never change (a pose held over jittered times) go on the grid as well.
  Rig pose = rig;
  for (BoneTrack& track : pose.clip.tracks)
    for (Keyframe& key : track.keys) key.translation = track.keys[0].translation, key.rotation = track.keys[0].rotation, key.scale = track.keys[0].scale;
  EXPECT_EQ(compressed_clip_data(compress_clip(pose.clip, pose.data, {})).times.size(), 60u);
  // A step: the same track's last two keys a tick apart, the second turned.
  rig.clip.tracks[0].keys.back().rotation = glm::angleAxis(0.5f, glm::vec3(0, 1, 0)) * rig.clip.tracks[0].keys.back().rotation;
  const std::vector<Ticks> kept = compressed_clip_data(compress_clip(rig.clip, rig.data, {})).times;
  EXPECT_EQ(kept, std::vector<Ticks>(source_times.begin(), source_times.end()));
}

// A block's channel whose eight lanes are the identity's one key (translation 0, rotation
// (0, 0, 0, 1), scale 1, at time index 0) is stored as nothing; one that is constant but not the
// identity keeps its values (128 bytes for eight joints). Both play their keys.
TEST(CompressedClip, X1_IdentityChannelsTakeNoBytesAndPlayTheirKeys) {
  std::mt19937 rng(53);
  const Rig rig = smooth_rig(rng, 16, 40);  // two blocks of eight joints
  CompressedClipData unit = compressed_clip_data(compress_clip(rig.clip, rig.data, {}));
  for (std::size_t j = 0; j < 16; ++j) {
    CompressedChannel& scale = unit.channels[3 * j + 2];
    scale = CompressedChannel{};
    scale.key_times = {0};
    scale.min = {1.f, 1.f, 1.f};
  }
  CompressedClipData stretched = unit;
  stretched.channels[3 * 9 + 2].min = {1.f, 1.f, 1.5f};  // joint 9, in the second block
  const RuntimeClip a = make_compressed_clip("unit", rig.clip.duration, unit);
  const RuntimeClip b = make_compressed_clip("stretched", rig.clip.duration, stretched);
  EXPECT_EQ(b.size_in_bytes() - a.size_in_bytes(), 128u);
  EXPECT_EQ(compressed_clip_data(a).channels[3 * 9 + 2].min, (std::array<float, 3>{1.f, 1.f, 1.f}));
  EXPECT_EQ(compressed_clip_data(b).channels[3 * 9 + 2].min, (std::array<float, 3>{1.f, 1.f, 1.5f}));
  for (const RuntimeClip* clip : {&a, &b}) {
    expect_plays_its_keys(*clip, rng, 60, [&](std::span<const TrsBlock> pose) {
      EXPECT_EQ(pose_joint(pose, 9).scale.z, clip == &a ? 1.f : 1.5f);
    });
  }
}

// A block's channel whose eight lanes are the skeleton's rest (each joint's local T/R/S as one
// key at time index 0) is stored as nothing and read from the rest pose the clip was made with
// (compressed_rest_pose, shared by a skeleton's clips); the clip plays the same bits and gives
// the same data back either way.
TEST(CompressedClip, X1_RestChannelsTakeNoBytesAndPlayTheirKeys) {
  std::mt19937 rng(59);
  const Rig rig = smooth_rig(rng, 16, 40);  // two blocks of eight joints; every rest translation (0, 0.1, 0)
  CompressedClipData data = compressed_clip_data(compress_clip(rig.clip, rig.data, {}));
  for (std::size_t j = 8; j < 16; ++j) {  // the second block's translations: the rest
    CompressedChannel& t = data.channels[3 * j];
    t = CompressedChannel{};
    t.key_times = {0};
    t.min = {0.f, 0.1f, 0.f};
  }
  CompressedClipData moved = data;
  moved.channels[3 * 9].min = {0.f, 0.2f, 0.f};  // joint 9 off its rest: the block keeps its values
  const auto rest = compressed_rest_pose(rig.data.bind_pose);
  const RuntimeClip plain = make_compressed_clip("plain", rig.clip.duration, data);
  const RuntimeClip stripped = make_compressed_clip("stripped", rig.clip.duration, data, rest);
  const RuntimeClip kept = make_compressed_clip("kept", rig.clip.duration, moved, rest);
  EXPECT_EQ(plain.size_in_bytes() - stripped.size_in_bytes(), 128u);
  EXPECT_EQ(kept.size_in_bytes(), plain.size_in_bytes());
  const CompressedClipData back = compressed_clip_data(stripped);
  for (std::size_t c = 0; c < data.channels.size(); ++c) {
    EXPECT_EQ(back.channels[c].min, data.channels[c].min) << "channel " << c;
    EXPECT_EQ(back.channels[c].key_times, data.channels[c].key_times) << "channel " << c;
    EXPECT_EQ(back.channels[c].packed, data.channels[c].packed) << "channel " << c;
  }
  test::for_each_simd_level([&](SimdChoice) {
    for (CompressedKeys mode : {CompressedKeys::decode_every_run, CompressedKeys::cache}) {
      SamplingContext a(16, mode), b(16, mode);
      std::vector<TrsBlock> pa(pose_block_count(16)), pb(pose_block_count(16));
      for (Ticks t : random_times(rng, rig.clip.duration, 60)) {
        ASSERT_TRUE((SamplingJob{&plain, t, &a, pa}.run()));
        ASSERT_TRUE((SamplingJob{&stripped, t, &b, pb}.run()));
        for (std::size_t j = 0; j < 16; ++j) {
          const Trs x = pose_joint(pa, j), y = pose_joint(pb, j);
          ASSERT_EQ(std::memcmp(&x, &y, sizeof(Trs)), 0) << j;
        }
        EXPECT_EQ(pose_joint(pb, 12).translation, glm::vec3(0.f, 0.1f, 0.f));
      }
    }
  });
  const auto other = compressed_rest_pose(std::vector<glm::mat4>(3, glm::mat4(1.f)));
  EXPECT_THROW(make_compressed_clip("wrong", rig.clip.duration, data, other), std::invalid_argument);
}

// A pose (every channel one key of no bits) keeps, of a block channel that is the rest or the
// identity in some lanes only, the other lanes' values over it: 12 bytes a lane and 12 the block
// channel, not 128. A lane whose key is at a later time index keeps the block's 128 bytes (the
// time comes back in compressed_clip_data). A clip that moves keeps 128 bytes for such a block
// channel (CompressedClip.X1_IdentityChannelsTakeNoBytesAndPlayTheirKeys). The pose plays its
// values, the same at every SIMD level.
TEST(CompressedClip, X1_APoseKeepsOnlyItsLanesThatAreNotTheRestOrTheIdentity) {
  std::mt19937 rng(67);
  const Rig rig = smooth_rig(rng, 16, 40);
  const auto rest = compressed_rest_pose(rig.data.bind_pose);
  // The rest pose as a clip: every channel the joint's rest, as compress_clip stores it.
  AnimationClip still = rig.clip;
  for (BoneTrack& track : still.tracks) {
    const Trs r = decompose_trs(rig.data.bind_pose[static_cast<std::size_t>(track.bone_index)]);
    for (Keyframe& key : track.keys) key.translation = r.translation, key.rotation = r.rotation, key.scale = r.scale;
  }
  const CompressedClipData at_rest = compressed_clip_data(compress_clip(still, rig.data, {}));
  CompressedClipData turned = at_rest;
  const glm::quat q = glm::normalize(glm::quat(0.9f, 0.3f, -0.2f, 0.1f));  // x, y, z smallest: w dropped
  for (std::size_t j : {2u, 5u, 11u}) {
    CompressedChannel& r = turned.channels[3 * j + 1];
    r.min = {q.x, q.y, q.z};
    r.packed = {3};
  }
  turned.channels[3 * 9].min = {0.f, 0.25f, 0.f};  // a translation off its rest
  CompressedClipData late = turned;
  late.channels[3 * 11 + 1].key_times = {7};
  const RuntimeClip a = make_compressed_clip("rest", still.duration, at_rest, rest);
  const RuntimeClip b = make_compressed_clip("turned", still.duration, turned, rest);
  const RuntimeClip c = make_compressed_clip("late", still.duration, late, rest);
  // Rotations: block 0 two lanes, block 1 one; translations: block 1 one.
  EXPECT_EQ(b.size_in_bytes() - a.size_in_bytes(), (12u + 24u) + (12u + 12u) + (12u + 12u));
  EXPECT_EQ(c.size_in_bytes() - a.size_in_bytes(), (12u + 24u) + 128u + (12u + 12u));
  for (const auto& played : {std::pair{&b, &turned}, std::pair{&c, &late}}) {
    const RuntimeClip* clip = played.first;
    const CompressedClipData* data = played.second;
    const CompressedClipData back = compressed_clip_data(*clip);
    for (std::size_t ch = 0; ch < data->channels.size(); ++ch) {
      EXPECT_EQ(back.channels[ch].min, data->channels[ch].min) << ch;
      EXPECT_EQ(back.channels[ch].key_times, data->channels[ch].key_times) << ch;
      EXPECT_EQ(back.channels[ch].packed, data->channels[ch].packed) << ch;
    }
    const Trs rest4 = decompose_trs(rig.data.bind_pose[4]);
    expect_plays_its_keys(*clip, rng, 20, [&](std::span<const TrsBlock> pose) {
      EXPECT_EQ(pose_joint(pose, 9).translation, glm::vec3(0.f, 0.25f, 0.f));
      EXPECT_LT(1.f - std::fabs(glm::dot(pose_joint(pose, 5).rotation, q)), 1e-6f);
      EXPECT_LT(1.f - std::fabs(glm::dot(pose_joint(pose, 4).rotation, rest4.rotation)), 1e-6f);  // a lane of the rest
    });
  }
}

// A constant channel within its share of the tolerance of the joint's rest is stored as the rest
// exactly (else of the identity, as the identity): a clip that holds the rest pose up to float
// noise keeps nothing of its own but its time table.
TEST(CompressedClip, X1_AConstantNearTheRestIsStoredAsTheRest) {
  std::mt19937 rng(61);
  const Rig rig = smooth_rig(rng, 16, 40);
  AnimationClip still = rig.clip;
  for (BoneTrack& track : still.tracks) {
    const Trs rest = decompose_trs(rig.data.bind_pose[static_cast<std::size_t>(track.bone_index)]);
    for (Keyframe& key : track.keys) {
      key.translation = rest.translation + glm::vec3(1e-7f, 0.f, 0.f);
      key.rotation = glm::normalize(rest.rotation + glm::quat(0.f, 1e-7f, 0.f, 0.f));
      key.scale = glm::vec3(1.0000001f, 1.f, 1.f);
    }
  }
  const RuntimeClip clip = compress_clip(still, rig.data, {});
  const CompressedClipData data = compressed_clip_data(clip);
  for (const CompressedChannel& ch : data.channels) {
    EXPECT_EQ(ch.key_times, std::vector<std::uint16_t>{0});
    EXPECT_EQ(ch.bits, (std::array<std::uint8_t, 3>{0, 0, 0}));
  }
  // Every channel is the rest (its scales, decomposed from rotation matrices, are 1 only up to a
  // rounding). Without it the clip is a pose that is not the identity: each block channel keeps
  // its lanes that are not the identity, 12 bytes each and 12 the block channel.
  std::size_t own = 0;
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t c = 0; c < 3; ++c) {
      const std::array<float, 3> identity = c == 2 ? std::array<float, 3>{1.f, 1.f, 1.f} : std::array<float, 3>{0.f, 0.f, 0.f};
      std::size_t lanes = 0;
      for (std::size_t l = 0; l < 8; ++l) {
        const CompressedChannel& ch = data.channels[3 * (8 * b + l) + c];
        lanes += ch.min != identity || (c == 1 && ch.packed != std::vector<std::uint8_t>{3});
      }
      own += lanes == 0 ? 0 : 12 + 12 * lanes;
    }
  }
  EXPECT_GT(own, 0u);
  EXPECT_EQ(make_compressed_clip("plain", still.duration, data).size_in_bytes() - clip.size_in_bytes(), own);
  SamplingContext context(16);
  std::vector<TrsBlock> pose(pose_block_count(16));
  ASSERT_TRUE((SamplingJob{&clip, still.duration / 2, &context, pose}.run()));
  for (std::size_t j = 0; j < 16; ++j) {
    const Trs rest = decompose_trs(rig.data.bind_pose[j]);
    EXPECT_EQ(pose_joint(pose, j).translation, rest.translation) << j;
    EXPECT_EQ(pose_joint(pose, j).scale, rest.scale) << j;
    EXPECT_LT(1.f - std::fabs(glm::dot(pose_joint(pose, j).rotation, rest.rotation)), 1e-6f) << j;
  }
}

TEST(CompressedClip, X1_ExactSlerpAndTheFarEndsOfTimeFollowTheRule) {
  for (bool segmented : {false, true}) {
  std::mt19937 rng(4);
  const Rig rig = smooth_rig(rng, 9, 30);
  ClipCompression options;
  options.segmented = segmented;
  const RuntimeClip clip = compress_clip(rig.clip, rig.data, options);
  const std::vector<ReconstructedJoint> keys = reconstructed_channels(clip);
  SamplingContext context(9), cached(9, CompressedKeys::cache);
  std::vector<TrsBlock> pose(pose_block_count(9));
  const Ticks extremes[] = {Ticks{std::numeric_limits<std::int64_t>::min()}, Ticks{-1}, Ticks{0}, rig.clip.duration,
                            Ticks{std::numeric_limits<std::int64_t>::max()}, Ticks{-1}};
  for (Ticks t : extremes) {
    for (bool exact : {false, true}) {
      for (SamplingContext* c : {&context, &cached}) {
        SamplingJob job{&clip, t, c, pose};
        job.exact_slerp = exact;
        ASSERT_TRUE(job.run());
        expect_matches_reconstruction(keys, pose, t);
      }
    }
  }
  }
}

TEST(CompressedClip, X1_AContextMovesBetweenCompressedAndCompiledClips) {
  std::mt19937 rng(8);
  const Rig rig = smooth_rig(rng, 11, 50);
  const RuntimeClip compressed = compress_clip(rig.clip, rig.data, ClipCompression{});
  const RuntimeClip compiled = compile_clip(rig.clip, rig.data);
  const std::vector<ReconstructedJoint> keys = reconstructed_channels(compressed);
  SamplingContext context(11, CompressedKeys::cache);
  std::vector<TrsBlock> a(pose_block_count(11)), b(pose_block_count(11));
  for (Ticks t : random_times(rng, rig.clip.duration, 100)) {
    ASSERT_TRUE((SamplingJob{&compressed, t, &context, a}.run()));
    expect_matches_reconstruction(keys, a, t);
    ASSERT_TRUE((SamplingJob{&compiled, t, &context, b}.run()));
    SamplingContext fresh(11);
    std::vector<TrsBlock> c(pose_block_count(11));
    ASSERT_TRUE((SamplingJob{&compiled, t, &fresh, c}.run()));
    ASSERT_EQ(std::memcmp(b.data(), c.data(), b.size() * sizeof(TrsBlock)), 0) << "t " << t.count();
  }
}

// The cache of decoded keys is memory, never a source of results: whatever times a context saw
// before (forward play in small steps, backwards, seeks, before and after the keys, another
// clip), a run gives the bits a context that decodes every run gives, at every SIMD level. Clip
// c's last block holds three joints and five padding lanes that repeat the third.
TEST(CompressedClip, X1_ACachedContextGivesTheBitsOfDecodingEveryRun) {
  std::mt19937 rng(31);
  const Rig rig_a = smooth_rig(rng, 21, 120), rig_b = smooth_rig(rng, 13, 70), rig_c = smooth_rig(rng, 19, 90);
  ClipCompression loose;
  loose.tolerance = 1e-2f;
  const RuntimeClip a = compress_clip(rig_a.clip, rig_a.data, loose), b = compress_clip(rig_b.clip, rig_b.data, {});
  const RuntimeClip c = compress_clip(rig_c.clip, rig_c.data, {});
  const Ticks step{kTicksPerSecond / 240};
  std::vector<std::pair<const RuntimeClip*, Ticks>> runs;
  for (Ticks t = -step * 5; t < c.duration() + step * 5; t += step) runs.emplace_back(&c, t);  // forward, padded
  for (Ticks t = -step * 5; t < a.duration() + step * 5; t += step) runs.emplace_back(&a, t);  // forward
  for (Ticks t = a.duration(); t > -step; t -= step * 3) runs.emplace_back(&a, t);             // backward
  for (Ticks t : random_times(rng, a.duration(), 200)) runs.emplace_back(&a, t);               // seeks and play
  for (int i = 0; i < 40; ++i) runs.emplace_back(i % 3 == 0 ? &b : i % 3 == 1 ? &c : &a, step * (7 * i));  // clip to clip
  runs.emplace_back(&a, Ticks{std::numeric_limits<std::int64_t>::min()});
  runs.emplace_back(&a, Ticks{std::numeric_limits<std::int64_t>::max()});
  runs.emplace_back(&a, Ticks{0});
  test::for_each_simd_level([&](SimdChoice) {
    SamplingContext cached(21, CompressedKeys::cache), plain(21);
    std::vector<TrsBlock> got(pose_block_count(21)), want(pose_block_count(21));
    for (const auto& [clip, t] : runs) {
      ASSERT_TRUE((SamplingJob{clip, t, &cached, got}.run()));
      ASSERT_TRUE((SamplingJob{clip, t, &plain, want}.run()));
      const std::size_t bytes = pose_block_count(clip->joint_count()) * sizeof(TrsBlock);
      ASSERT_EQ(std::memcmp(got.data(), want.data(), bytes), 0) << clip->name() << " t " << t.count();
    }
  });
  EXPECT_GT(SamplingContext(a).size_in_bytes(), SamplingContext(a.joint_count()).size_in_bytes() + 21 * 100);
}

TEST(CompressedClip, X3_TheJobRefusesBadInputWithoutWriting) {
  std::mt19937 rng(2);
  const Rig rig = smooth_rig(rng, 12, 20);
  const RuntimeClip clip = compress_clip(rig.clip, rig.data, ClipCompression{});
  SamplingContext small(11);
  std::vector<TrsBlock> short_pose(1);
  std::memset(short_pose.data(), 0x5a, sizeof(TrsBlock));
  const std::vector<TrsBlock> before = short_pose;
  SamplingContext context(12);
  EXPECT_STREQ((SamplingJob{&clip, Ticks{0}, &small, short_pose}.validate().field), "context");
  EXPECT_FALSE((SamplingJob{&clip, Ticks{0}, &small, short_pose}.run()));
  EXPECT_STREQ((SamplingJob{&clip, Ticks{0}, &context, short_pose}.validate().field), "output");
  EXPECT_FALSE((SamplingJob{&clip, Ticks{0}, &context, short_pose}.run()));
  EXPECT_EQ(std::memcmp(short_pose.data(), before.data(), sizeof(TrsBlock)), 0);
}

std::vector<fs::path> shared_animated_assets() {
  std::vector<fs::path> files;
  const fs::path root = fs::path(MARROW_SHARED_ASSETS);
  if (fs::is_directory(root / "gltf")) {
    for (const auto& entry : fs::recursive_directory_iterator(root / "gltf")) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".gltf" || ext == ".glb") files.push_back(entry.path());
    }
  }
  if (fs::exists(root / "perf" / "big_skinned.glb")) files.push_back(root / "perf" / "big_skinned.glb");
  std::sort(files.begin(), files.end());
  return files;
}

// Every skin clip of model, compressed at the default tolerance, against its source: the largest
// displacement of the points around every joint, over many times, stays under the tolerance.
void expect_error_under_tolerance(const Model& model, const std::string& label, int& clips, std::mt19937& rng,
                                  bool segmented = false) {
  ClipCompression options;  // 1 mm at 10 cm, in each model's units
  options.segmented = segmented;
  for (const Skin& skin : model.skins) {
    for (const auto& [name, clip] : skin.data.animation_clips) {
      SCOPED_TRACE(label + " clip " + name);
      const RuntimeClip source = compile_clip(clip, skin.data);
      const RuntimeClip compressed = compress_clip(clip, skin.data, options);
      const std::size_t joints = source.joint_count();
      int worst_joint = -1;
      const double worst = test::measured_error(clip, skin.data, compressed, options.distance, rng, &worst_joint);
      EXPECT_LT(worst, options.tolerance) << "joint " << worst_joint;
      std::printf("[ measured ] %s '%s': %zu joints, %zu -> %zu bytes, max displacement %.3g (tolerance %g)\n",
                  label.c_str(), name.c_str(), joints, source.size_in_bytes(), compressed.size_in_bytes(), worst,
                  double{options.tolerance});
      ++clips;
    }
  }
}

TEST(CompressedClip, X1_ObjectSpaceErrorStaysUnderTheToleranceOnEverySharedAsset) {
  const std::vector<fs::path> files = shared_animated_assets();
  if (files.empty()) GTEST_SKIP() << "shared assets not found at " << MARROW_SHARED_ASSETS << " (gltf/, perf/big_skinned.glb)";
  int clips = 0;
  std::mt19937 rng(1);
  for (const fs::path& file : files) {
    ModelFileOptions load;
    load.import.max_palette = 256;
    expect_error_under_tolerance(load_model_file(file, load), file.filename().string(), clips, rng);
  }
  EXPECT_GE(clips, 6);  // CesiumMan, Fox (3), RiggedSimple, SimpleSkin, big_skinned
}

// The same on the synthetic conformance fixtures (STEP and CUBICSPLINE channels, a scaled
// armature with reversed joints) and the built-in character.
TEST(CompressedClip, X1_ObjectSpaceErrorStaysUnderTheToleranceOnTheFixtures) {
  int clips = 0;
  std::mt19937 rng(2);
  for (const test::ConformanceFixture& f : test::conformance_fixtures()) {
    ImportOptions options;
    options.max_palette = 256;
    expect_error_under_tolerance(import_gltf(f.glb, options), f.name, clips, rng);
    expect_error_under_tolerance(import_gltf(f.glb, options), f.name + " (segmented)", clips, rng, true);
  }
  expect_error_under_tolerance(make_demo_character(), "demo character", clips, rng);
  expect_error_under_tolerance(make_demo_character(), "demo character (segmented)", clips, rng, true);
  EXPECT_GE(clips, 8);
}

// ImportOptions::compression compresses every skin clip at import; the Animator then plays the
// compressed clips (compile_animations shares them), within the tolerance of the plain import.
TEST(CompressedClip, X1_TheImportOptionCompressesClipsAndTheAnimatorPlaysThem) {
  const fs::path file = fs::path(MARROW_SHARED_ASSETS) / "gltf/CesiumMan/cesium_man.gltf";
  if (!fs::exists(file)) GTEST_SKIP() << "shared asset not found: " << file;
  ModelFileOptions plain_options, options;
  options.import.compression = ClipCompression{};
  const Model plain = load_model_file(file, plain_options);
  const Model model = load_model_file(file, options);
  ASSERT_FALSE(model.skins.empty());
  for (const Skin& skin : model.skins) {
    ASSERT_FALSE(skin.data.animation_clips.empty());
    EXPECT_EQ(skin.compressed_clips.size(), skin.data.animation_clips.size());
  }
  EXPECT_TRUE(plain.skins[0].compressed_clips.empty());
  const auto compiled = compile_animations(model);
  ASSERT_NE(compiled->animations[0].skin_clips[0], nullptr);
  EXPECT_TRUE(compiled->animations[0].skin_clips[0]->compressed());
  EXPECT_EQ(compiled->animations[0].skin_clips[0]->id(), model.skins[0].compressed_clips.begin()->second.id());
  Animator a(plain), b(model, compiled);
  a.play(0);
  b.play(0);
  double worst = 0;
  for (int i = 0; i <= 40; ++i) {
    const Ticks t = ticks_from_seconds(0.05 * i);
    a.update(t, false, false);
    b.update(t, false, false);
    const auto x = a.absolute_bone_transforms(), y = b.absolute_bone_transforms();
    for (std::size_t j = 0; j < x.size(); ++j) worst = std::max(worst, double(glm::length(glm::vec3(x[j][3]) - glm::vec3(y[j][3]))));
  }
  EXPECT_GT(worst, 0.0);  // lossy: the compressed clip really plays
  EXPECT_LT(worst, ClipCompression{}.tolerance);
}

TEST(CompressedClip, CompressModelClipsRefusesBadTolerances) {
  Model model;
  for (float tolerance : {0.f, -1.f, std::nanf(""), INFINITY}) {
    EXPECT_THROW(compress_model_clips(model, ClipCompression{tolerance, 0.1f}), std::invalid_argument) << tolerance;
  }
  EXPECT_THROW(compress_model_clips(model, ClipCompression{0.001f, -1.f}), std::invalid_argument);
}

}  // namespace
}  // namespace marrow
