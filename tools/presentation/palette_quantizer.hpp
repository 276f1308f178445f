#pragma once
// Median-cut colour quantisation for GIF: up to 256 colours chosen for a set of frames, and the
// nearest of them for any colour. Colours are counted in bins of 5 bits per channel (32768
// bins); the box of bins with the most pixels times its longest side is split at the weighted
// median of that side until there are enough colours or nothing left to split. Each palette
// colour is the mean of its pixels. Deterministic: ties go to the lower bin or palette index.
#include <cstdint>
#include <span>
#include <vector>

#include "marrow/render/image.hpp"

namespace marrow::presentation {

using render::Image;
using render::Rgba8;

inline constexpr int kPaletteBinBits = 5;
inline constexpr std::size_t kPaletteBins = std::size_t{1} << (3 * kPaletteBinBits);

struct Palette {
  std::vector<Rgba8> colours;                 // 1 to 256 entries
  std::vector<std::uint8_t> index_of_bin;     // kPaletteBins entries: the nearest colour

  static std::size_t bin(Rgba8 c) noexcept {
    constexpr int drop = 8 - kPaletteBinBits;
    return (std::size_t{c.r} >> drop) << (2 * kPaletteBinBits) | (std::size_t{c.g} >> drop) << kPaletteBinBits |
           (std::size_t{c.b} >> drop);
  }
  std::uint8_t index(Rgba8 c) const noexcept { return index_of_bin[bin(c)]; }
};

// Alpha is ignored. Throws std::invalid_argument when max_colours is outside [1, 256]; frames
// without pixels give a one-colour (black) palette.
Palette quantize_palette(std::span<const Image> frames, int max_colours = 256);

}  // namespace marrow::presentation
