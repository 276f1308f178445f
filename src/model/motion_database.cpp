#include "marrow/model/motion_database.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/quoted_name.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/humanoid_map.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "motion_mirror.hpp"
#include "runtime/kernels/motion_kernels.hpp"

namespace marrow {

namespace {

constexpr std::size_t kSmallRun = 16, kLargeRun = 64;
constexpr int kFuture = kMotionFutureFrames[2];
constexpr double kUnseenWeight = 1e-15;

// The joints a database reads, as scene nodes of the first model.
struct MotionJoints {
  int hips = -1, left_foot = -1, right_foot = -1, left_leg = -1, right_leg = -1;
};

MotionJoints find_joints(const Model& model, const MotionDatabaseOptions& o) {
  const auto named = [&](const std::string& name, int fallback, const char* what) {
    if (name.empty()) return fallback;
    const int node = model.find_node(name);
    if (node < 0) throw std::invalid_argument(std::string("MotionDatabase: ") + what + ": the model has no node named " + quoted_name(name));
    return node;
  };
  const bool all_named = !o.hips.empty() && !o.left_foot.empty() && !o.right_foot.empty() && !o.left_upper_leg.empty() &&
                         !o.right_upper_leg.empty();
  HumanoidMap map;
  if (!all_named) map = humanoid_map(model);  // throws naming the bone it cannot find
  MotionJoints j;
  j.hips = named(o.hips, map.node(HumanoidBone::Hips), "hips");
  j.left_foot = named(o.left_foot, map.node(HumanoidBone::LeftFoot), "left_foot");
  j.right_foot = named(o.right_foot, map.node(HumanoidBone::RightFoot), "right_foot");
  j.left_leg = named(o.left_upper_leg, map.node(HumanoidBone::LeftUpperLeg), "left_upper_leg");
  j.right_leg = named(o.right_upper_leg, map.node(HumanoidBone::RightUpperLeg), "right_upper_leg");
  return j;
}

// A joint's node in another model of the same rig: the same name.
int same_node(const Model& first, const Model& other, int node, std::size_t model_index) {
  const std::string& name = first.nodes[static_cast<std::size_t>(node)].name;
  const int found = other.find_node(name);
  if (found < 0)
    throw std::invalid_argument("MotionDatabase: model " + std::to_string(model_index) + " has no node '" + name +
                                "' (every model must be the same rig)");
  return found;
}

glm::vec3 ground(const glm::vec3& v) { return {v.x, 0.f, v.z}; }

// One clip sampled: per frame the hips, the feet, and the character frame (origin, facing).
struct Track {
  std::vector<glm::vec3> hips, left, right, origin, facing;
};

// The rig's forward, as a direction in the hips' frame: at the first frame of a clip, across the
// upper legs (left minus right) crossed with up, on the ground. A file's axes and rest pose do
// not matter (BVH rest poses need not stand).
glm::vec3 forward_in_hips(const Model& model, int animation, const MotionJoints& j) {
  Animator animator(model);
  animator.play(animation, {.loop = LoopMode::Once});
  const std::span<const glm::mat4> w = animator.absolute_bone_transforms();
  const glm::vec3 across = glm::vec3(w[static_cast<std::size_t>(j.left_leg)][3] - w[static_cast<std::size_t>(j.right_leg)][3]);
  glm::vec3 forward = ground(glm::cross(across, glm::vec3(0.f, 1.f, 0.f)));
  if (!(glm::length(forward) > 1e-6f)) forward = glm::vec3(0.f, 0.f, 1.f);  // legs along the up axis
  const glm::quat hips = decompose_trs(w[static_cast<std::size_t>(j.hips)]).rotation;
  return glm::inverse(hips) * glm::normalize(forward);
}

// The character's facing at a pose: the rig's forward turned with the hips, on the ground.
glm::vec3 facing_of(const glm::mat4& hips, const glm::vec3& hips_forward) {
  const glm::vec3 f = ground(decompose_trs(hips).rotation * hips_forward);
  const float n = glm::length(f);
  return n > 1e-6f ? f / n : glm::vec3(0.f, 0.f, 1.f);
}

// With `mirror`, each pose is mirrored (MM5) across the sagittal plane of the clip's first frame
// (through the hips on the ground, spanned by up and the facing) before its joints are read.
Track sample_track(const Model& model, int animation, std::size_t frames, double rate, const MotionJoints& j,
                   const glm::vec3& hips_forward, const detail::MotionMirror* mirror) {
  Animator animator(model);
  animator.play(animation, {.loop = LoopMode::Once});
  Track t;
  glm::mat4 reflect(1.f);
  if (mirror != nullptr) {
    const glm::mat4& hips = animator.absolute_bone_transforms()[static_cast<std::size_t>(j.hips)];
    const glm::vec3 facing = facing_of(hips, hips_forward);
    reflect = detail::reflection(ground(glm::vec3(hips[3])), glm::vec3(facing.z, 0.f, -facing.x));
  }
  std::vector<glm::mat4> mirrored;
  for (std::size_t frame = 0; frame < frames; ++frame) {
    animator.update(ticks_from_seconds(static_cast<double>(frame) / rate), false);
    std::span<const glm::mat4> w = animator.absolute_bone_transforms();
    if (mirror != nullptr) detail::mirror_pose(*mirror, reflect, w, mirrored), w = mirrored;
    const glm::mat4& hips = w[static_cast<std::size_t>(j.hips)];
    t.hips.emplace_back(hips[3]);
    t.left.emplace_back(w[static_cast<std::size_t>(j.left_foot)][3]);
    t.right.emplace_back(w[static_cast<std::size_t>(j.right_foot)][3]);
    t.origin.push_back(ground(glm::vec3(hips[3])));
    t.facing.push_back(facing_of(hips, hips_forward));
  }
  return t;
}

// The world-to-character rotation on the ground: facing becomes +Z.
glm::vec3 to_character(const glm::vec3& facing, const glm::vec3& v) {
  const glm::vec3 right(facing.z, 0.f, -facing.x);  // +X of the character frame
  return {glm::dot(v, right), v.y, glm::dot(v, facing)};
}

void features_of(const Track& t, std::size_t i, double rate, float* out) {
  const std::size_t last = t.hips.size() - 1;
  const std::size_t a = i > 0 ? i - 1 : i, b = i < last ? i + 1 : i;
  const float per_second = static_cast<float>(rate / static_cast<double>(b - a));
  const glm::vec3& o = t.origin[i];
  const glm::vec3& f = t.facing[i];
  const glm::vec3 v[5] = {to_character(f, t.left[i] - o), to_character(f, t.right[i] - o),
                          to_character(f, (t.left[b] - t.left[a]) * per_second), to_character(f, (t.right[b] - t.right[a]) * per_second),
                          to_character(f, (t.hips[b] - t.hips[a]) * per_second)};
  for (int k = 0; k < 5; ++k) out[3 * k] = v[k].x, out[3 * k + 1] = v[k].y, out[3 * k + 2] = v[k].z;
  for (int k = 0; k < 3; ++k) {
    const std::size_t future = i + static_cast<std::size_t>(kMotionFutureFrames[k]);
    const glm::vec3 p = to_character(f, t.origin[future] - o), d = to_character(f, t.facing[future]);
    out[15 + 2 * k] = p.x, out[16 + 2 * k] = p.z;
    out[21 + 2 * k] = d.x, out[22 + 2 * k] = d.z;
  }
}

// Rows, boxes and queries are padded to kStride floats (zeros after the 27 features). Every
// distance, brute force's and the search's, rows' and boxes', is a kernel's of
// runtime/kernels/motion_kernels.hpp: one summation tree, so both searches see the same floats
// and a box's distance never exceeds its rows'.
constexpr std::size_t kStride = MotionDatabase::kRowStride;
static_assert(kStride == detail::kMotionRowFloats);

// The query padded to kStride floats; false when a feature is NaN: every cost would be NaN and
// no row can match, so both searches return +inf at once.
bool padded_query(std::span<const float> query, float* q) {
  std::fill_n(q, kStride, 0.f);
  std::copy(query.begin(), query.end(), q);
  return std::none_of(query.begin(), query.end(), [](float x) { return std::isnan(x); });
}

// MM3: per column its mean; per group one deviation over all its values, over the weight.
void column_statistics(const std::vector<float>& raw, const std::array<float, kMotionGroups>& weights, std::vector<float>& mean,
                       std::vector<float>& scale) {
  const std::size_t rows = raw.size() / kMotionFeatures;
  mean.assign(kMotionFeatures, 0.f);
  scale.assign(kMotionFeatures, 1.f);
  std::vector<double> sums(kMotionFeatures, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < kMotionFeatures; ++c) sums[c] += raw[r * kMotionFeatures + c];
  for (std::size_t c = 0; c < kMotionFeatures; ++c) mean[c] = static_cast<float>(sums[c] / static_cast<double>(rows));
  for (std::size_t g = 0; g < kMotionGroups; ++g) {
    double squares = 0.0;
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = kMotionGroupStart[g]; c < kMotionGroupStart[g] + kMotionGroupWidth[g]; ++c) {
        const double e = raw[r * kMotionFeatures + c] - mean[c];
        squares += e * e;
      }
    }
    const double deviation = std::sqrt(squares / static_cast<double>(rows * kMotionGroupWidth[g]));
    // A group weighted 0 is kept at kUnseenWeight: its squares (1e-30 of a weighted group's) are
    // lost in every float cost, and its raw values stay readable (the foot contacts and lock,
    // MotionClips, read the feet from the rows).
    const double weight = weights[g] > 0.f ? static_cast<double>(weights[g]) : kUnseenWeight;
    const float s = deviation > 1e-12 ? static_cast<float>(weight / deviation) : 0.f;
    for (std::size_t c = kMotionGroupStart[g]; c < kMotionGroupStart[g] + kMotionGroupWidth[g]; ++c) scale[c] = s;
  }
}

}  // namespace

