// The runtime jobs' validate() and run() on hostile inputs (X3): sizes that disagree, parents
// out of order, joint indices outside the palette, any influence count and row stride, both
// skinning modes, NaN and infinite values, any time, weights
// and masks of any value and size, overlapping outputs, degenerate IK chains. For each job:
// run() returns exactly what validate() says, writes nothing when refused, and never touches
// memory outside its spans (ASan) or has undefined behaviour (UBSan). Also the playback clock
// (any duration, rate, mode and step: the time stays in the clip) and the markers it reaches.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "marrow/runtime/additive_pose.hpp"
#include "marrow/runtime/aim_ik_job.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/clip_markers.hpp"
#include "marrow/runtime/dual_quaternion_palette_job.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/morph_blend_job.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"
#include "marrow/runtime/skinning_job.hpp"
#include "marrow/runtime/two_bone_ik_job.hpp"
#include "simd_choice.hpp"

namespace {

using namespace marrow;

float value(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -std::numeric_limits<float>::infinity();
    case 3: return in.ConsumeFloatingPoint<float>();
    default: return in.ConsumeFloatingPointInRange<float>(-4.f, 4.f);
  }
}

glm::mat4 matrix(FuzzedDataProvider& in) {
  glm::mat4 m(1.f);
  if (in.ConsumeBool()) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) m[c][r] = value(in);
    }
  }
  return m;
}

std::vector<glm::mat4> matrices(FuzzedDataProvider& in, std::size_t n) {
  std::vector<glm::mat4> out(n);
  for (glm::mat4& m : out) m = matrix(in);
  return out;
}

// A size near n: often n, sometimes off by a little, sometimes 0.
std::size_t near_size(FuzzedDataProvider& in, std::size_t n) {
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: return 0;
    case 1: return n + 1;
    case 2: return n > 0 ? n - 1 : 0;
    default: return n;
  }
}

// Runs a job on outputs filled with a sentinel: refused -> false and untouched; else true.
// SkinningJob::run() leaves the O(vertices) joint scan to validate() and clamps instead, so a
// joint outside the palette is the one refusal run() does not repeat.
template <class Job, class Output>
bool check(const Job& job, const Output& output, const Output& before) {
  const JobStatus status = job.validate();
  const bool clamped = !status && std::strcmp(status.problem, "has an index outside the palette") == 0;
  const bool ran = job.run();
  if (ran != (status.ok() || clamped)) std::abort();
  if (!ran && !output.empty() && std::memcmp(output.data(), before.data(), output.size() * sizeof(output[0])) != 0) {
    std::abort();
  }
  return ran;
}

void local_to_model(FuzzedDataProvider& in) {
  const std::size_t n = in.ConsumeIntegralInRange<std::size_t>(0, 40);
  std::vector<int> parents(n);
  for (std::size_t i = 0; i < n; ++i) {
    parents[i] = in.ConsumeBool() ? static_cast<int>(i) - 1 : in.ConsumeIntegralInRange<int>(-3, 45);
  }
  const std::vector<glm::mat4> locals = matrices(in, near_size(in, n)), prefix = matrices(in, near_size(in, n));
  std::vector<TrsBlock> pose(near_size(in, pose_block_count(n)));
  for (TrsBlock& b : pose) {
    for (auto* row : {&b.t[0], &b.t[1], &b.t[2], &b.q[0], &b.q[1], &b.q[2], &b.q[3], &b.s[0], &b.s[1], &b.s[2]}) {
      for (float& x : *row) x = value(in);
    }
  }
  const glm::mat4 root = matrix(in);
  std::vector<glm::mat4> models(near_size(in, n), glm::mat4(7.f));
  const std::vector<glm::mat4> before = models;
  LocalToModelJob job;
  job.parents = parents;
  if (in.ConsumeBool()) job.local_pose = pose;
  if (in.ConsumeBool()) job.local_matrices = locals;
  if (in.ConsumeBool()) job.root_prefix = prefix;
  if (in.ConsumeBool()) job.root = &root;
  job.from = in.ConsumeIntegralInRange<std::size_t>(0, n + 2);
  job.to = in.ConsumeBool() ? std::numeric_limits<std::size_t>::max() : in.ConsumeIntegralInRange<std::size_t>(0, n + 2);
  job.models = models;
  check(job, models, before);
}

