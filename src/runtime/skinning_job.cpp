#include "marrow/runtime/skinning_job.hpp"

#include <algorithm>

#include <cmath>
#include <stdexcept>
#include <cstring>
#include <string>

#include "../core/float4.hpp"

namespace marrow {

namespace {

void check_count(const char* name, std::size_t size, std::size_t expected) {
  if (size != expected) {
    throw std::invalid_argument(std::string("SkinningJob: ") + name + " has " + std::to_string(size) +
                                " elements, in_positions has " + std::to_string(expected));
  }
}

void check_pair(const char* in_name, std::size_t in_size, const char* out_name, std::size_t out_size,
                std::size_t expected) {
  if (in_size == 0 && out_size == 0) return;
  check_count(in_name, in_size, expected);
  check_count(out_name, out_size, expected);
}

using detail::Float4;

// v / |v| (xyz); a zero vector stays zero (the floor keeps rsqrt finite, and 0 * finite = 0).
inline Float4 normalized3(Float4 v) { return v * rsqrt_of(max_of(dot3(v, v), Float4::splat(1e-30f))); }

inline Float4 column(const glm::mat4& m, int c) { return Float4::load(&m[c][0]); }

// Writes xyz straight from the register into element i of a strided output.
template <class T>
inline void store_xyz(const StridedSpan<T>& out, std::size_t i, Float4 v) {
  v.store3(out.data() + i * out.stride());
}

}  // namespace

void SkinningJob::validate() const {
  const std::size_t n = in_positions.size();
  check_count("out_positions", out_positions.size(), n);
  check_count("joints", joints.size(), n);
  check_count("weights", weights.size(), n);
  check_pair("in_normals", in_normals.size(), "out_normals", out_normals.size(), n);
  check_pair("in_tangents", in_tangents.size(), "out_tangents", out_tangents.size(), n);
}

MARROW_HOT_LOOP void SkinningJob::run() const {
  validate();
  const std::size_t n = in_positions.size();
  const std::size_t palette_size = palette.size();
  const bool normals = !in_normals.empty();
  const bool tangents = !in_tangents.empty();
  const glm::mat4* pal = palette.data();
  for (std::size_t v = 0; v < n; ++v) {
    const glm::u16vec4 j = joints.load(v);
    const glm::vec4 w = weights.load(v);
    if (j.x >= palette_size || j.y >= palette_size || j.z >= palette_size || j.w >= palette_size) {
      throw std::out_of_range("SkinningJob: vertex " + std::to_string(v) + " uses joint " +
                              std::to_string(std::max(std::max(j.x, j.y), std::max(j.z, j.w))) +
                              " of a palette of " + std::to_string(palette_size));
    }
    const glm::mat4& m0 = pal[j.x];
    const glm::mat4& m1 = pal[j.y];
    const glm::mat4& m2 = pal[j.z];
    const glm::mat4& m3 = pal[j.w];
    const Float4 w0 = Float4::splat(w.x), w1 = Float4::splat(w.y), w2 = Float4::splat(w.z), w3 = Float4::splat(w.w);
    // The weighted sum of the four matrices, one column at a time.
    Float4 c[4];
    for (int k = 0; k < 4; ++k) {
      c[k] = column(m0, k) * w0 + column(m1, k) * w1 + column(m2, k) * w2 + column(m3, k) * w3;
    }
    const glm::vec3 p = in_positions.load(v);
    store_xyz(out_positions, v, c[0] * Float4::splat(p.x) + c[1] * Float4::splat(p.y) + c[2] * Float4::splat(p.z) + c[3]);
    if (normals) {
      const glm::vec3 nrm = in_normals.load(v);
      store_xyz(out_normals, v,
                normalized3(c[0] * Float4::splat(nrm.x) + c[1] * Float4::splat(nrm.y) + c[2] * Float4::splat(nrm.z)));
    }
    if (tangents) {
      const glm::vec4 t = in_tangents.load(v);
      // xyz skinned; w (handedness) copied.
      store_xyz(out_tangents, v,
                normalized3(c[0] * Float4::splat(t.x) + c[1] * Float4::splat(t.y) + c[2] * Float4::splat(t.z)));
      std::memcpy(out_tangents.data() + v * out_tangents.stride() + 3 * sizeof(float), &t.w, sizeof(float));
    }
  }
}

}  // namespace marrow
