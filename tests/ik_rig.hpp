#pragma once
// IK tests' skeletons: joints posed from T/R/S and composed with the one local-to-model job, as a
// game poses them; and the angles and checks the K1 and K2 tests measure with.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/local_to_model_job.hpp"

namespace marrow::test {

inline const glm::quat kIdentity(1.f, 0.f, 0.f, 0.f);

// A skeleton posed from T/R/S and composed with the one local-to-model job.
struct IkRig {
  std::vector<int> parents;
  std::vector<TrsBlock> pose;
  std::vector<glm::mat4> models;

  explicit IkRig(std::vector<int> p) : parents(std::move(p)), pose(pose_block_count(parents.size())), models(parents.size()) {}
  void set(std::size_t joint, const glm::vec3& t, const glm::quat& r = kIdentity, const glm::vec3& s = glm::vec3(1.f)) {
    set_pose_joint(pose, joint, Trs{t, r, s});
  }
  void compose(std::size_t from = 0) {
    const LocalToModelJob job{.parents = parents, .local_pose = pose, .from = from, .models = models};
    EXPECT_TRUE(job.run());
  }
  glm::vec3 at(std::size_t joint) const { return glm::vec3(models[joint][3]); }
  glm::vec3 axis(std::size_t joint, const glm::vec3& local) const {
    return glm::normalize(glm::vec3(models[joint] * glm::vec4(local, 0.f)));
  }
};

inline bool same_bytes(const void* a, const void* b, std::size_t n) { return std::memcmp(a, b, n) == 0; }

inline float angle_between(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

inline float rotation_angle(const glm::quat& q) {
  return 2.f * std::atan2(glm::length(glm::vec3(q.x, q.y, q.z)), std::fabs(q.w));
}

inline glm::vec3 across(const glm::vec3& v, const glm::vec3& unit) { return v - glm::dot(v, unit) * unit; }

inline bool finite_unit(const glm::quat& q) { return is_finite(q) && std::fabs(glm::length(q) - 1.f) < 1e-5f; }

}  // namespace marrow::test
