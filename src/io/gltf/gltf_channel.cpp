#include "gltf_channel.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "marrow/core/finite.hpp"
#include "marrow/core/hermite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"

namespace marrow::gltf {

namespace {

constexpr int kMaxBisectionDepth = 12;  // at most 4096 points per cubic interval

std::string where(std::uint32_t animation, std::uint32_t sampler) {
  return "animation " + std::to_string(animation) + " sampler " + std::to_string(sampler);
}

// Shortest-arc slerp in double, with the track sampler's rule: directions slerped, squared
// length interpolated (plain slerp for unit quaternions).
void slerp(const double* a, const double* b_in, double p, double* out) {
  double b[4] = {b_in[0], b_in[1], b_in[2], b_in[3]};
  const double na = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
  const double nb = std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
  double d = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / std::max(na * nb, 1e-300);
  if (d < 0) {
    for (double& v : b) v = -v;
    d = -d;
  }
  double wa = 1 - p, wb = p;
  if (d < 1 - 1e-12) {
    const double theta = std::acos(std::min(d, 1.0));
    wa = std::sin((1 - p) * theta);
    wb = std::sin(p * theta);
  }
  double n2 = 0;
  for (int c = 0; c < 4; ++c) {
    out[c] = wa * a[c] + wb * b[c];
    n2 += out[c] * out[c];
  }
  const double scale = n2 > 0 ? std::sqrt(std::max(na * na + (nb * nb - na * na) * p, 0.0) / n2) : 1;
  for (int c = 0; c < 4; ++c) out[c] *= scale;
}

void normalize4(double* q) {
  const double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (n2 > 0) {
    const double inv = 1 / std::sqrt(n2);
    for (int c = 0; c < 4; ++c) q[c] *= inv;
  }
}

}  // namespace

std::shared_ptr<const KeyTimes> KeyTimeCache::times(const GltfAsset& asset, std::uint32_t animation,
                                                    std::uint32_t sampler_index, ImportBudget& budget) {
  const Document& doc = asset.document;
  const std::uint32_t input_index = doc.animations[animation].samplers[sampler_index].input;
  if (const auto it = by_accessor_.find(input_index); it != by_accessor_.end()) return it->second;
  const Accessor& input = doc.accessors[input_index];
  if (input.type != AccessorType::Scalar || input.component_type != ComponentType::Float) {
    throw ImportError(ImportErrorCode::InvalidAnimation, where(animation, sampler_index) + ": input accessor " +
                                                             std::to_string(input_index) + " is not a float SCALAR");
  }
  std::vector<float> raw;
  read_accessor_floats(asset, input_index, budget, raw);
  if (raw.empty()) throw ImportError(ImportErrorCode::InvalidAnimation, where(animation, sampler_index) + ": no keys");
  auto times = std::make_shared<KeyTimes>();
  times->seconds.resize(raw.size());
  times->points.resize(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) {
    const float t = raw[k];
    if (!std::isfinite(t)) {
      throw ImportError(ImportErrorCode::InvalidAnimation,
                        where(animation, sampler_index) + ": key time " + std::to_string(k) + " is not finite");
    }
    if (k > 0 && !(t > raw[k - 1])) {
      throw ImportError(ImportErrorCode::InvalidAnimation,
                        where(animation, sampler_index) + ": key time " + std::to_string(k) + " (" + std::to_string(t) +
                            ") does not increase after " + std::to_string(raw[k - 1]));
    }
    times->seconds[k] = static_cast<double>(t);
    times->points[k] = SamplePoint{static_cast<double>(t), ticks_from_seconds(static_cast<double>(t))};
    if (k > 0 && folds_into(times->points[k - 1], times->points[k])) times->distinct = false;
  }
  by_accessor_.emplace(input_index, times);
  return times;
}

ChannelCurve::ChannelCurve(const GltfAsset& asset, std::uint32_t animation, std::uint32_t sampler_index,
                           std::size_t width, bool rotation, ImportBudget& budget, KeyTimeCache& cache)
    : width_(width), rotation_(rotation) {
  const Document& doc = asset.document;
  const AnimationSampler& sampler = doc.animations[animation].samplers[sampler_index];
  interpolation_ = sampler.interpolation;
  keys_ = cache.times(asset, animation, sampler_index, budget);
  values_ = read_accessor_floats(asset, sampler.output, budget);
  const std::size_t keys = keys_->seconds.size();
  const std::size_t expected = keys * stride();
  if (values_.size() != expected) {
    throw ImportError(ImportErrorCode::InvalidAnimation,
                      where(animation, sampler_index) + ": output accessor " + std::to_string(sampler.output) + " has " +
                          std::to_string(values_.size()) + " values, " + std::to_string(keys) + " keys need " +
                          std::to_string(expected));
  }
  if (!all_finite(values_.values())) {
    const auto bad = std::find_if(values_.values().begin(), values_.values().end(), [](float v) { return !std::isfinite(v); });
    throw ImportError(ImportErrorCode::InvalidAnimation, where(animation, sampler_index) + ": output value " +
                                                             std::to_string(bad - values_.values().begin()) + " is not finite");
  }
  if (cubic() && !rotation_) {  // (rotations are normalised, so their size does not matter)
    for (std::size_t k = 0; k + 1 < keys; ++k) {
      const double dt = keys_->seconds[k + 1] - keys_->seconds[k];
      for (std::size_t c = 0; c < width_; ++c) {
        if (!hermite_fits_float(value(k)[c], value(k + 1)[c], dt * out_tangent(k)[c], dt * in_tangent(k + 1)[c])) {
          throw ImportError(ImportErrorCode::InvalidAnimation,
                            where(animation, sampler_index) + ": CUBICSPLINE interval " + std::to_string(k) +
                                " leaves the float range (values plus interval-scaled tangents exceed 3.4e38)");
        }
      }
    }
  }
  if (cubic()) {  // the scale of the relative tolerance used when densifying
    for (std::size_t k = 0; k < keys; ++k) {
      for (std::size_t c = 0; c < width_; ++c) magnitude_ = std::max(magnitude_, std::fabs(static_cast<double>(value(k)[c])));
    }
  }
}

void ChannelCurve::evaluate(double t, std::size_t& cursor, double* out) const {
  const std::vector<double>& times = keys_->seconds;
  const std::size_t n = times.size();
  std::size_t k = cursor < n ? cursor : 0;
  if (times[k] > t) k = 0;
  while (k + 1 < n && times[k + 1] <= t) ++k;  // increasing t: amortised O(1)
  cursor = k;
  const float* a = value(k);
  if (k + 1 >= n || t <= times[k] || interpolation_ == SamplerInterpolation::Step) {
    for (std::size_t c = 0; c < width_; ++c) out[c] = a[c];
    return;
  }
  const float* b = value(k + 1);
  const double dt = times[k + 1] - times[k];
  const double s = (t - times[k]) / dt;
  if (interpolation_ == SamplerInterpolation::Linear) {
    if (rotation_ && width_ == 4) {
      const double qa[4] = {a[0], a[1], a[2], a[3]}, qb[4] = {b[0], b[1], b[2], b[3]};
      slerp(qa, qb, s, out);
      return;
    }
    for (std::size_t c = 0; c < width_; ++c) out[c] = a[c] + (static_cast<double>(b[c]) - a[c]) * s;
    return;
  }
  const HermiteBasis h = hermite_basis(s);
  const float* out_tangent_k = out_tangent(k);
  const float* in_tangent_next = in_tangent(k + 1);
  for (std::size_t c = 0; c < width_; ++c) out[c] = hermite(h, a[c], out_tangent_k[c], b[c], in_tangent_next[c], dt);
  if (rotation_ && width_ == 4) normalize4(out);
}

double ChannelCurve::chord_error(double a, double b, const std::vector<double>& va, const std::vector<double>& vb,
                                 double at) const {
  std::size_t cursor = 0;
  std::vector<double> exact(width_);
  evaluate(at, cursor, exact.data());
  const double s = (at - a) / (b - a);
  if (rotation_ && width_ == 4) {
    double q[4];
    slerp(va.data(), vb.data(), s, q);
    // Rotation angle between the two, from the chord length (precise for small angles).
    double chord2 = 0;
    const double sign = (q[0] * exact[0] + q[1] * exact[1] + q[2] * exact[2] + q[3] * exact[3]) < 0 ? -1 : 1;
    for (std::size_t c = 0; c < 4; ++c) chord2 += (q[c] - sign * exact[c]) * (q[c] - sign * exact[c]);
    return 4.0 * std::asin(std::min(1.0, std::sqrt(chord2) / 2.0));
  }
  double worst = 0;
  for (std::size_t c = 0; c < width_; ++c) {
    const double linear = va[c] + (vb[c] - va[c]) * s;
    worst = std::max(worst, std::fabs(linear - exact[c]));
  }
  return worst / std::max(magnitude_, 1e-6);
}

// Resampling adds keys before the track charges them: each addition is checked as it is made.
constexpr std::string_view kResampledKeys = "resampled animation keys";

void ChannelCurve::bisect(double a, double b, int depth, double tolerance, const ImportBudget& budget,
                          std::vector<SamplePoint>& out) const {
  std::vector<double> va(width_), vb(width_);
  std::size_t cursor = 0;
  evaluate(a, cursor, va.data());
  evaluate(b, cursor, vb.data());
  double worst = 0;
  for (double f : {0.25, 0.5, 0.75}) worst = std::max(worst, chord_error(a, b, va, vb, a + (b - a) * f));
  if (worst <= tolerance || depth >= kMaxBisectionDepth) return;
  const double m = 0.5 * (a + b);
  bisect(a, m, depth + 1, tolerance, budget, out);
  budget.require_keys(out.size() + 1, kResampledKeys);
  out.push_back(SamplePoint{m, ticks_from_seconds(m)});
  bisect(m, b, depth + 1, tolerance, budget, out);
}

void ChannelCurve::append_sample_points(bool union_only, double tolerance, const ImportBudget& budget,
                                        std::vector<SamplePoint>& out) const {
  const std::vector<SamplePoint>& points = keys_->points;
  budget.require_keys(out.size() + points.size(), kResampledKeys);
  if (keys_suffice(union_only)) {
    out.insert(out.end(), points.begin(), points.end());
    return;
  }
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (k > 0) {
      if (interpolation_ == SamplerInterpolation::Step) {
        // One tick before the change, still holding the previous value.
        const Ticks before = points[k].tick - Ticks{1};
        const double seconds = points[k].seconds - 1e-7;
        if (seconds > points[k - 1].seconds && before > points[k - 1].tick) {
          budget.require_keys(out.size() + 1 + points.size() - k, kResampledKeys);
          out.push_back(SamplePoint{seconds, before});
        }
      } else {
        bisect(points[k - 1].seconds, points[k].seconds, 0, tolerance, budget, out);
      }
    }
    out.push_back(points[k]);
  }
}

