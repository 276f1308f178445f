#include "marrow/runtime/offline/clip_compression.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <limits>
#include <stdexcept>
#include <string>

#include <glm/gtc/type_ptr.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/core/shown_number.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skinning_data.hpp"
#include "marrow/runtime/track_sampler.hpp"

#include "key_reduction.hpp"
#include "time_grid.hpp"
#include "segment_encoder.hpp"
#include "object_space_error.hpp"
#include "runtime/compressed_storage.hpp"
#include "key_codec.hpp"

namespace marrow {

namespace {

using detail::ChannelKind;

// Joints times key times the compression may work on (each pass samples and composes both
// clips at twice that many instants).
constexpr std::size_t kMaxWork = std::size_t{1} << 23;
// The measured error must stay below this share of the tolerance: the measure looks at every
// key time and half-way between, and the error between those instants may be a little larger.
constexpr double kTarget = 0.95;
constexpr int kMaxPasses = 40;
// Each channel's share of its joint's budget (their errors add): rotations take the most keys
// and bits, so translations and scales, cheaper to keep precise, take half.
constexpr double kShare[3] = {0.5, 1.0, 0.5};

[[noreturn]] void refuse(const AnimationClip& clip, const std::string& why) {
  throw std::invalid_argument("compress_clip: clip '" + clip.name + "': " + why);
}

// The source clip on the clip's time table: each animated joint's values at every time from its
// first key to its last (between them the source is linear in each channel, so these samples
// are the whole of it), the rest of the others.
struct Source {
  std::vector<std::int64_t> times;
  std::vector<std::int64_t> off_grid;   // the source's key times the table moved onto a grid (time_grid.hpp)
  std::vector<const BoneTrack*> track;  // per joint; null: the rest pose
  std::vector<std::size_t> first;       // per joint: time index of its first sample
  std::vector<std::vector<Trs>> samples;
  std::vector<Trs> rest;
};

// Two keys of one track close in time make a step unless they hold the same pose (within float
// noise: glTF channels of one joint ending a tick apart, merged into one track).
bool same_pose(const Keyframe& a, const Keyframe& b) {
  const auto near = [](const glm::vec3& u, const glm::vec3& v) {
    const glm::vec3 d = glm::abs(u - v);
    return std::max({d.x, d.y, d.z}) <= 1e-6f * std::max({1.f, std::fabs(u.x), std::fabs(u.y), std::fabs(u.z)});
  };
  const glm::vec4 dq = glm::abs(glm::vec4(a.rotation.x - b.rotation.x, a.rotation.y - b.rotation.y, a.rotation.z - b.rotation.z,
                                          a.rotation.w - b.rotation.w));
  return near(a.translation, b.translation) && near(a.scale, b.scale) && std::max({dq.x, dq.y, dq.z, dq.w}) <= 1e-6f;
}

// The table on the grid its times lie near, if any: the times it moved are kept to be measured.
void move_onto_grid(Source& s) {
  std::int64_t least_gap = std::numeric_limits<std::int64_t>::max();
  for (const BoneTrack* track : s.track) {
    if (track == nullptr) continue;
    for (std::size_t k = 1; k < track->keys.size(); ++k)
      if (!same_pose(track->keys[k - 1], track->keys[k])) least_gap = std::min(least_gap, (track->keys[k].time - track->keys[k - 1].time).count());
  }
  std::optional<std::vector<std::int64_t>> grid = detail::near_grid(s.times, least_gap);
  if (!grid) return;
  std::set_difference(s.times.begin(), s.times.end(), grid->begin(), grid->end(), std::back_inserter(s.off_grid));
  s.times = std::move(*grid);
}

// on_grid: the table may be moved onto a grid the key times lie near (near_grid).
Source sample_source(const AnimationClip& clip, const SkinningData& skeleton, bool on_grid) {
  const std::size_t joints = static_cast<std::size_t>(skeleton.bone_count);
  Source s;
  s.track.assign(joints, nullptr);
  for (const BoneTrack& track : clip.tracks) {
    if (track.keys.empty() || track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= joints) continue;
    s.track[static_cast<std::size_t>(track.bone_index)] = &track;  // the later wins, as sample_tracks
  }
  for (std::size_t j = 0; j < joints; ++j) {
    if (s.track[j] == nullptr) continue;
    const std::vector<Keyframe>& keys = s.track[j]->keys;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      s.times.push_back(keys[k].time.count());
      // Equal times: the earlier key is the limit from the left, the later holds from that
      // instant on; the tick before keeps the step (no tick lies between the two).
      if (k > 0 && keys[k].time == keys[k - 1].time && keys[k].time.count() > std::numeric_limits<std::int64_t>::min()) {
        s.times.push_back(keys[k].time.count() - 1);
      }
      const glm::quat& q = keys[k].rotation;
      const float length = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
      if (!(std::fabs(length - 1.f) <= 1e-3f)) {
        refuse(clip, "joint " + std::to_string(j) + " key " + std::to_string(k) + " rotation is not a unit quaternion (length " +
                         std::to_string(length) + ")");
      }
    }
    if (s.times.size() > std::size_t{1} << 28) refuse(clip, "too many key times to compress");
  }
  std::sort(s.times.begin(), s.times.end());
  s.times.erase(std::unique(s.times.begin(), s.times.end()), s.times.end());
  if (s.times.empty()) s.times.push_back(0);
  if (on_grid) move_onto_grid(s);
  if (s.times.size() > kCompressedMaxTimes) {
    refuse(clip, std::to_string(s.times.size()) + " distinct key times, more than a compressed clip holds (" +
                     std::to_string(kCompressedMaxTimes) + ")");
  }
  if (static_cast<std::uint64_t>(s.times.back()) - static_cast<std::uint64_t>(s.times.front()) >=
      static_cast<std::uint64_t>(detail::kMaxCompressedSpan)) {
    refuse(clip, "its key times span 2^52 ticks (14 years) or more");
  }
  if (joints * s.times.size() > kMaxWork) {
    refuse(clip, std::to_string(joints) + " joints times " + std::to_string(s.times.size()) +
                     " key times is more than the compression works on (" + std::to_string(kMaxWork) + ")");
  }
  s.first.assign(joints, 0);
  s.samples.resize(joints);
  s.rest.resize(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    s.rest[j] = decompose_trs(skeleton.bind_pose[j]);
    if (s.track[j] == nullptr) continue;
    const std::vector<Keyframe>& keys = s.track[j]->keys;
    // The table's time nearest a key time (the key's own unless the table was moved onto a grid).
    const auto at = [&](Ticks t) {
      const auto i = static_cast<std::size_t>(std::lower_bound(s.times.begin(), s.times.end(), t.count()) - s.times.begin());
      if (i == s.times.size() || (i > 0 && t.count() - s.times[i - 1] < s.times[i] - t.count())) return i - 1;
      return i;
    };
    const std::size_t first = at(keys.front().time), last = at(keys.back().time);
    s.first[j] = first;
    TrackCursor cursor;
    for (std::size_t i = first; i <= last; ++i) s.samples[j].push_back(sample_track(keys, Ticks{s.times[i]}, cursor));
  }
  return s;
}

glm::dvec4 channel_value(ChannelKind kind, const Trs& trs) {
  switch (kind) {
    case ChannelKind::Translation: return {trs.translation, 0};
    case ChannelKind::Rotation: return {trs.rotation.x, trs.rotation.y, trs.rotation.z, trs.rotation.w};
    case ChannelKind::Scale: return {trs.scale, 0};
  }
  return {};
}

// How far a unit of each channel's error moves the points the clip is measured on (model
// units): a joint's error moves the points around it and every point below it.
struct Sensitivity {
  double translation, rotation, scale;
};

std::vector<Sensitivity> sensitivities(const Source& s, const SkinningData& skeleton, double distance) {
  const std::size_t joints = s.rest.size();
  std::vector<double> max_t(joints, 0), max_s(joints, 0), reach(joints, distance), parent_scale(joints, 1);
  for (std::size_t j = 0; j < joints; ++j) {
    const auto visit = [&](const Trs& v) {
      max_t[j] = std::max(max_t[j], static_cast<double>(glm::length(v.translation)));
      max_s[j] = std::max({max_s[j], std::fabs(double{v.scale.x}), std::fabs(double{v.scale.y}), std::fabs(double{v.scale.z})});
    };
    if (s.track[j] == nullptr) visit(s.rest[j]);
    for (const Trs& v : s.samples[j]) visit(v);
  }
  // reach[j]: how far from joint j, in its frame, the points it carries lie: its own at
  // `distance`, each child's at the child's offset plus the child's reach, scaled.
  for (std::size_t j = joints; j-- > 0;) {
    const int parent = skeleton.skeleton_hierarchy[j];
    if (parent >= 0) {
      const auto p = static_cast<std::size_t>(parent);
      reach[p] = std::max(reach[p], max_t[j] + max_s[j] * reach[j]);
    }
  }
  // parent_scale[j]: the most the parent's model matrix stretches (the root prefix for a root).
  for (std::size_t j = 0; j < joints; ++j) {
    const int parent = skeleton.skeleton_hierarchy[j];
    if (parent >= 0) {
      const auto p = static_cast<std::size_t>(parent);
      parent_scale[j] = parent_scale[p] * max_s[p];
    } else if (has_root_prefix(skeleton)) {
      parent_scale[j] = detail::largest_singular_value(glm::dmat3(glm::mat3(skeleton.skeleton_root_prefix[j])));
    }
  }
  std::vector<Sensitivity> out(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    out[j] = {parent_scale[j], parent_scale[j] * max_s[j] * reach[j], parent_scale[j] * reach[j]};
  }
  return out;
}

// A channel's samples quantised at some precision, and the keys that would play.
struct Quantised {
  std::array<std::uint8_t, 3> bits{};
  std::array<float, 3> min{}, step{};
  std::vector<detail::PackedKey> keys;
  std::vector<glm::dvec4> candidates;  // the decoded keys
  double error = 0;                    // the largest distance from a source value
};

// The components a channel quantises: translation and scale as they are (a uniform scale: x
// alone), rotations as their smallest three (and which one was dropped).
struct Parts {
  std::vector<glm::dvec3> values;
  std::vector<std::uint32_t> dropped;
  glm::dvec3 lo{0}, hi{0};
  bool uniform = false;
};

Parts parts_of(ChannelKind kind, std::span<const glm::dvec4> source, bool uniform) {
  Parts p;
  p.uniform = uniform;
  for (const glm::dvec4& v : source) {
    if (kind == ChannelKind::Rotation) {
      const detail::SmallestThree s = detail::smallest_three(glm::value_ptr(v));
      p.dropped.push_back(static_cast<std::uint32_t>(s.dropped));
      p.values.emplace_back(s.kept[0], s.kept[1], s.kept[2]);
    } else {
      p.dropped.push_back(0);
      p.values.emplace_back(v.x, uniform ? 0 : v.y, uniform ? 0 : v.z);
    }
  }
  p.lo = p.hi = p.values[0];
  for (const glm::dvec3& v : p.values) p.lo = glm::min(p.lo, v), p.hi = glm::max(p.hi, v);
  return p;
}

// Precision `level` (0 to 18): every component's step at most the widest range over
// 2^level - 1, each with the fewest bits that give it (none for a component that does not vary).
Quantised quantise(ChannelKind kind, const Parts& parts, std::span<const glm::dvec4> source, unsigned level) {
  Quantised out;
  const glm::dvec3 range = parts.hi - parts.lo;
  const double widest = std::max({range.x, range.y, range.z});
  for (std::size_t c = 0; c < 3; ++c) {
    const auto k = static_cast<glm::length_t>(c);
    out.min[c] = static_cast<float>(parts.lo[k]);
    const double r = parts.hi[k] - static_cast<double>(out.min[c]);
    const unsigned bits = detail::level_bits(r, widest, level);
    out.bits[c] = static_cast<std::uint8_t>(bits);
    const double levels = static_cast<double>((std::uint32_t{1} << bits) - 1);
    out.step[c] = bits > 0 ? static_cast<float>(r / levels) : 0.f;
    if (!std::isfinite(out.step[c]) || !std::isfinite(out.min[c] + static_cast<float>(levels) * out.step[c])) {
      throw std::invalid_argument("a channel's range is too large to quantise");
    }
  }
  const std::size_t n = parts.values.size();
  out.keys.resize(n);
  out.candidates.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    detail::PackedKey& key = out.keys[i];
    key.dropped = parts.dropped[i];
    float decoded[4] = {0, 0, 0, 0};
    for (std::size_t c = 0; c < 3; ++c) {
      const double x = parts.values[i][static_cast<glm::length_t>(c)];
      const double levels = static_cast<double>((std::uint32_t{1} << out.bits[c]) - 1);
      const double q = out.step[c] > 0 ? std::round((x - static_cast<double>(out.min[c])) / static_cast<double>(out.step[c])) : 0;
      key.q[c] = static_cast<std::uint32_t>(std::clamp(q, 0.0, levels));
      decoded[c] = detail::dequantise(key.q[c], out.min[c], out.step[c]);
    }
    if (parts.uniform) decoded[1] = decoded[2] = decoded[0];
    if (kind == ChannelKind::Rotation) {
      detail::rotation_of_smallest_three(static_cast<int>(key.dropped), decoded[0], decoded[1], decoded[2], decoded);
    }
    out.candidates[i] = glm::dvec4(decoded[0], decoded[1], decoded[2], decoded[3]);
    out.error = std::max(out.error, detail::channel_distance(kind, out.candidates[i], source[i]));
  }
  return out;
}

