#pragma once
// Small helpers shared by the tests: matrix comparison and expect-throw-with-message.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/simd_level.hpp"

namespace marrow::test {

// Times a player visits: mostly forward steps of up to max_step, some backward, and seeks
// anywhere in [jump_min, jump_max] (before and after every key, too).
inline std::vector<Ticks> random_play_times(std::mt19937& rng, int count, std::int64_t max_step, std::int64_t jump_min,
                                            std::int64_t jump_max) {
  std::vector<Ticks> times;
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<std::int64_t> step(0, max_step), jump(jump_min, jump_max);
  Ticks t{0};
  for (int i = 0; i < count; ++i) {
    const int k = kind(rng);
    if (k < 6) t += Ticks{step(rng)};       // forward play
    else if (k < 8) t -= Ticks{step(rng)};  // backward
    else t = Ticks{jump(rng)};              // a seek
    times.push_back(t);
  }
  return times;
}

inline ::testing::AssertionResult near(const glm::vec3& a, const glm::vec3& b, float tol = 1e-5f) {
  if (std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ") vs (" << b.x << ", "
                                       << b.y << ", " << b.z << ")";
}

inline ::testing::AssertionResult near(const glm::mat4& a, const glm::mat4& b, float tol = 1e-5f) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (!(std::fabs(a[c][r] - b[c][r]) <= tol)) {
        return ::testing::AssertionFailure() << "element [" << c << "][" << r << "]: " << a[c][r] << " vs " << b[c][r];
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// The same rotation (q and -q are equal).
inline ::testing::AssertionResult same_rotation(const glm::quat& a, const glm::quat& b, float tol = 1e-5f) {
  const float d = std::fabs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
  if (std::fabs(d - 1.f) <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "|dot| = " << d;
}

// Runs f, expects an exception of type E whose what() contains every given fragment.
template <class E, class F>
::testing::AssertionResult throws_with(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
  } catch (const E& e) {
    const std::string what = e.what();
    for (const std::string& fragment : fragments) {
      if (what.find(fragment) == std::string::npos) {
        return ::testing::AssertionFailure() << "message '" << what << "' lacks '" << fragment << "'";
      }
    }
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

// A rotation uniformly distributed over all rotations (a normalised 4D Gaussian).
// A translation matrix.
inline glm::mat4 translate(float x, float y, float z) { return glm::translate(glm::mat4(1.f), glm::vec3(x, y, z)); }

inline glm::quat random_rotation(std::mt19937& rng) {
  std::normal_distribution<float> g(0.f, 1.f);
  return glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
}

// A rotation from a point of the cube [-1, 1]^4 (w moved by 0.01, so never the zero quaternion),
// normalised: not uniform over rotations; the skinning tests' palettes are made with it.
inline glm::quat random_rotation_from_box(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  return glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 0.01f));
}

// Runs `body` once per kernel copy runnable here (runnable_simd_choices: each native level the
// processor has, then the AVX2 and AVX-512 kernels through SIMDe, so every level's logic is
// tested on every host; SCOPED_TRACE names it), then restores the choice in force before.
inline void for_each_simd_level(const std::function<void(SimdChoice)>& body) {
  const SimdChoice saved = simd_choice();
  for (const SimdChoice choice : runnable_simd_choices()) {
    set_simd_choice(choice);
    SCOPED_TRACE(to_string(choice));
    body(choice);
  }
  set_simd_choice(saved);
}

}  // namespace marrow::test