void palette(FuzzedDataProvider& in) {
  const std::size_t joints = in.ConsumeIntegralInRange<std::size_t>(0, 40);
  const std::size_t n = in.ConsumeIntegralInRange<std::size_t>(0, 40);
  const std::vector<glm::mat4> models = matrices(in, joints), ibms = matrices(in, n);
  std::vector<int> map(in.ConsumeBool() ? 0 : near_size(in, n));
  for (int& j : map) j = in.ConsumeIntegralInRange<int>(-2, static_cast<int>(joints) + 2);
  const glm::mat4 root = matrix(in);
  std::vector<glm::mat4> out(near_size(in, n), glm::mat4(7.f)), skin_models(in.ConsumeBool() ? 0 : near_size(in, n), glm::mat4(7.f));
  const std::vector<glm::mat4> before = out, skin_before = skin_models;
  SkinPaletteJob job;
  job.models = models;
  job.inverse_binds = ibms;
  job.joints = map;
  if (in.ConsumeBool()) job.root = &root;
  job.palette = out;
  job.skin_models = skin_models;
  if (!check(job, out, before) && skin_models != skin_before) std::abort();
}

void sampling(FuzzedDataProvider& in) {
  const std::size_t joints = in.ConsumeIntegralInRange<std::size_t>(0, 30);
  AnimationClip authored;
  authored.duration = Ticks{in.ConsumeIntegral<std::int64_t>()};
  const std::size_t tracks = in.ConsumeIntegralInRange<std::size_t>(0, 10);
  for (std::size_t t = 0; t < tracks; ++t) {
    BoneTrack track;
    track.bone_index = in.ConsumeIntegralInRange<int>(-2, static_cast<int>(joints) + 2);
    Ticks time{in.ConsumeIntegral<std::int64_t>()};
    const std::size_t keys = in.ConsumeIntegralInRange<std::size_t>(0, 12);
    for (std::size_t k = 0; k < keys; ++k) {
      Keyframe key;
      key.time = time;
      key.translation = {value(in), value(in), value(in)};
      key.rotation = glm::quat(value(in), value(in), value(in), value(in));
      key.scale = {value(in), value(in), value(in)};
      track.keys.push_back(key);
      const auto step = in.ConsumeIntegral<std::uint32_t>();
      time = Ticks{static_cast<std::int64_t>(static_cast<std::uint64_t>(time.count()) + step)};  // may wrap: refused
    }
    authored.tracks.push_back(std::move(track));
  }
  RuntimeClip clip;
  try {
    clip = compile_clip(authored, matrices(in, joints));
  } catch (const std::invalid_argument&) {
    return;  // the documented refusal of non-finite or unsorted keys and rest matrices
  }
  SamplingContext context(near_size(in, joints));
  std::vector<TrsBlock> pose(near_size(in, pose_block_count(joints)));
  if (!pose.empty()) std::memset(static_cast<void*>(pose.data()), 0x5a, pose.size() * sizeof(TrsBlock));
  const std::vector<TrsBlock> before = pose;
  for (int frame = 0; frame < 8 && in.remaining_bytes() > 0; ++frame) {
    SamplingJob job{in.ConsumeBool() ? &clip : nullptr, Ticks{in.ConsumeIntegral<std::int64_t>()},
                    in.ConsumeBool() ? &context : nullptr, pose, in.ConsumeBool()};
    const bool valid = job.validate().ok();
    if (job.run() != valid) std::abort();
    if (!valid && frame == 0 && !pose.empty() &&
        std::memcmp(pose.data(), before.data(), pose.size() * sizeof(TrsBlock)) != 0) {
      std::abort();
    }
  }
}