CompressedChannel channel_of(ChannelKind kind, std::size_t first, const Parts& parts, const Quantised& q,
                             std::span<const std::uint32_t> kept) {
  CompressedChannel out;
  out.bits = q.bits;
  out.uniform = parts.uniform;
  out.min = q.min;
  out.step = q.step;
  detail::KeyPacker packer(out.packed);
  for (std::uint32_t i : kept) {
    out.key_times.push_back(static_cast<std::uint16_t>(first + i));
    packer.put_key(q.keys[i], q.bits, kind == ChannelKind::Rotation);
  }
  return out;
}

// The kept samples with one added wherever two would skip a whole word of the time table (the
// sampler finds a key's neighbours only in the words next to the time's: compressed_storage.hpp).
std::vector<std::uint32_t> every_word(const std::vector<std::uint32_t>& kept, std::size_t first) {
  constexpr std::size_t kWord = kCompressedTimesPerWord;
  std::vector<std::uint32_t> out{kept[0]};
  for (std::size_t i = 1; i < kept.size(); ++i) {
    while ((first + kept[i]) / kWord - (first + out.back()) / kWord > 1) {
      out.push_back(static_cast<std::uint32_t>(((first + out.back()) / kWord + 1) * kWord - first));
    }
    out.push_back(kept[i]);
  }
  return out;
}

