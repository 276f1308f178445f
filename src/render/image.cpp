#include "marrow/render/image.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace marrow::render {

void check_image_size(int width, int height, const char* what) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width < 1 || height < 1) throw std::invalid_argument(std::string(what) + " " + size + ": both sides must be at least 1");
  if (width > kMaxImageSide || height > kMaxImageSide) {
    throw std::invalid_argument(std::string(what) + " " + size + " is too large: at most " + std::to_string(kMaxImageSide) +
                                " pixels per side");
  }
  if (std::int64_t{width} * height > kMaxImagePixels) {
    throw std::invalid_argument(std::string(what) + " " + size + " is too large: at most " + std::to_string(kMaxImagePixels) +
                                " pixels in all");
  }
}

Image::Image(int width, int height, Rgba8 fill) { reset(width, height, fill); }

void Image::reset(int width, int height, Rgba8 fill) {
  check_image_size(width, height, "image");
  width_ = width;
  height_ = height;
  pixels_.assign(pixel_count(), fill);
}

void Image::blit(const Image& src, int x, int y) noexcept {
  const int x0 = std::max(x, 0), x1 = std::min(x + src.width_, width_);
  const int y0 = std::max(y, 0), y1 = std::min(y + src.height_, height_);
  if (x0 >= x1) return;
  for (int row = y0; row < y1; ++row) {
    const Rgba8* from = &src(x0 - x, row - y);
    std::copy(from, from + (x1 - x0), &(*this)(x0, row));
  }
}

void Image::blend_rect(int x, int y, int w, int h, Rgba8 colour, float alpha) noexcept {
  const int x0 = std::max(x, 0), x1 = std::min(x + w, width_);
  const int y0 = std::max(y, 0), y1 = std::min(y + h, height_);
  const float a = std::clamp(alpha, 0.f, 1.f);
  const auto mix = [a](std::uint8_t under, std::uint8_t over) {
    return static_cast<std::uint8_t>(std::lround(static_cast<float>(under) + a * (static_cast<float>(over) - static_cast<float>(under))));
  };
  for (int row = y0; row < y1; ++row) {
    for (int col = x0; col < x1; ++col) {
      Rgba8& p = (*this)(col, row);
      p = Rgba8{mix(p.r, colour.r), mix(p.g, colour.g), mix(p.b, colour.b), 255};
    }
  }
}

}  // namespace marrow::render