// S1-S3: any influence count (rows of any stride, too short ones refused), joints past the
// palette, NaN and infinite weights and matrices, both modes (the dual-quaternion palette made
// by its own job, of near sizes), every PaletteScale (a wrong promise must still be safe).
void skinning(FuzzedDataProvider& in) {
  const std::size_t n = in.ConsumeIntegralInRange<std::size_t>(0, 64);
  const std::vector<glm::mat4> palette = matrices(in, in.ConsumeIntegralInRange<std::size_t>(0, 8));
  const auto influences = static_cast<std::uint32_t>(in.ConsumeIntegralInRange<int>(0, 13));
  // Row strides around the row's size (a little short, exact, padded).
  // (Shortened before the floor of 1, so a stride never wraps below zero.)
  const std::size_t joint_raw = 2 * std::size_t{influences} + in.ConsumeIntegralInRange<std::size_t>(0, 6);
  const std::size_t joint_stride = std::max<std::size_t>(1, joint_raw - std::min<std::size_t>(joint_raw, in.ConsumeBool() ? 1 : 0));
  const std::size_t weight_raw = 4 * std::size_t{influences} + 4 * in.ConsumeIntegralInRange<std::size_t>(0, 2);
  const std::size_t weight_stride = std::max<std::size_t>(1, weight_raw - std::min<std::size_t>(weight_raw, in.ConsumeBool() ? 2 : 0));
  const std::size_t joint_rows = near_size(in, n), weight_rows = near_size(in, n);
  std::vector<std::byte> joints(joint_rows * joint_stride), weights(weight_rows * weight_stride);
  for (std::size_t b = 0; b + 1 < joints.size(); b += 2) {
    const auto j = static_cast<std::uint16_t>(in.ConsumeBool() ? in.ConsumeIntegral<std::uint16_t>() % 12 : in.ConsumeIntegral<std::uint16_t>());
    std::memcpy(&joints[b], &j, 2);
  }
  for (std::size_t b = 0; b + 3 < weights.size(); b += 4) {
    const float w = value(in);
    std::memcpy(&weights[b], &w, 4);
  }
  std::vector<glm::vec3> positions(n), normals(near_size(in, n));
  std::vector<glm::vec4> tangents(near_size(in, n));
  for (glm::vec3& p : positions) p = {value(in), value(in), value(in)};
  for (glm::vec3& p : normals) p = {value(in), value(in), value(in)};
  for (glm::vec4& t : tangents) t = {value(in), value(in), value(in), value(in)};
  std::vector<glm::vec3> out(near_size(in, n), glm::vec3(7.f)), out_normals(near_size(in, n), glm::vec3(7.f));
  std::vector<glm::vec4> out_tangents(near_size(in, n), glm::vec4(7.f));
  const std::vector<glm::vec3> before = out, normals_before = out_normals;
  const std::vector<glm::vec4> tangents_before = out_tangents;
  SkinningJob job;
  job.palette = palette;
  job.influences = influences;
  job.joints = {joints.data(), joint_rows, joint_stride};
  job.weights = {weights.data(), weight_rows, weight_stride};
  job.in_positions = std::span<const glm::vec3>(positions);
  job.out_positions = std::span<glm::vec3>(out);
  if (in.ConsumeBool()) {
    job.in_normals = std::span<const glm::vec3>(normals);
    job.out_normals = std::span<glm::vec3>(out_normals);
  }
  if (in.ConsumeBool()) {
    job.in_tangents = std::span<const glm::vec4>(tangents);
    job.out_tangents = std::span<glm::vec4>(out_tangents);
  }
  job.normalize = in.ConsumeBool();
  job.palette_scale = static_cast<PaletteScale>(in.ConsumeIntegralInRange<int>(0, 3));
  std::vector<SkinDualQuaternion> dual_quaternions;
  std::vector<glm::mat4> scale_shear;
  if (in.ConsumeBool()) {
    job.mode = SkinningMode::DualQuaternion;
    dual_quaternions.assign(near_size(in, palette.size()), SkinDualQuaternion{glm::vec4(7.f), glm::vec4(7.f)});
    scale_shear.assign(in.ConsumeBool() ? 0 : near_size(in, palette.size()), glm::mat4(7.f));
    const std::vector<SkinDualQuaternion> dq_before = dual_quaternions;
    const DualQuaternionPaletteJob convert{palette, dual_quaternions, scale_shear};
    const bool converted = convert.run();
    if (converted != convert.validate().ok()) std::abort();
    // (memcmp only on bytes that exist: an empty vector's data() may be null.)
    if (!converted && !dual_quaternions.empty() &&
        std::memcmp(dual_quaternions.data(), dq_before.data(), dual_quaternions.size() * sizeof(SkinDualQuaternion)) != 0) {
      std::abort();
    }
    job.dual_quaternions = dual_quaternions;
    job.scale_shear = scale_shear;
  }
  if (!check(job, out, before) && (out_normals != normals_before || out_tangents != tangents_before)) std::abort();
}