// More precision than the least that the tolerance allows may keep fewer keys: this many more
// levels are tried, and the smallest result kept.
constexpr unsigned kExtraLevelsTried = 4;

// A channel's identity: translation 0, rotation (0, 0, 0, 1), scale 1.
glm::dvec4 identity_of(ChannelKind kind) {
  switch (kind) {
    case ChannelKind::Translation: return glm::dvec4(0.0);
    case ChannelKind::Rotation: return {0.0, 0.0, 0.0, 1.0};
    case ChannelKind::Scale: return {1.0, 1.0, 1.0, 0.0};
  }
  return {};
}

// One channel quantised and reduced for a tolerance in the channel's own units.
CompressedChannel encode_channel(ChannelKind kind, std::span<const std::int64_t> times, std::size_t first,
                                 std::span<const glm::dvec4> source, const glm::dvec4& rest, double tolerance, bool segmented) {
  const std::size_t n = source.size();
  // A scale whose y and z follow x within a sixteenth of the tolerance is stored as x alone.
  bool uniform = kind == ChannelKind::Scale;
  for (std::size_t i = 0; i < n && uniform; ++i) {
    uniform = std::fabs(source[i].y - source[i].x) <= tolerance / 16 && std::fabs(source[i].z - source[i].x) <= tolerance / 16;
  }
  // A constant: one value within the tolerance of every sample (the middle of the range; for
  // rotations the normalised mean), stored exactly with no bits.
  glm::dvec4 middle(0);
  if (kind == ChannelKind::Rotation) {
    for (const glm::dvec4& q : source) {
      const double dot = q.x * source[0].x + q.y * source[0].y + q.z * source[0].z + q.w * source[0].w;
      middle += dot < 0 ? -q : q;
    }
    middle = detail::channel_blend(kind, middle, middle, 0);
  } else {
    glm::dvec4 lo = source[0], hi = source[0];
    for (const glm::dvec4& v : source) lo = glm::min(lo, v), hi = glm::max(hi, v);
    middle = (lo + hi) * 0.5;
  }
  const auto within = [&](const glm::dvec4& value) {
    for (const glm::dvec4& v : source) {
      if (!(detail::channel_distance(kind, value, v) <= tolerance)) return false;
    }
    return true;
  };
  // The joint's rest, else the identity, within the tolerance: stored as it is, its key at the
  // first time (a block of eight such lanes is stored as nothing, kRestChannel or
  // kIdentityChannel; a constant's key time does not play).
  for (const glm::dvec4& exact : {rest, identity_of(kind)}) {
    if (!within(exact)) continue;
    const glm::dvec4 value[1] = {exact};
    const Parts parts = parts_of(kind, value, false);
    const std::uint32_t kept[1] = {0};
    return channel_of(kind, 0, parts, quantise(kind, parts, value, 0), kept);
  }
  if (n == 1 || within(middle)) {
    const glm::dvec4 value[1] = {n == 1 ? source[0] : middle};
    const Parts parts = parts_of(kind, value, false);
    const std::uint32_t kept[1] = {0};
    return channel_of(kind, first, parts, quantise(kind, parts, value, 0), kept);
  }
  if (segmented) {
    // Every time of the table: before its first key and after its last, the channel holds.
    std::vector<glm::dvec4> full(times.size());
    for (std::size_t i = 0; i < times.size(); ++i) full[i] = source[std::clamp(i, first, first + n - 1) - first];
    return detail::encode_segmented(kind, times, full, tolerance);
  }
  const Parts parts = parts_of(kind, source, uniform);
  // The least precision whose rounding alone stays within the tolerance (or the most there is).
  unsigned lo = 1, hi = detail::kMaxKeyBits;
  while (lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    if (quantise(kind, parts, source, mid).error <= tolerance) hi = mid; else lo = mid + 1;
  }
  const std::span<const std::int64_t> span = times.subspan(first, n);
  CompressedChannel best;
  std::size_t best_bits = std::numeric_limits<std::size_t>::max();
  for (unsigned level = lo; level <= std::min(detail::kMaxKeyBits, lo + kExtraLevelsTried); ++level) {
    const Quantised q = quantise(kind, parts, source, level);
    const std::vector<std::uint32_t> kept = every_word(detail::reduce_keys(kind, span, source, q.candidates, tolerance), first);
    const std::size_t size = kept.size() * compressed_key_width(q.bits, static_cast<std::size_t>(kind));
    if (size < best_bits) {
      best_bits = size;
      best = channel_of(kind, first, parts, q, kept);
    }
  }
  return best;
}

