#pragma once
// The supersampled target the rasterizer draws into: `samples` x `samples` colour samples
// (linear RGB) and depths per pixel. resolve() averages each pixel's samples in linear light
// and encodes sRGB, which is the anti-aliasing (a box filter over an ordered grid).
//
// A Framebuffer is reused from frame to frame: resize() only allocates when it grows.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "marrow/render/image.hpp"

namespace marrow::render {

inline constexpr int kMaxSamplesPerAxis = 4;
inline constexpr std::int64_t kMaxFramebufferSamples = std::int64_t{1} << 25;  // 32 Mi samples, 512 MiB

class Framebuffer {
 public:
  // Throws std::invalid_argument for a size check_image_size refuses, samples outside
  // [1, kMaxSamplesPerAxis], or more than kMaxFramebufferSamples samples in all.
  void resize(int width, int height, int samples);

  // Every sample to the colour, every depth to the far end.
  void clear(const glm::vec3& linear_colour) noexcept;

  int width() const noexcept { return width_; }    // pixels
  int height() const noexcept { return height_; }
  int samples() const noexcept { return samples_; }  // per axis
  int sample_width() const noexcept { return width_ * samples_; }
  int sample_height() const noexcept { return height_ * samples_; }

  // Row-major over sample_width() x sample_height().
  std::span<glm::vec3> colours() noexcept { return {colours_.data(), sample_count()}; }
  std::span<const glm::vec3> colours() const noexcept { return {colours_.data(), sample_count()}; }
  std::span<float> depths() noexcept { return {depths_.data(), sample_count()}; }

  // Averages samples into out (resized to width x height), linear to sRGB, alpha 255.
  void resolve(Image& out) const;

 private:
  std::size_t sample_count() const noexcept {
    return static_cast<std::size_t>(sample_width()) * static_cast<std::size_t>(sample_height());
  }

  int width_ = 0;
  int height_ = 0;
  int samples_ = 1;
  std::vector<glm::vec3> colours_;
  std::vector<float> depths_;
};

// Linear [0, 1] (clamped) to an 8-bit sRGB value, through a table (exact to the 1/4095 step).
std::uint8_t linear_to_srgb8(float linear) noexcept;
// An 8-bit sRGB value to linear [0, 1].
float srgb8_to_linear(std::uint8_t srgb) noexcept;

}  // namespace marrow::render
