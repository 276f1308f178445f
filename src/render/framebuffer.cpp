#include "marrow/render/framebuffer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace marrow::render {

namespace {

constexpr int kSrgbTableSize = 4096;

float srgb_from_linear(double v) {
  return static_cast<float>(v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055);
}

// Built once on first use, then read-only (no mutable global state).
const std::array<std::uint8_t, kSrgbTableSize>& srgb_table() {
  static const std::array<std::uint8_t, kSrgbTableSize> table = [] {
    std::array<std::uint8_t, kSrgbTableSize> t{};
    for (int i = 0; i < kSrgbTableSize; ++i) {
      const float s = srgb_from_linear(static_cast<double>(i) / (kSrgbTableSize - 1));
      t[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(std::lround(std::clamp(s, 0.f, 1.f) * 255.f));
    }
    return t;
  }();
  return table;
}

}  // namespace

std::uint8_t linear_to_srgb8(float linear) noexcept {
  const float v = std::clamp(linear, 0.f, 1.f);  // NaN compares false and stays NaN: caught below
  const long i = std::isnan(v) ? 0 : std::lround(v * static_cast<float>(kSrgbTableSize - 1));
  return srgb_table()[static_cast<std::size_t>(i)];
}

float srgb8_to_linear(std::uint8_t srgb) noexcept {
  const double s = srgb / 255.0;
  return static_cast<float>(s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4));
}

void Framebuffer::resize(int width, int height, int samples) {
  check_image_size(width, height, "frame");
  if (samples < 1 || samples > kMaxSamplesPerAxis) {
    throw std::invalid_argument("supersampling " + std::to_string(samples) + " is outside [1, " +
                                std::to_string(kMaxSamplesPerAxis) + "] samples per axis");
  }
  const std::int64_t total = std::int64_t{width} * height * samples * samples;
  if (total > kMaxFramebufferSamples) {
    throw std::invalid_argument("frame " + std::to_string(width) + "x" + std::to_string(height) + " with " +
                                std::to_string(samples) + "x" + std::to_string(samples) + " supersampling needs " +
                                std::to_string(total) + " samples; at most " + std::to_string(kMaxFramebufferSamples));
  }
  width_ = width;
  height_ = height;
  samples_ = samples;
  if (colours_.size() < sample_count()) {
    colours_.resize(sample_count());
    depths_.resize(sample_count());
  }
}

void Framebuffer::clear(const glm::vec3& linear_colour) noexcept {
  std::fill_n(colours_.begin(), sample_count(), linear_colour);
  std::fill_n(depths_.begin(), sample_count(), std::numeric_limits<float>::infinity());
}

void Framebuffer::resolve(Image& out) const {
  out.reset(width_, height_);
  const int s = samples_;
  const std::size_t row_stride = static_cast<std::size_t>(sample_width());
  const float scale = 1.f / static_cast<float>(s * s);
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      glm::vec3 sum(0.f);
      for (int sy = 0; sy < s; ++sy) {
        const glm::vec3* row = colours_.data() + static_cast<std::size_t>(y * s + sy) * row_stride + static_cast<std::size_t>(x * s);
        for (int sx = 0; sx < s; ++sx) sum += row[sx];
      }
      sum *= scale;
      out(x, y) = Rgba8{linear_to_srgb8(sum.r), linear_to_srgb8(sum.g), linear_to_srgb8(sum.b), 255};
    }
  }
}

}  // namespace marrow::render