glm::dmat4 local_matrix(const Trs& trs) { return glm::dmat4(compose_trs(trs)); }

// Per joint, the largest displacement of the points around it, source against candidate, at
// every time of the table and half-way between consecutive ones.
std::vector<double> measure(const Source& s, const SkinningData& skeleton, const RuntimeClip& candidate, double distance) {
  const std::size_t joints = s.rest.size();
  std::vector<double> error(joints, 0);
  SamplingContext context(joints, CompressedKeys::cache);
  std::vector<TrsBlock> pose(pose_block_count(joints));
  std::vector<TrackCursor> cursors(joints);
  std::vector<glm::dmat4> source(joints), played(joints);
  const bool prefix = has_root_prefix(skeleton);
  const std::size_t n = s.times.size();
  // Every time, half-way to the next, and the tick before each segment's first time, where the
  // segment before plays its own copy of that sample (compressed_clip_data.hpp); then the
  // source's key times the table moved onto a grid.
  for (std::size_t step = 0; step < 3 * n - 2 + s.off_grid.size(); ++step) {
    const bool moved = step >= 3 * n - 2;
    const std::size_t i = moved ? 0 : step / 3;
    const bool between = moved || step % 3 != 0;
    const bool boundary = !moved && step % 3 == 2;
    if (boundary && ((i + 1) % kCompressedSegmentLength != 0 || s.times[i + 1] - 1 <= s.times[i])) continue;
    const Ticks t{moved     ? s.off_grid[step - (3 * n - 2)]
                  : boundary ? s.times[i + 1] - 1
                  : between  ? s.times[i] + static_cast<std::int64_t>(
                                                (static_cast<std::uint64_t>(s.times[i + 1]) - static_cast<std::uint64_t>(s.times[i])) / 2)
                             : s.times[i]};
    SamplingJob{&candidate, t, &context, pose}.run();
    for (std::size_t j = 0; j < joints; ++j) {
      Trs local;
      if (s.track[j] == nullptr) {
        local = s.rest[j];
      } else if (!between) {
        const std::size_t k = std::clamp(i, s.first[j], s.first[j] + s.samples[j].size() - 1) - s.first[j];
        local = s.samples[j][k];
      } else {
        local = sample_track(s.track[j]->keys, t, cursors[j]);
      }
      const int parent = skeleton.skeleton_hierarchy[j];
      const glm::dmat4 root = prefix ? glm::dmat4(skeleton.skeleton_root_prefix[j]) : glm::dmat4(1.0);
      const glm::dmat4 a = local_matrix(local), b = local_matrix(pose_joint(pose, j));
      source[j] = (parent >= 0 ? source[static_cast<std::size_t>(parent)] : root) * a;
      played[j] = (parent >= 0 ? played[static_cast<std::size_t>(parent)] : root) * b;
      error[j] = std::max(error[j], detail::displacement_bound(source[j], played[j], distance));
    }
  }
  return error;
}

