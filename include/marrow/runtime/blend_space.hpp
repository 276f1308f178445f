#pragma once
// Blend spaces (AG1, AG2): the weights of a set of clips (samples) placed at parameter values,
// for a parameter value (a speed; a speed and a direction). The weights then go to the blending
// job (blending_job.hpp) as the layers' weights; sync groups (B6) keep the clips in phase.
//
// 1-D (AG1): samples at increasing positions p_0 < p_1 < ... < p_n-1. For a value v:
//   v <= p_0: weight 1 on sample 0;  v >= p_n-1: weight 1 on the last;
//   p_i <= v <= p_i+1: w_i = (p_i+1 - v) / (p_i+1 - p_i), w_i+1 = 1 - w_i, the others 0.
// At a sample's position exactly, that sample has weight 1.
//
// 2-D (AG2): samples at 2-D points, triangulated once (Delaunay: no sample strictly inside any
// triangle's circumcircle; Bowyer-Watson in double). For a point inside the hull, the weights are
// its barycentric coordinates in the triangle that holds it (on a shared edge, either triangle:
// the same weights); outside the hull, those of the nearest point on the hull (on one edge, or
// a corner). Weights are >= 0 and sum to 1, and sum_i w_i * s_i is the point (or its nearest
// point on the hull). Two samples closer than 1e-6 of the set's extent, or all samples on one
// line (within the same tolerance), are refused when the space is made: no triangle would hold
// a point between them.
//
//   const BlendSpace2d space(points);           // throws std::invalid_argument, once
//   space.weights({speed, direction}, weights); // no allocation, no throw
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>

#include "marrow/runtime/job_status.hpp"

namespace marrow {

// AG1. positions strictly increasing and finite, weights one per position (validate_blend1d:
// the field at fault); value finite. Returns false (nothing written) when invalid.
JobStatus validate_blend1d(std::span<const float> positions, std::span<const float> weights) noexcept;
bool blend1d_weights(std::span<const float> positions, float value, std::span<float> weights) noexcept;

class BlendSpace2d {
 public:
  struct Triangle {
    std::size_t a, b, c;  // sample indices, counter-clockwise
  };

  // Throws std::invalid_argument naming the samples: fewer than 3, a non-finite coordinate, two
  // coincident, all on one line.
  explicit BlendSpace2d(std::span<const glm::vec2> samples);

  std::size_t sample_count() const noexcept { return samples_.size(); }
  std::span<const Triangle> triangles() const noexcept { return triangles_; }

  // One weight per sample (weights.size() == sample_count(), a finite point). Returns false
  // (nothing written) otherwise.
  bool weights(const glm::vec2& point, std::span<float> weights) const noexcept;

 private:
  std::vector<glm::dvec2> samples_;
  std::vector<Triangle> triangles_;
  std::vector<double> inv_areas_;  // per triangle, 1 / (twice its area): barycentrics by products
  std::vector<std::pair<std::size_t, std::size_t>> hull_;  // edges, counter-clockwise
};

}  // namespace marrow
