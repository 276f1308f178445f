#include "marrow/runtime/morph_weight_track.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"
#include "marrow/core/hermite.hpp"

namespace marrow {

namespace {

void check_values(const char* field, const std::vector<float>& v, std::size_t expected, bool may_be_empty) {
  if (may_be_empty && v.empty()) return;
  if (v.size() != expected) {
    throw std::invalid_argument(std::string("MorphWeightTrack: ") + field + " has " + std::to_string(v.size()) +
                                " values, expected " + std::to_string(expected));
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw std::invalid_argument(std::string("MorphWeightTrack: ") + field + "[" + std::to_string(i) +
                                  "] is not finite");
    }
  }
}

}  // namespace

void validate(const MorphWeightTrack& track) {
  const std::size_t expected = track.times.size() * track.weight_count;
  if (track.weight_count != 0 && expected / track.weight_count != track.times.size()) {
    throw std::invalid_argument("MorphWeightTrack: times * weight_count overflows");
  }
  for (std::size_t k = 0; k < track.times.size(); ++k) {
    if (!std::isfinite(track.times[k])) {
      throw std::invalid_argument("MorphWeightTrack: times[" + std::to_string(k) + "] is not finite");
    }
    if (k > 0 && track.times[k] < track.times[k - 1]) {
      throw std::invalid_argument("MorphWeightTrack: times[" + std::to_string(k) + "] = " +
                                  std::to_string(track.times[k]) + " is before times[" + std::to_string(k - 1) +
                                  "] = " + std::to_string(track.times[k - 1]));
    }
  }
  check_values("values", track.values, expected, false);
  check_values("in_tangents", track.in_tangents, expected, true);
  check_values("out_tangents", track.out_tangents, expected, true);
  if (track.in_tangents.empty() != track.out_tangents.empty()) {
    throw std::invalid_argument("MorphWeightTrack: in_tangents and out_tangents must both be given or both empty");
  }
  if (track.interpolation == Interpolation::CubicSpline && !track.out_tangents.empty()) {
    const std::size_t n = track.weight_count;
    for (std::size_t k = 0; k + 1 < track.times.size(); ++k) {
      const double dt = track.times[k + 1] - track.times[k];
      for (std::size_t i = 0; i < n; ++i) {
        if (!hermite_fits_float(track.values[k * n + i], track.values[(k + 1) * n + i], dt * track.out_tangents[k * n + i],
                                dt * track.in_tangents[(k + 1) * n + i])) {
          throw std::invalid_argument("MorphWeightTrack: interval " + std::to_string(k) + " weight " + std::to_string(i) +
                                      " leaves the float range (values plus interval-scaled tangents exceed 3.4e38)");
        }
      }
    }
  }
}

void evaluate_morph_weights(const MorphWeightTrack& track, double seconds, std::span<float> out) {
  const std::size_t n = track.weight_count;
  if (out.size() != n) {
    throw std::invalid_argument("evaluate_morph_weights: output has " + std::to_string(out.size()) +
                                " entries, the track has " + std::to_string(n) + " weights");
  }
  const std::size_t keys = track.times.size();
  if (keys == 0 || track.values.size() < keys * n) {
    std::fill(out.begin(), out.end(), 0.f);
    return;
  }
  const auto value = [&](std::size_t k) { return track.values.data() + k * n; };
  // Largest k with times[k] <= seconds (0 when seconds precedes every key).
  const auto after = std::upper_bound(track.times.begin(), track.times.end(), seconds);
  const std::size_t k = after == track.times.begin() ? 0 : static_cast<std::size_t>(after - track.times.begin()) - 1;
  if (k + 1 >= keys || seconds <= track.times[k] || track.interpolation == Interpolation::Step) {
    std::copy(value(k), value(k) + n, out.begin());
    return;
  }
  const double t0 = track.times[k], t1 = track.times[k + 1];
  const double dt = t1 - t0;
  const double s = (seconds - t0) / dt;
  const float* a = value(k);
  const float* b = value(k + 1);
  const bool cubic = track.interpolation == Interpolation::CubicSpline &&
                     track.out_tangents.size() >= keys * n && track.in_tangents.size() >= keys * n;
  if (!cubic) {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(a[i] + (b[i] - a[i]) * s);
    return;
  }
  const HermiteBasis h = hermite_basis(s);
  const float* out_tan = track.out_tangents.data() + k * n;       // b_k
  const float* in_tan = track.in_tangents.data() + (k + 1) * n;   // a_k+1
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(hermite(h, a[i], out_tan[i], b[i], in_tan[i], dt));
}

std::vector<float> evaluate_morph_weights(const MorphWeightTrack& track, double seconds) {
  if (track.times.empty()) return {};
  std::vector<float> out(track.weight_count);
  evaluate_morph_weights(track, seconds, out);
  return out;
}

}  // namespace marrow
