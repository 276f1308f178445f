#pragma once
// Animated GIF files through giflib (Debian's libgif-dev): every frame full size, one global
// palette from quantize_palette over all frames, no dithering, looping forever, each frame
// shown 100 / fps centiseconds (GIF's unit; rounded, at least 2, since viewers slow anything
// faster down to 10).
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "marrow/render/image.hpp"

namespace marrow::presentation {

using render::Image;

inline constexpr int kMaxGifFrames = 1000;

// The delay in centiseconds that one frame lasts at that rate.
int gif_frame_delay(double fps) noexcept;

// Throws std::invalid_argument for no frames, more than kMaxGifFrames, frames of different
// sizes or fps outside (0, 100]; std::runtime_error with giflib's message when encoding fails.
std::vector<std::uint8_t> encode_gif(std::span<const Image> frames, double fps);
// Throws std::runtime_error naming the file when it cannot be written.
void write_gif(std::span<const Image> frames, double fps, const std::filesystem::path& path);

}  // namespace marrow::presentation