std::vector<SamplePoint> merge_sample_points(std::vector<SamplePoint> points, const std::vector<std::size_t>& runs) {
  const auto by_seconds = [](const SamplePoint& a, const SamplePoint& b) { return a.seconds < b.seconds; };
  // Channels of one node usually share their key times: then there is nothing to merge.
  const auto run_end = [&](std::size_t r) { return r + 1 < runs.size() ? runs[r + 1] : points.size(); };
  const auto same_time = [](const SamplePoint& a, const SamplePoint& b) { return a.seconds == b.seconds; };
  const std::size_t first = run_end(0);
  bool same = runs.size() > 1;
  for (std::size_t r = 1; same && r < runs.size(); ++r) {
    same = run_end(r) - runs[r] == first &&
           std::equal(points.begin(), points.begin() + static_cast<long>(first), points.begin() + static_cast<long>(runs[r]),
                      same_time);
  }
  if (same) {
    points.resize(first);
  } else {
    for (std::size_t r = 1; r < runs.size(); ++r) {  // sorted runs: linear merges
      std::inplace_merge(points.begin(), points.begin() + static_cast<long>(runs[r]),
                         points.begin() + static_cast<long>(run_end(r)), by_seconds);
    }
  }
  std::vector<SamplePoint> merged;
  merged.reserve(points.size());
  for (const SamplePoint& p : points) {
    if (!merged.empty() && folds_into(merged.back(), p)) {
      merged.back() = SamplePoint{p.seconds, std::max(p.tick, merged.back().tick)};
      continue;
    }
    merged.push_back(p);
  }
  return merged;
}

}  // namespace marrow::gltf