void morph(FuzzedDataProvider& in) {
  MorphTargetData data;
  data.layout = VertexLayout::interleaved({VertexAttribute::Position, VertexAttribute::Normal});
  const std::size_t vertices = in.ConsumeIntegralInRange<std::size_t>(0, 16);
  data.base_vertex_bytes.resize(vertices * data.layout.stride);
  for (std::byte& b : data.base_vertex_bytes) b = static_cast<std::byte>(in.ConsumeIntegral<std::uint8_t>());
  const std::size_t targets = in.ConsumeIntegralInRange<std::size_t>(0, 4);
  for (std::size_t t = 0; t < targets; ++t) {
    data.position_deltas.emplace_back(vertices);
    for (glm::vec3& d : data.position_deltas.back()) d = {value(in), value(in), value(in)};
  }
  data.weights.assign(targets, 0.f);
  try {
    validate(data);
  } catch (const std::invalid_argument&) {
    return;  // a carrier the job may assume valid is refused before it gets there
  }
  std::vector<float> weights(near_size(in, targets));
  for (float& w : weights) w = value(in);
  std::vector<std::byte> out(near_size(in, data.base_vertex_bytes.size()), std::byte{0x5a});
  const std::vector<std::byte> before = out;
  const MorphBlendJob job{in.ConsumeBool() ? &data : nullptr, weights, out};
  check(job, out, before);
}

std::vector<TrsBlock> pose_of(FuzzedDataProvider& in, std::size_t blocks) {
  std::vector<TrsBlock> out(blocks);
  for (TrsBlock& b : out) {
    for (auto* row : {&b.t[0], &b.t[1], &b.t[2], &b.q[0], &b.q[1], &b.q[2], &b.q[3], &b.s[0], &b.s[1], &b.s[2]}) {
      for (float& v : *row) v = value(in);
    }
  }
  return out;
}

