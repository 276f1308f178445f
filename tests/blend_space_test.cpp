// Blend spaces (AG1, AG2): the weights of clips placed at parameter values
// (runtime/blend_space.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <glm/geometric.hpp>

#include "marrow/runtime/blend_space.hpp"

namespace marrow {
namespace {

TEST(BlendSpace, AG1_WeightsAreLinearBetweenNeighboursAndClampedAtTheEnds) {
  const std::vector<float> positions = {0.f, 1.5f, 4.f, 6.f};  // idle, walk, run, sprint speeds
  std::vector<float> w(4);
  const auto weights_at = [&](float v) {
    EXPECT_TRUE(blend1d_weights(positions, v, w));
    return w;
  };
  EXPECT_EQ(weights_at(-3.f), (std::vector<float>{1.f, 0.f, 0.f, 0.f}));
  EXPECT_EQ(weights_at(0.f), (std::vector<float>{1.f, 0.f, 0.f, 0.f}));
  EXPECT_EQ(weights_at(1.5f), (std::vector<float>{0.f, 1.f, 0.f, 0.f}));
  EXPECT_EQ(weights_at(9.f), (std::vector<float>{0.f, 0.f, 0.f, 1.f}));
  const std::vector<float> mid = weights_at(2.75f);  // halfway between walk and run
  EXPECT_FLOAT_EQ(mid[1], 0.5f);
  EXPECT_FLOAT_EQ(mid[2], 0.5f);
  EXPECT_EQ(mid[0] + mid[3], 0.f);
  for (float v = -1.f; v < 7.f; v += 0.37f) {
    weights_at(v);
    float sum = 0.f, value = 0.f;
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_GE(w[i], 0.f);
      sum += w[i];
      value += w[i] * positions[i];
    }
    EXPECT_NEAR(sum, 1.f, 1e-6f);
    EXPECT_NEAR(value, std::clamp(v, 0.f, 6.f), 1e-5f) << v;
  }
}

TEST(BlendSpace, AG1_PositionsFartherApartThanTheLargestFloatStillWeighLinearly) {
  // -2e38 and 2e38 are finite floats whose difference is not (the span is taken in double).
  const std::vector<float> positions = {-2e38f, 2e38f};
  std::vector<float> w(2);
  ASSERT_TRUE(blend1d_weights(positions, 0.f, w));
  EXPECT_FLOAT_EQ(w[0], 0.5f);
  EXPECT_FLOAT_EQ(w[1], 0.5f);
  ASSERT_TRUE(blend1d_weights(positions, 1e38f, w));
  EXPECT_FLOAT_EQ(w[0], 0.25f);
}

TEST(BlendSpace, AG1_RefusesPositionsThatAreNotIncreasing) {
  std::vector<float> w(3);
  EXPECT_STREQ(validate_blend1d(std::vector<float>{0.f, 1.f, 1.f}, w).field, "positions");
  EXPECT_STREQ(validate_blend1d(std::vector<float>{0.f, 2.f, 1.f}, w).field, "positions");
  EXPECT_STREQ(validate_blend1d(std::vector<float>{0.f, 1.f}, w).field, "weights");
  EXPECT_FALSE(blend1d_weights(std::vector<float>{0.f, 1.f, 2.f}, std::nanf(""), w));
}

// Every triangle's circumcircle holds no sample strictly inside (Delaunay).
void expect_delaunay(const BlendSpace2d& space, const std::vector<glm::vec2>& s) {
  for (const auto& t : space.triangles()) {
    const glm::dvec2 a(s[t.a]), b(s[t.b]), c(s[t.c]);
    const double d = 2 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
    ASSERT_GT(d, 0.0) << "counter-clockwise and not flat";
    const double a2 = glm::dot(a, a), b2 = glm::dot(b, b), c2 = glm::dot(c, c);
    const glm::dvec2 centre((a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d,
                            (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d);
    const double r = glm::length(a - centre);
    for (std::size_t i = 0; i < s.size(); ++i) EXPECT_GE(glm::length(glm::dvec2(s[i]) - centre), r * (1 - 1e-9)) << i;
  }
}

TEST(BlendSpace, AG2_WeightsAreBarycentricInTheDelaunayTriangleAndFromTheHullOutside) {
  // A locomotion space: idle at the centre, walks and runs on two rings of directions, plus a
  // 3 x 3 grid (cocircular points: the hard case for a triangulation).
  std::vector<glm::vec2> ring{{0.f, 0.f}};
  for (int k = 0; k < 8; ++k) {
    const float a = static_cast<float>(k) * 0.785398f;
    ring.push_back(1.5f * glm::vec2(std::cos(a), std::sin(a)));
    ring.push_back(4.f * glm::vec2(std::cos(a + 0.3f), std::sin(a + 0.3f)));
  }
  std::vector<glm::vec2> grid;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) grid.push_back({static_cast<float>(x), static_cast<float>(y) * 2.f});
  for (const std::vector<glm::vec2>& samples : {ring, grid}) {
    const BlendSpace2d space(samples);
    expect_delaunay(space, samples);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-6.f, 6.f);
    std::vector<float> w(samples.size());
    for (int k = 0; k < 500; ++k) {
      const glm::vec2 p(u(rng), u(rng));
      ASSERT_TRUE(space.weights(p, w));
      glm::vec2 reached(0.f);
      float sum = 0.f;
      int used = 0;
      for (std::size_t i = 0; i < samples.size(); ++i) {
        ASSERT_GE(w[i], 0.f);
        sum += w[i];
        reached += w[i] * samples[i];
        used += w[i] > 0.f ? 1 : 0;
      }
      EXPECT_NEAR(sum, 1.f, 1e-5f);
      EXPECT_LE(used, 3);
      // Inside: the point itself; outside: a point of the hull no farther than any sample.
      float nearest_sample = 1e30f;
      for (const glm::vec2& s : samples) nearest_sample = std::min(nearest_sample, glm::length(p - s));
      EXPECT_LE(glm::length(p - reached), nearest_sample + 1e-4f) << p.x << ", " << p.y;
    }
    // At a sample, that sample alone.
    for (std::size_t i = 0; i < samples.size(); ++i) {
      ASSERT_TRUE(space.weights(samples[i], w));
      EXPECT_NEAR(w[i], 1.f, 1e-5f) << i;
    }
  }
}

TEST(BlendSpace, AG2_InsideTheHullThePointIsReproduced) {
  const std::vector<glm::vec2> s{{0.f, 0.f}, {2.f, 0.f}, {2.f, 2.f}, {0.f, 2.f}, {1.f, 0.8f}};
  const BlendSpace2d space(s);
  std::vector<float> w(s.size());
  for (const glm::vec2 p : {glm::vec2(0.3f, 0.2f), glm::vec2(1.9f, 1.1f), glm::vec2(1.f, 1.9f), glm::vec2(1.f, 0.8f)}) {
    ASSERT_TRUE(space.weights(p, w));
    glm::vec2 reached(0.f);
    for (std::size_t i = 0; i < s.size(); ++i) reached += w[i] * s[i];
    EXPECT_LT(glm::length(reached - p), 1e-5f);
  }
  // Outside: the nearest point of the hull (here the square's top edge).
  ASSERT_TRUE(space.weights({0.5f, 7.f}, w));
  glm::vec2 reached(0.f);
  for (std::size_t i = 0; i < s.size(); ++i) reached += w[i] * s[i];
  EXPECT_LT(glm::length(reached - glm::vec2(0.5f, 2.f)), 1e-5f);
}

TEST(BlendSpace, AG2_CoincidentOrCollinearSamplesAreRefused) {
  const auto refused = [](std::vector<glm::vec2> s, const char* why) {
    try {
      BlendSpace2d space(s);
      ADD_FAILURE() << "accepted: " << why;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused({{0.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}, {0.f, 1.f}}, "samples 1 and 2 coincide");
  refused({{0.f, 0.f}, {1.f, 1.f}, {2.f, 2.f}, {3.f, 3.f}}, "one line");
  refused({{0.f, 0.f}, {1.f, 1.f}}, "at least 3");
  refused({{0.f, 0.f}, {1.f, std::nanf("")}, {0.f, 1.f}}, "not finite");
}

}  // namespace
}  // namespace marrow