MotionDatabase::MotionDatabase(std::span<const Model* const> models, const MotionDatabaseOptions& options) : rate_(options.rate) {
  if (models.empty() || models[0] == nullptr) throw std::invalid_argument("MotionDatabase: no model");
  if (!(rate_ > 0.0) || !std::isfinite(rate_) || rate_ > 1000.0)
    throw std::invalid_argument("MotionDatabase: rate " + std::to_string(rate_) + " is not in (0, 1000] frames per second");
  for (std::size_t g = 0; g < kMotionGroups; ++g) {
    if (!(options.weights[g] >= 0.f) || !std::isfinite(options.weights[g]))
      throw std::invalid_argument("MotionDatabase: weight " + std::to_string(g) + " is negative or not finite");
  }
  const Model& first = *models[0];
  const MotionJoints joints = find_joints(first, options);
  std::vector<MotionJoints> model_joints(models.size(), joints);
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (models[m] == nullptr) throw std::invalid_argument("MotionDatabase: model " + std::to_string(m) + " is null");
    if (m == 0) continue;
    MotionJoints& j = model_joints[m];
    const Model& model = *models[m];
    j.hips = same_node(first, model, joints.hips, m), j.left_foot = same_node(first, model, joints.left_foot, m);
    j.right_foot = same_node(first, model, joints.right_foot, m), j.left_leg = same_node(first, model, joints.left_leg, m);
    j.right_leg = same_node(first, model, joints.right_leg, m);
  }
  std::vector<float> raw;
  glm::vec3 hips_forward(0.f, 0.f, 1.f);  // the rig's forward in the hips' frame, from its first clip
  bool have_forward = false;
  for (std::size_t m = 0; m < models.size(); ++m) {
    const Model& model = *models[m];
    for (std::size_t a = 0; a < model.animations.size(); ++a) {
      const ModelAnimation& animation = model.animations[a];
      if (!options.clips.empty() && std::find(options.clips.begin(), options.clips.end(), animation.name) == options.clips.end()) continue;
      const double seconds = seconds_from_ticks(animation.duration);
      const auto frames = static_cast<std::size_t>(std::floor(seconds * rate_ + 1e-9)) + 1;
      if (frames > static_cast<std::size_t>(kFuture) && !have_forward)
        hips_forward = forward_in_hips(model, static_cast<int>(a), model_joints[m]), have_forward = true;
      const std::size_t rows = frames > static_cast<std::size_t>(kFuture) ? frames - static_cast<std::size_t>(kFuture) : 0;
      ranges_.push_back({m, static_cast<int>(a), animation.name, 0, rows, frames, false});
    }
  }
  // MM5: the mirrored clips follow the originals, in the same order.
  std::vector<detail::MotionMirror> mirrors;
  if (options.mirror) {
    const std::size_t originals = ranges_.size();
    for (std::size_t m = 0; m < models.size(); ++m)
      mirrors.push_back(detail::make_motion_mirror(*models[m], model_joints[m].left_leg, model_joints[m].right_leg));
    for (std::size_t k = 0; k < originals; ++k) {
      MotionRange r = ranges_[k];
      r.name += " (mirrored)", r.mirrored = true;
      ranges_.push_back(std::move(r));
    }
  }
  for (MotionRange& r : ranges_) {
    r.first_row = raw.size() / kMotionFeatures;
    if (r.rows == 0) continue;
    const Track track = sample_track(*models[r.model], r.animation, r.frames, rate_, model_joints[r.model], hips_forward,
                                     r.mirrored ? &mirrors[r.model] : nullptr);
    const std::size_t at = raw.size();
    raw.resize(at + r.rows * kMotionFeatures);
    for (std::size_t i = 0; i < r.rows; ++i) features_of(track, i, rate_, raw.data() + at + i * kMotionFeatures);
  }
  for (const std::string& clip : options.clips) {
    if (std::none_of(ranges_.begin(), ranges_.end(), [&](const MotionRange& r) { return r.name == clip; }))
      throw std::invalid_argument("MotionDatabase: no model has a clip named '" + clip + "'");
  }
  const std::size_t rows = raw.size() / kMotionFeatures;
  if (rows == 0)
    throw std::invalid_argument("MotionDatabase: no candidate frame (every clip is shorter than " + std::to_string(kFuture) +
                                " frames at " + std::to_string(rate_) + " Hz)");
  for (const float x : raw) {
    if (!std::isfinite(x)) throw std::invalid_argument("MotionDatabase: a feature is not finite (a clip with non-finite poses)");
  }
  column_statistics(raw, options.weights, mean_, scale_);
  rows_.assign(rows * kStride, 0.f);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < kMotionFeatures; ++c) rows_[r * kStride + c] = (raw[r * kMotionFeatures + c] - mean_[c]) * scale_[c];
  range_of_row_.resize(rows);
  for (std::size_t k = 0; k < ranges_.size(); ++k)
    for (std::size_t r = 0; r < ranges_[k].rows; ++r) range_of_row_[ranges_[k].first_row + r] = static_cast<std::uint32_t>(k);
  build_boxes();
}

