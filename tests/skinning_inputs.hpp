#pragma once
// Inputs of the skinning tests: vertices as separate arrays, random vertices and palettes, a
// SkinningJob over all of a vertex set's spans, and guarded memory for reads past a span.
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_precision.hpp>

#include "marrow/runtime/skinning_job.hpp"

namespace marrow::test {

struct SkinnedVertices {
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec4> tangents;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
};

// n vertices in the unit cube, four random joints of `palette` each with weights summing to 1,
// normals leaning to +z, tangents to +x with alternating handedness.
inline SkinnedVertices random_skinned_vertices(std::size_t n, std::uint16_t palette, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> j(0, palette - 1);
  SkinnedVertices m;
  for (std::size_t i = 0; i < n; ++i) {
    m.positions.push_back({u(rng), u(rng), u(rng)});
    m.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 2)));
    m.tangents.push_back(glm::vec4(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(2, 0, 0)),
                                   i % 2 ? 1.f : -1.f));
    m.joints.push_back(glm::u16vec4(j(rng), j(rng), j(rng), j(rng)));
    glm::vec4 w(std::fabs(u(rng)), std::fabs(u(rng)), std::fabs(u(rng)), std::fabs(u(rng)));
    m.weights.push_back(w / (w.x + w.y + w.z + w.w));
  }
  return m;
}

// Rigid palette matrices: a rotation and a translation each.
inline std::vector<glm::mat4> random_palette(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::mat4> p;
  for (std::size_t i = 0; i < n; ++i) {
    p.push_back(glm::translate(glm::mat4(1.f), glm::vec3(u(rng), u(rng), u(rng))) *
                glm::mat4_cast(glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)))));
  }
  return p;
}

// Palette matrices with rotation, translation and non-uniform scale (so that renormalising
// normals matters).
inline std::vector<glm::mat4> scaled_palette(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f), s(0.5f, 2.f);
  std::vector<glm::mat4> p;
  for (std::size_t i = 0; i < n; ++i) {
    p.push_back(glm::translate(glm::mat4(1.f), glm::vec3(u(rng), u(rng), u(rng))) *
                glm::mat4_cast(glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 0.01f))) *
                glm::scale(glm::mat4(1.f), glm::vec3(s(rng), s(rng), s(rng))));
  }
  return p;
}

// A job skinning every span of `in` (positions, normals, tangents) into p, n and t, which are
// sized (and zeroed) here.
inline SkinningJob skinning_job_over(const SkinnedVertices& in, std::span<const glm::mat4> palette, std::vector<glm::vec3>& p,
                                     std::vector<glm::vec3>& n, std::vector<glm::vec4>& t) {
  p.assign(in.positions.size(), glm::vec3(0));
  n.assign(in.positions.size(), glm::vec3(0));
  t.assign(in.positions.size(), glm::vec4(0));
  SkinningJob job;
  job.palette = palette;
  job.joints = std::span<const glm::u16vec4>(in.joints);
  job.weights = std::span<const glm::vec4>(in.weights);
  job.in_positions = std::span<const glm::vec3>(in.positions);
  job.out_positions = std::span<glm::vec3>(p);
  job.in_normals = std::span<const glm::vec3>(in.normals);
  job.out_normals = std::span<glm::vec3>(n);
  job.in_tangents = std::span<const glm::vec4>(in.tangents);
  job.out_tangents = std::span<glm::vec4>(t);
  return job;
}

// What output bytes are filled with before a job runs, to see which it wrote.
inline constexpr std::byte kSentinel{0xA5};

// Memory that ends exactly at a page that cannot be touched: a kernel reading or writing one
// byte past its span faults.
class GuardedBytes {
 public:
  explicit GuardedBytes(std::size_t size) : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    const std::size_t pages = (size + page_ - 1) / page_;
    length_ = (pages + 1) * page_;
    void* base = mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) throw std::runtime_error("mmap");
    base_ = static_cast<std::byte*>(base);
    mprotect(base_ + pages * page_, page_, PROT_NONE);
    data_ = base_ + pages * page_ - size;
  }
  GuardedBytes(const GuardedBytes&) = delete;
  GuardedBytes& operator=(const GuardedBytes&) = delete;
  ~GuardedBytes() { munmap(base_, length_); }
  std::byte* data() const { return data_; }

 private:
  std::size_t page_, length_ = 0;
  std::byte* base_ = nullptr;
  std::byte* data_ = nullptr;
};

}  // namespace marrow::test
