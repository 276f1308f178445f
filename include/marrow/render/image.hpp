#pragma once
// An 8-bit sRGB RGBA picture: what the renderer produces and the PNG/GIF encoders write.
// Sizes are bounded (check_image_size) so that a mistyped --size fails with a message instead
// of an allocation of gigabytes.
#include <cstdint>
#include <span>
#include <vector>

namespace marrow::render {

struct Rgba8 {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Rgba8&) const = default;
};

inline constexpr int kMaxImageSide = 16384;
inline constexpr std::int64_t kMaxImagePixels = std::int64_t{1} << 26;  // 64 Mi pixels, 256 MiB

// Throws std::invalid_argument naming `what` and both sides when a side is below 1 or above
// kMaxImageSide, or the area is above kMaxImagePixels.
void check_image_size(int width, int height, const char* what);

class Image {
 public:
  Image() = default;
  Image(int width, int height, Rgba8 fill = {});

  // Resizes (check_image_size) and fills; keeps the storage when it is large enough.
  void reset(int width, int height, Rgba8 fill = {});

  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }
  bool contains(int x, int y) const noexcept { return x >= 0 && y >= 0 && x < width_ && y < height_; }

  // Unchecked access; (x, y) must be inside.
  Rgba8& operator()(int x, int y) noexcept { return pixels_[index(x, y)]; }
  const Rgba8& operator()(int x, int y) const noexcept { return pixels_[index(x, y)]; }

  std::span<Rgba8> pixels() noexcept { return {pixels_.data(), pixel_count()}; }
  std::span<const Rgba8> pixels() const noexcept { return {pixels_.data(), pixel_count()}; }

  // Copies src with its top-left corner at (x, y); the parts outside this image are dropped.
  void blit(const Image& src, int x, int y) noexcept;
  // Mixes colour over the rectangle [x, x + w) x [y, y + h) (clipped): alpha 1 replaces.
  void blend_rect(int x, int y, int w, int h, Rgba8 colour, float alpha) noexcept;

 private:
  std::size_t index(int x, int y) const noexcept {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x);
  }
  std::size_t pixel_count() const noexcept { return static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_); }

  int width_ = 0;
  int height_ = 0;
  std::vector<Rgba8> pixels_;
};

}  // namespace marrow::render