void blending(FuzzedDataProvider& in) {
  const std::size_t joints = in.ConsumeIntegralInRange<std::size_t>(0, 40);
  const std::size_t blocks = pose_block_count(joints);
  // Poses and masks live in one pool, so that an output may overlap any of them.
  std::vector<std::vector<TrsBlock>> poses;
  std::vector<std::vector<float>> masks;
  const auto make_layers = [&](std::size_t count) {
    std::vector<BlendingLayer> layers;
    for (std::size_t i = 0; i < count; ++i) {
      poses.push_back(pose_of(in, near_size(in, blocks)));
      BlendingLayer layer{poses.back(), value(in), {}};
      if (in.ConsumeBool()) {
        masks.emplace_back(near_size(in, joints));
        for (float& m : masks.back()) m = in.ConsumeBool() ? value(in) : in.ConsumeFloatingPointInRange<float>(0.f, 1.f);
        layer.joint_weights = masks.back();
      }
      layers.push_back(layer);
    }
    return layers;
  };
  poses.reserve(64);
  masks.reserve(64);
  const std::vector<BlendingLayer> normal = make_layers(in.ConsumeIntegralInRange<std::size_t>(0, 20));
  const std::vector<BlendingLayer> additive = make_layers(in.ConsumeIntegralInRange<std::size_t>(0, 20));
  poses.push_back(pose_of(in, near_size(in, blocks)));
  const std::vector<TrsBlock>& rest = poses.back();
  std::vector<TrsBlock> own(near_size(in, blocks));
  if (!own.empty()) std::memset(static_cast<void*>(own.data()), 0x5a, own.size() * sizeof(TrsBlock));
  BlendingJob job{normal, additive, rest, joints, in.ConsumeBool() ? 0.1f : value(in), own};
  if (in.ConsumeBool() && !poses.empty()) job.output = poses[in.ConsumeIntegralInRange<std::size_t>(0, poses.size() - 1)];
  const std::vector<TrsBlock> before(job.output.begin(), job.output.end());
  const bool valid = job.validate().ok();
  if (job.run() != valid) std::abort();
  if (!valid && !before.empty() && std::memcmp(job.output.data(), before.data(), before.size() * sizeof(TrsBlock)) != 0) {
    std::abort();
  }
}

void additive_pose(FuzzedDataProvider& in) {
  const std::size_t joints = in.ConsumeIntegralInRange<std::size_t>(0, 40);
  std::vector<TrsBlock> pose = pose_of(in, near_size(in, pose_block_count(joints)));
  const std::vector<TrsBlock> reference = pose_of(in, near_size(in, pose_block_count(joints)));
  std::vector<TrsBlock> out(near_size(in, pose_block_count(joints)));
  if (!out.empty()) std::memset(static_cast<void*>(out.data()), 0x5a, out.size() * sizeof(TrsBlock));
  const std::vector<TrsBlock> before = out;
  const bool sized = pose.size() >= pose_block_count(joints) && reference.size() >= pose_block_count(joints) &&
                     out.size() >= pose_block_count(joints);
  const bool in_place = in.ConsumeBool();
  const bool ran = make_additive_pose(pose, reference, joints, in_place ? std::span<TrsBlock>(pose) : std::span<TrsBlock>(out));
  if (ran != (in_place ? pose.size() >= pose_block_count(joints) && reference.size() >= pose_block_count(joints) : sized)) {
    std::abort();
  }
  if (!ran && !out.empty() && std::memcmp(out.data(), before.data(), out.size() * sizeof(TrsBlock)) != 0) std::abort();
}