void MotionDatabase::build_boxes() {
  const std::size_t rows = size();
  const auto make = [&](std::size_t run, std::vector<float>& lo, std::vector<float>& hi) {
    const std::size_t runs = (rows + run - 1) / run;
    lo.assign(runs * kStride, 0.f);
    hi.assign(runs * kStride, 0.f);
    for (std::size_t b = 0; b < runs; ++b) {
      float* l = lo.data() + b * kStride;
      float* h = hi.data() + b * kStride;
      std::copy_n(rows_.data() + b * run * kStride, kStride, l);
      std::copy_n(rows_.data() + b * run * kStride, kStride, h);
      for (std::size_t r = b * run; r < std::min((b + 1) * run, rows); ++r) {
        for (std::size_t c = 0; c < kStride; ++c) {
          l[c] = std::min(l[c], rows_[r * kStride + c]);
          h[c] = std::max(h[c], rows_[r * kStride + c]);
        }
      }
    }
  };
  make(kSmallRun, small_min_, small_max_);
  make(kLargeRun, large_min_, large_max_);
}

const MotionRange& MotionDatabase::range_of(std::size_t row) const { return ranges_.at(range_of_row_.at(row)); }

std::size_t MotionDatabase::mirror_of(std::size_t row) const {
  const std::size_t k = range_of_row_.at(row), half = ranges_.size() / 2;
  if (ranges_.empty() || !ranges_.back().mirrored) return row;
  const MotionRange& other = ranges_[k < half ? k + half : k - half];  // the ranges' order (motion_database.hpp)
  return other.first_row + (row - ranges_[k].first_row);
}

