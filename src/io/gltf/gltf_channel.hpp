#pragma once
// Private to the glTF importer: one animation sampler read and validated as an exact curve, and
// the sample points at which the linear/slerp player must be keyed to follow it (G9).
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "accessor_floats.hpp"
#include "marrow/core/ticks.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

// A time at which clips are keyed: exact seconds (the file's float32 value, as double) and the
// tick the key is stored at.
struct SamplePoint {
  double seconds = 0.0;
  Ticks tick{};
};

// The key times of one input accessor, validated: seconds, and the same as sample points.
struct KeyTimes {
  std::vector<double> seconds;
  std::vector<SamplePoint> points;
  // No two keys within 1e-9 s or on one tick: merge_sample_points would keep every point, so a
  // node whose channels all share these keys is keyed by them as they are.
  bool distinct = true;
};

// Samplers of one animation usually share their input: it is read and checked once.
class KeyTimeCache {
 public:
  // Throws ImportError (InvalidAnimation) naming the animation and sampler: input not float
  // SCALAR, no keys, times not finite or not strictly increasing.
  std::shared_ptr<const KeyTimes> times(const GltfAsset& asset, std::uint32_t animation, std::uint32_t sampler,
                                        ImportBudget& budget);

 private:
  std::map<std::uint32_t, std::shared_ptr<const KeyTimes>> by_accessor_;
};

class ChannelCurve {
 public:
  // Reads sampler `sampler` of animation `animation` with `width` components per value (3 for
  // translation/scale, 4 for rotation, the target count for weights). Throws ImportError
  // (InvalidAnimation) naming the animation and sampler: bad key times (KeyTimeCache), output
  // count not keys * width (* 3 for CUBICSPLINE), non-finite outputs.
  ChannelCurve(const GltfAsset& asset, std::uint32_t animation, std::uint32_t sampler, std::size_t width,
               bool rotation, ImportBudget& budget, KeyTimeCache& times);

  SamplerInterpolation interpolation() const noexcept { return interpolation_; }
  std::size_t width() const noexcept { return width_; }
  const std::vector<double>& times() const noexcept { return keys_->seconds; }
  const KeyTimes& keys() const noexcept { return *keys_; }
  // True when the player needs no points beyond the keys to follow the curve exactly.
  bool keys_suffice(bool union_only) const noexcept {
    return union_only || interpolation_ == SamplerInterpolation::Linear;
  }
  // Key k's value (the spline vertex for CUBICSPLINE), in-tangent and out-tangent.
  const float* value(std::size_t k) const noexcept { return values_.values().data() + k * stride() + (cubic() ? width_ : 0); }
  const float* in_tangent(std::size_t k) const noexcept { return values_.values().data() + k * stride(); }
  const float* out_tangent(std::size_t k) const noexcept { return values_.values().data() + k * stride() + 2 * width_; }

  // The exact curve at t seconds: held before the first and after the last key; LINEAR lerps
  // (rotations slerp along the shorter arc); STEP holds the value at the start of the half-open
  // interval; CUBICSPLINE is glTF's Hermite with tangents scaled by the interval, rotations
  // normalised. cursor speeds up increasing t. Computed in double.
  void evaluate(double t, std::size_t& cursor, double* out) const;

  // The points the player needs: every key; unless union_only, STEP gets a point one tick before
  // each change (holding the old value) and CUBICSPLINE intervals are bisected until the
  // linear/slerp interpolation of neighbouring points is within tolerance of the curve.
  // Throws ImportError(LimitExceeded, the budget's refusal) as soon as `out` would hold more keys
  // than the budget has left.
  void append_sample_points(bool union_only, double tolerance, const ImportBudget& budget,
                            std::vector<SamplePoint>& out) const;

 private:
  bool cubic() const noexcept { return interpolation_ == SamplerInterpolation::CubicSpline; }
  std::size_t stride() const noexcept { return cubic() ? 3 * width_ : width_; }
  double chord_error(double a, double b, const std::vector<double>& va, const std::vector<double>& vb,
                     double at) const;
  void bisect(double a, double b, int depth, double tolerance, const ImportBudget& budget,
              std::vector<SamplePoint>& out) const;

  SamplerInterpolation interpolation_;
  std::size_t width_;
  bool rotation_;
  double magnitude_ = 0.0;  // largest |value| of the curve, the scale for relative tolerance
  std::shared_ptr<const KeyTimes> keys_;
  AccessorFloats values_;
};

// Merges sorted runs of points (each channel's, back to back in `points`, run boundaries in
// `runs`) into one increasing list, folding points closer than 1e-9 s or on the same tick into
// the later one (so a step that lands there is already in force).
std::vector<SamplePoint> merge_sample_points(std::vector<SamplePoint> points, const std::vector<std::size_t>& runs);

// merge_sample_points's rule: point b (after a) folds into a when it is within 1e-9 s of it or
// not on a later tick.
inline bool folds_into(const SamplePoint& a, const SamplePoint& b) noexcept {
  return b.seconds - a.seconds <= 1e-9 || b.tick <= a.tick;
}

}  // namespace marrow::gltf
