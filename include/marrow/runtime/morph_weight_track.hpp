#pragma once
// Animated morph weights (G16). Unlike bone channels, weight tracks keep their cubic tangents
// and are evaluated lazily as a real Hermite curve.
#include <cstddef>
#include <span>
#include <vector>

namespace marrow {

enum class Interpolation { Step, Linear, CubicSpline };

struct MorphWeightTrack {
  Interpolation interpolation = Interpolation::Linear;
  std::size_t weight_count = 0;      // weights per key (= morph targets of the mesh)
  std::vector<double> times;         // seconds, non-decreasing
  std::vector<float> values;         // times.size() * weight_count
  std::vector<float> in_tangents;    // CubicSpline only: empty, or times.size() * weight_count
  std::vector<float> out_tangents;   // same

  bool empty() const noexcept { return times.empty(); }
  double duration() const noexcept { return times.empty() ? 0.0 : times.back(); }
};

// Throws std::invalid_argument naming the field, key and value: array sizes that disagree with
// times.size() * weight_count, non-finite values, or times that decrease.
void validate(const MorphWeightTrack& track);

// G16: empty track -> empty result; one key -> its weights; before the first / at or after the
// last key -> that key's weights; Step holds the value at the start of the half-open interval
// [t_k, t_k+1); Linear lerps; CubicSpline evaluates glTF's Hermite basis with tangents scaled
// by the interval length, and falls back to Linear when the track carries no tangents.
std::vector<float> evaluate_morph_weights(const MorphWeightTrack& track, double seconds);

// The same into a caller-supplied span of exactly weight_count floats (no allocation).
// Throws std::invalid_argument when out has another size.
void evaluate_morph_weights(const MorphWeightTrack& track, double seconds, std::span<float> out);

}  // namespace marrow