Ticks MotionDatabase::time_of(std::size_t row) const {
  const MotionRange& r = range_of(row);
  return ticks_from_seconds(static_cast<double>(row - r.first_row) / rate_);
}

std::array<float, kMotionFeatures> MotionDatabase::normalize(std::span<const float> raw) const {
  if (raw.size() != kMotionFeatures)
    throw std::invalid_argument("MotionDatabase::normalize: " + std::to_string(raw.size()) + " features, not " +
                                std::to_string(kMotionFeatures));
  std::array<float, kMotionFeatures> out{};
  for (std::size_t c = 0; c < kMotionFeatures; ++c) out[c] = (raw[c] - mean_[c]) * scale_[c];
  return out;
}

bool MotionDatabase::excluded(std::size_t row, const MotionExclusion& exclude) const noexcept {
  if (exclude.range_end > 0) {
    const MotionRange& range = ranges_[range_of_row_[row]];
    if (row + exclude.range_end >= range.first_row + range.rows) return true;
  }
  if (exclude.row >= range_of_row_.size()) return false;
  if (range_of_row_[row] != range_of_row_[exclude.row]) return false;
  const std::size_t gap = row > exclude.row ? row - exclude.row : exclude.row - row;
  return gap <= exclude.frames;
}

MotionMatch MotionDatabase::brute_force(std::span<const float> query, const MotionExclusion& exclude) const noexcept {
  MotionMatch best{0, std::numeric_limits<float>::infinity()};
  alignas(64) float q[kStride];
  if (query.size() != kMotionFeatures || !padded_query(query, q)) return best;
  const detail::MotionKernels& kernels = detail::motion_kernels(simd_choice());
  float costs[kLargeRun];
  for (std::size_t first = 0; first < size(); first += kLargeRun) {
    const std::size_t count = std::min(kLargeRun, size() - first);
    kernels.row_costs(q, rows_.data() + first * kStride, count, costs);
    for (std::size_t i = 0; i < count; ++i)
      if (costs[i] < best.cost && !excluded(first + i, exclude)) best = {first + i, costs[i]};
  }
  return best;
}