RuntimeClip compress_source(const AnimationClip& clip, const Source& s, const SkinningData& skeleton, const ClipCompression& options,
                            CompressionReport* report, const std::shared_ptr<const CompressedRestPose>& rest);

}  // namespace

std::string compression_refusal(const ClipCompression& options) {
  if (!(options.tolerance > 0.f) || !std::isfinite(options.tolerance)) {
    return "tolerance " + shown_number(options.tolerance) + " is not positive and finite";
  }
  if (!(options.distance >= 0.f) || !std::isfinite(options.distance)) {
    return "distance " + shown_number(options.distance) + " is not a length (finite and not negative)";
  }
  return {};
}

RuntimeClip compress_clip(const AnimationClip& clip, const SkinningData& skeleton, const ClipCompression& options,
                          CompressionReport* report, std::shared_ptr<const CompressedRestPose> rest) {
  if (clip.target_space != ClipTargetSpace::JointPalette) {
    throw std::invalid_argument("compress_clip: clip '" + clip.name + "' targets scene nodes, not a skeleton");
  }
  if (const std::string why = compression_refusal(options); !why.empty()) throw std::invalid_argument("compress_clip: " + why);
  validate(skeleton);
  validate_clip(clip);
  if (rest == nullptr) rest = compressed_rest_pose(skeleton.bind_pose);
  // On the grid the key times lie near (their bytes saved), unless that misses the bound where
  // the exact times would not.
  const Source on_grid = sample_source(clip, skeleton, true);
  if (on_grid.off_grid.empty()) return compress_source(clip, on_grid, skeleton, options, report, rest);
  try {
    return compress_source(clip, on_grid, skeleton, options, report, rest);
  } catch (const std::invalid_argument&) {
    return compress_source(clip, sample_source(clip, skeleton, false), skeleton, options, report, rest);
  }
}