bool finite(const glm::quat& q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

void two_bone_ik(FuzzedDataProvider& in) {
  const std::vector<glm::mat4> m = matrices(in, 3);
  const glm::vec3 target(value(in), value(in), value(in)), pole(value(in), value(in), value(in));
  const glm::quat sentinel(7.f, 7.f, 7.f, 7.f);
  glm::quat start = sentinel, mid = sentinel;
  bool reached = false;
  TwoBoneIkJob job;
  job.start = in.ConsumeBool() ? &m[0] : nullptr;
  job.mid = &m[1];
  job.end = in.ConsumeBool() ? &m[2] : &m[1];
  job.target = target;
  job.pole = in.ConsumeBool() ? &pole : nullptr;
  job.weight = in.ConsumeBool() ? in.ConsumeFloatingPointInRange<float>(0.f, 1.f) : value(in);
  job.soften = in.ConsumeBool() ? in.ConsumeFloatingPointInRange<float>(0.f, 1.f) : value(in);
  job.start_correction = &start;
  job.mid_correction = in.ConsumeBool() ? &mid : &start;
  job.reached = in.ConsumeBool() ? &reached : nullptr;
  const bool valid = job.validate().ok();
  if (job.run() != valid) std::abort();
  if (!valid && (start != sentinel || mid != sentinel)) std::abort();
  if (valid && (!finite(start) || !finite(*job.mid_correction))) std::abort();  // never a NaN for valid input
  // Batched behind another chain (the same matrices, another target), run_all gives the job
  // run()'s bits.
  glm::quat other_start, other_mid, again_start = sentinel, again_mid = sentinel;
  bool other_reached = false, again_reached = false;
  TwoBoneIkJob other = job, again = job;
  other.target = {value(in), value(in), value(in)};
  other.start_correction = &other_start, other.mid_correction = &other_mid, other.reached = &other_reached;
  again.start_correction = &again_start;
  again.mid_correction = job.mid_correction == &start ? &again_start : &again_mid;
  again.reached = job.reached != nullptr ? &again_reached : nullptr;
  const TwoBoneIkJob both[2] = {other, again};
  bool ran[2] = {};
  if (!TwoBoneIkJob::run_all(both, ran) || ran[1] != valid) std::abort();
  if (std::memcmp(&again_start, &start, sizeof start) != 0 || std::memcmp(again.mid_correction, job.mid_correction, sizeof mid) != 0 ||
      (job.reached != nullptr && again_reached != reached))
    std::abort();
}

void aim_ik(FuzzedDataProvider& in) {
  const glm::mat4 joint = matrix(in);
  const glm::quat sentinel(7.f, 7.f, 7.f, 7.f);
  glm::quat correction = sentinel;
  AimIkJob job;
  job.joint = in.ConsumeBool() ? &joint : nullptr;
  job.target = {value(in), value(in), value(in)};
  if (in.ConsumeBool()) job.forward = {value(in), value(in), value(in)};
  if (in.ConsumeBool()) job.up = {value(in), value(in), value(in)};
  job.offset = {value(in), value(in), value(in)};
  job.pole = {value(in), value(in), value(in)};
  job.weight = in.ConsumeBool() ? in.ConsumeFloatingPointInRange<float>(0.f, 1.f) : value(in);
  job.correction = &correction;
  const bool valid = job.validate().ok();
  if (job.run() != valid) std::abort();
  if (!valid && correction != sentinel) std::abort();
  if (valid && !finite(correction)) std::abort();
}

void clock(FuzzedDataProvider& in) {
  const Ticks duration{in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(-5, 5000) : in.ConsumeIntegral<std::int64_t>()};
  const LoopMode mode = static_cast<LoopMode>(in.ConsumeIntegralInRange<int>(0, 2));
  PlaybackClock c(duration, value(in), mode, Ticks{in.ConsumeIntegral<std::int64_t>()});
  std::vector<Ticks> markers(in.ConsumeIntegralInRange<std::size_t>(0, 8));
  for (Ticks& t : markers) t = Ticks{in.ConsumeIntegral<std::int64_t>()};
  std::sort(markers.begin(), markers.end());
  std::uint32_t out[16];
  for (int i = 0; i < 8 && in.remaining_bytes() > 0; ++i) {
    const Ticks dt{in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(-20000, 20000) : in.ConsumeIntegral<std::int64_t>()};
    const ClockStep step = in.ConsumeBool() ? c.advance(dt) : c.advance_ticks(dt, static_cast<LoopMode>(in.ConsumeIntegralInRange<int>(0, 2)));
    const Ticks t = c.time();
    if (duration <= Ticks{0} ? t != Ticks{0} : (t < Ticks{0} || t > duration)) std::abort();
    if (step.run_count > step.runs.size()) std::abort();
    const std::size_t n = markers_reached(markers, step, out);
    for (std::size_t k = 0; k < n && k < 16; ++k) {
      if (out[k] >= markers.size()) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  marrow::fuzz::use_simd_choice_of(size);
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0: local_to_model(in); break;
    case 1: palette(in); break;
    case 2: sampling(in); break;
    case 3: skinning(in); break;
    case 4: blending(in); break;
    case 5: additive_pose(in); break;
    case 6: two_bone_ik(in); break;
    case 7: aim_ik(in); break;
    case 8: clock(in); break;
    default: morph(in); break;
  }
  return 0;
}