// The run of 64 rows whose box is nearest first, then the others in order, each skipped when
// its box is farther than the best row so far, and within a run each run of 16 the same way. A
// box as far as the best row is skipped too when its rows all come after the best one (ties go
// to the lowest row), so the row is brute force's, and so is the cost (the same kernel). Sorting
// the boxes instead visits 3% fewer of them on the benchmark's queries and costs more than that.
MotionMatch MotionDatabase::search(std::span<const float> query, const MotionExclusion& exclude, MotionSearchScratch* scratch) const {
  MotionMatch best{0, std::numeric_limits<float>::infinity()};
  alignas(64) float q[kStride];
  if (query.size() != kMotionFeatures || !padded_query(query, q)) return best;
  const detail::MotionKernels& kernels = detail::motion_kernels(simd_choice());
  MotionSearchScratch own;
  std::vector<float>& bounds = (scratch != nullptr ? *scratch : own).bounds;
  const std::size_t rows = size(), larges = (rows + kLargeRun - 1) / kLargeRun, smalls = (rows + kSmallRun - 1) / kSmallRun;
  bounds.resize(larges);
  kernels.box_costs(q, large_min_.data(), large_max_.data(), larges, bounds.data());
  const auto may_win = [&](float bound, std::size_t first_row) {
    return bound < best.cost || (bound == best.cost && first_row < best.row);
  };
  constexpr std::size_t kSmallPerLarge = kLargeRun / kSmallRun;
  const auto visit = [&](std::size_t large) {
    const std::size_t first_small = large * kSmallPerLarge, count_small = std::min(kSmallPerLarge, smalls - first_small);
    float small_bounds[kSmallPerLarge], costs[kSmallRun];
    kernels.box_costs(q, small_min_.data() + first_small * kStride, small_max_.data() + first_small * kStride, count_small,
                      small_bounds);
    for (std::size_t s = 0; s < count_small; ++s) {
      const std::size_t first = (first_small + s) * kSmallRun;
      if (!may_win(small_bounds[s], first)) continue;
      const std::size_t count = std::min(kSmallRun, rows - first);
      kernels.row_costs(q, rows_.data() + first * kStride, count, costs);
      for (std::size_t i = 0; i < count; ++i)
        if (may_win(costs[i], first + i) && !excluded(first + i, exclude)) best = {first + i, costs[i]};
    }
  };
  const auto nearest = static_cast<std::size_t>(std::min_element(bounds.begin(), bounds.end()) - bounds.begin());
  visit(nearest);
  for (std::size_t large = 0; large < larges; ++large)
    if (large != nearest && may_win(bounds[large], large * kLargeRun)) visit(large);
  return best;
}

}  // namespace marrow