namespace {

RuntimeClip compress_source(const AnimationClip& clip, const Source& s, const SkinningData& skeleton, const ClipCompression& options,
                            CompressionReport* report, const std::shared_ptr<const CompressedRestPose>& rest) {
  const std::size_t joints = s.rest.size();
  const double tolerance = options.tolerance, distance = options.distance;
  const double target = kTarget * tolerance;
  const std::vector<Sensitivity> sensitivity = sensitivities(s, skeleton, distance);
  const auto tolerance_of = [](double budget, double per_unit) {
    return per_unit > 0 ? budget / per_unit : std::numeric_limits<double>::infinity();
  };

  CompressedClipData data;
  data.times.reserve(s.times.size());
  for (std::int64_t t : s.times) data.times.push_back(Ticks{t});
  data.channels.resize(3 * joints);
  data.animated.assign(joints, 0);
  std::vector<double> budget(joints, target), encoded_at(joints, -1);
  std::vector<std::vector<glm::dvec4>> values(3 * joints);
  for (std::size_t j = 0; j < joints; ++j) {
    data.animated[j] = s.track[j] != nullptr;
    for (int c = 0; c < 3; ++c) {
      const auto kind = static_cast<ChannelKind>(c);
      std::vector<glm::dvec4>& v = values[3 * j + static_cast<std::size_t>(c)];
      if (s.track[j] == nullptr) {
        v.push_back(channel_value(kind, s.rest[j]));
      } else {
        for (const Trs& trs : s.samples[j]) v.push_back(channel_value(kind, trs));
      }
    }
  }

  CompressionReport r;
  for (const BoneTrack* track : s.track) r.source_keys += track != nullptr ? 3 * track->keys.size() : 0;
  RuntimeClip best;
  for (int pass = 1;; ++pass) {
    for (std::size_t j = 0; j < joints; ++j) {
      if (encoded_at[j] == budget[j]) continue;
      encoded_at[j] = budget[j];
      const Sensitivity& k = sensitivity[j];
      const double per_channel[3] = {tolerance_of(budget[j] * kShare[0], k.translation),
                                     tolerance_of(budget[j] * kShare[1], k.rotation), tolerance_of(budget[j] * kShare[2], k.scale)};
      for (std::size_t c = 0; c < 3; ++c) {
        try {
          const auto kind = static_cast<ChannelKind>(c);
          data.channels[3 * j + c] =
              encode_channel(kind, s.times, s.first[j], values[3 * j + c], channel_value(kind, s.rest[j]), per_channel[c], options.segmented);
        } catch (const std::invalid_argument& e) {
          refuse(clip, "joint " + std::to_string(j) + ": " + e.what());
        }
      }
    }
    RuntimeClip candidate = make_compressed_clip(clip.name, clip.duration, data, rest);
    const std::vector<double> error = measure(s, skeleton, candidate, distance);
    const auto worst = std::max_element(error.begin(), error.end());
    r.passes = pass;
    r.max_error = worst != error.end() ? *worst : 0;
    r.max_error_joint = worst != error.end() ? static_cast<int>(worst - error.begin()) : -1;
    if (r.max_error <= target) {
      best = std::move(candidate);
      break;
    }
    // A joint whose points moved too far: its share and its ancestors' shrink, so that the sum
    // of their errors there (about proportional to the shares) fits. The first passes shrink by
    // a root of the excess (errors fall faster than the shares: a share shrinks every joint
    // below it), the power reaching 1 at pass 12: 1.2 % fewer bytes over the shared clips than
    // shrinking by the excess from the start, for about 30 % more passes.
    std::vector<double> factor(joints, 1);
    const double gentle = std::min(1.0, 0.25 + 0.0625 * pass);
    for (std::size_t j = 0; j < joints; ++j) {
      if (error[j] > target) factor[j] = std::max(0.25, 0.97 * std::pow(target / error[j], gentle));
    }
    for (std::size_t j = joints; j-- > 0;) {
      const int parent = skeleton.skeleton_hierarchy[j];
      if (parent >= 0) factor[static_cast<std::size_t>(parent)] = std::min(factor[static_cast<std::size_t>(parent)], factor[j]);
    }
    bool shrunk = false;
    for (std::size_t j = 0; j < joints; ++j) {
      if (factor[j] < 1 && budget[j] > 1e-6 * target) {
        budget[j] = budget[j] * factor[j] < 1e-6 * target ? 0 : budget[j] * factor[j];
        shrunk = true;
      }
    }
    if (!shrunk || pass == kMaxPasses) {
      refuse(clip, "the tolerance " + shown_number(tolerance) + " cannot be met (joint " + std::to_string(r.max_error_joint) +
                       " moves " + shown_number(r.max_error) +
                       " with every key kept at the most bits; the tolerance is in the model's units: 1 mm at 10 cm is 0.001"
                       " in metres, 0.1 in centimetres)");
    }
  }
  r.kept_keys = best.key_count();
  if (report != nullptr) *report = r;
  return best;
}

}  // namespace

}  // namespace marrow
