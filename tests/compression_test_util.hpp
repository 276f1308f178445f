#pragma once
// The error of a compressed clip measured as offline/clip_compression.hpp defines it: the largest
// displacement of points at `distance` around every joint, in model space (root prefix
// included), source clip against compressed clip, over a dense sweep and random times.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>

#include "marrow/core/trs.hpp"
#include "marrow/runtime/animation_clip.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skinning_data.hpp"

namespace marrow::test {

// The model-space matrices of a pose (double precision, the root prefix applied).
inline std::vector<glm::dmat4> model_matrices(const SkinningData& skin, std::span<const TrsBlock> pose) {
  std::vector<glm::dmat4> out(static_cast<std::size_t>(skin.bone_count));
  for (std::size_t j = 0; j < out.size(); ++j) {
    const glm::dmat4 local(compose_trs(pose_joint(pose, j)));
    const int parent = skin.skeleton_hierarchy[j];
    const glm::dmat4 root = has_root_prefix(skin) ? glm::dmat4(skin.skeleton_root_prefix[j]) : glm::dmat4(1.0);
    out[j] = (parent >= 0 ? out[static_cast<std::size_t>(parent)] : root) * local;
  }
  return out;
}

// The largest displacement, over every joint, of 26 points at `distance` around it (its frame's
// axes, face and corner diagonals), source pose against compressed pose.
inline double max_displacement(const SkinningData& skin, std::span<const TrsBlock> source, std::span<const TrsBlock> played,
                               double distance, int* worst_joint) {
  const std::vector<glm::dmat4> a = model_matrices(skin, source), b = model_matrices(skin, played);
  double worst = 0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    for (int x = -1; x <= 1; ++x) {
      for (int y = -1; y <= 1; ++y) {
        for (int z = -1; z <= 1; ++z) {
          if (x == 0 && y == 0 && z == 0) continue;
          const glm::dvec4 p(glm::normalize(glm::dvec3(x, y, z)) * distance, 1.0);
          const double d = glm::length(glm::dvec3(b[j] * p) - glm::dvec3(a[j] * p));
          if (d > worst) worst = d, *worst_joint = static_cast<int>(j);
        }
      }
    }
  }
  return worst;
}

// The measured error of `compressed` against `clip`: a sweep at 1/480 s (eight per 60 Hz frame,
// between the keys as well as on them), 500 random ticks and the end.
inline double measured_error(const AnimationClip& clip, const SkinningData& skin, const RuntimeClip& compressed,
                             double distance, std::mt19937& rng, int* worst_joint) {
  const RuntimeClip source = compile_clip(clip, skin);
  const std::size_t joints = source.joint_count();
  SamplingContext ca(joints), cb(joints);
  std::vector<TrsBlock> a(pose_block_count(joints)), b(pose_block_count(joints));
  std::vector<Ticks> times;
  for (Ticks t{0}; t <= clip.duration; t += Ticks{kTicksPerSecond / 480}) times.push_back(t);
  std::uniform_int_distribution<std::int64_t> any(0, clip.duration.count());
  for (int i = 0; i < 500; ++i) times.push_back(Ticks{any(rng)});
  times.push_back(clip.duration);
  double worst = 0;
  for (Ticks t : times) {
    SamplingJob{&source, t, &ca, a}.run();
    SamplingJob{&compressed, t, &cb, b}.run();
    worst = std::max(worst, max_displacement(skin, a, b, distance, worst_joint));
  }
  return worst;
}

}  // namespace marrow::test
