#include "marrow/skin/skinning_job.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

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

// The blended matrix's first three rows, as four columns.
struct Blend {
  glm::vec3 c0, c1, c2, c3;
};

inline glm::vec3 normalized_or_zero(const glm::vec3& v) {
  const float len2 = v.x * v.x + v.y * v.y + v.z * v.z;
  return len2 > 0.f ? v * (1.f / std::sqrt(len2)) : v;
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

void SkinningJob::run() const {
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
    Blend b;
    b.c0 = glm::vec3(m0[0]) * w.x + glm::vec3(m1[0]) * w.y + glm::vec3(m2[0]) * w.z + glm::vec3(m3[0]) * w.w;
    b.c1 = glm::vec3(m0[1]) * w.x + glm::vec3(m1[1]) * w.y + glm::vec3(m2[1]) * w.z + glm::vec3(m3[1]) * w.w;
    b.c2 = glm::vec3(m0[2]) * w.x + glm::vec3(m1[2]) * w.y + glm::vec3(m2[2]) * w.z + glm::vec3(m3[2]) * w.w;
    b.c3 = glm::vec3(m0[3]) * w.x + glm::vec3(m1[3]) * w.y + glm::vec3(m2[3]) * w.z + glm::vec3(m3[3]) * w.w;
    const glm::vec3 p = in_positions.load(v);
    out_positions.store(v, b.c0 * p.x + b.c1 * p.y + b.c2 * p.z + b.c3);
    if (normals) {
      const glm::vec3 nrm = in_normals.load(v);
      out_normals.store(v, normalized_or_zero(b.c0 * nrm.x + b.c1 * nrm.y + b.c2 * nrm.z));
    }
    if (tangents) {
      const glm::vec4 t = in_tangents.load(v);
      out_tangents.store(v, glm::vec4(normalized_or_zero(b.c0 * t.x + b.c1 * t.y + b.c2 * t.z), t.w));
    }
  }
}

}  // namespace marrow
