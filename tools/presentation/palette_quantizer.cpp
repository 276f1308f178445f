#include "presentation/palette_quantizer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace marrow::presentation {

using namespace marrow::render;  // the renderer this code draws with

namespace {

struct Bin {
  std::uint32_t bin;
  std::uint64_t count;
};

int channel(std::uint32_t bin, int c) noexcept {
  return static_cast<int>((bin >> ((2 - c) * kPaletteBinBits)) & ((1u << kPaletteBinBits) - 1));
}

struct Box {
  std::size_t begin, end;  // range of bins
  std::uint64_t count = 0;
  int longest = 0;         // channel with the widest range
  int range = 0;           // that range, in bins
};

Box describe(const std::vector<Bin>& bins, std::size_t begin, std::size_t end) {
  Box box{begin, end};
  std::array<int, 3> lo{99, 99, 99}, hi{-1, -1, -1};
  for (std::size_t i = begin; i < end; ++i) {
    box.count += bins[i].count;
    for (int c = 0; c < 3; ++c) {
      lo[static_cast<std::size_t>(c)] = std::min(lo[static_cast<std::size_t>(c)], channel(bins[i].bin, c));
      hi[static_cast<std::size_t>(c)] = std::max(hi[static_cast<std::size_t>(c)], channel(bins[i].bin, c));
    }
  }
  for (int c = 0; c < 3; ++c) {
    const int r = hi[static_cast<std::size_t>(c)] - lo[static_cast<std::size_t>(c)];
    if (r > box.range) {
      box.range = r;
      box.longest = c;
    }
  }
  return box;
}

}  // namespace

Palette quantize_palette(std::span<const Image> frames, int max_colours) {
  if (max_colours < 1 || max_colours > 256) {
    throw std::invalid_argument("quantize_palette: " + std::to_string(max_colours) + " colours is outside [1, 256]");
  }
  std::vector<std::uint64_t> counts(kPaletteBins, 0);
  std::vector<std::array<std::uint64_t, 3>> sums(kPaletteBins, {0, 0, 0});
  for (const Image& frame : frames) {
    for (const Rgba8& p : frame.pixels()) {
      const std::size_t b = Palette::bin(p);
      ++counts[b];
      sums[b][0] += p.r;
      sums[b][1] += p.g;
      sums[b][2] += p.b;
    }
  }
  std::vector<Bin> bins;
  for (std::size_t b = 0; b < kPaletteBins; ++b) {
    if (counts[b] > 0) bins.push_back(Bin{static_cast<std::uint32_t>(b), counts[b]});
  }

  Palette palette;
  if (bins.empty()) {
    palette.colours.push_back(Rgba8{0, 0, 0, 255});
    palette.index_of_bin.assign(kPaletteBins, 0);
    return palette;
  }
  std::vector<Box> boxes{describe(bins, 0, bins.size())};
  while (static_cast<int>(boxes.size()) < max_colours) {
    // The box to split: most pixels times widest range; the first such on ties.
    std::size_t pick = boxes.size();
    std::uint64_t best = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const std::uint64_t score = boxes[i].count * static_cast<std::uint64_t>(boxes[i].range);
      if (boxes[i].end - boxes[i].begin >= 2 && score > best) {
        best = score;
        pick = i;
      }
    }
    if (pick == boxes.size()) break;  // every box is a single colour
    const Box box = boxes[pick];
    const auto first = bins.begin() + static_cast<std::ptrdiff_t>(box.begin);
    const auto last = bins.begin() + static_cast<std::ptrdiff_t>(box.end);
    std::sort(first, last, [c = box.longest](const Bin& a, const Bin& b) {
      const int ca = channel(a.bin, c), cb = channel(b.bin, c);
      return ca != cb ? ca < cb : a.bin < b.bin;
    });
    // Weighted median along that channel, leaving at least one bin on each side.
    std::uint64_t seen = 0;
    std::size_t split = box.begin + 1;
    for (std::size_t i = box.begin; i + 1 < box.end; ++i) {
      seen += bins[i].count;
      split = i + 1;
      if (2 * seen >= box.count) break;
    }
    boxes[pick] = describe(bins, box.begin, split);
    boxes.push_back(describe(bins, split, box.end));
  }

  for (const Box& box : boxes) {
    std::array<std::uint64_t, 3> total{0, 0, 0};
    for (std::size_t i = box.begin; i < box.end; ++i) {
      for (std::size_t c = 0; c < 3; ++c) total[c] += sums[bins[i].bin][c];
    }
    const auto mean = [&](std::size_t c) { return static_cast<std::uint8_t>((total[c] + box.count / 2) / box.count); };
    palette.colours.push_back(Rgba8{mean(0), mean(1), mean(2), 255});
  }
  // Nearest colour to each bin's centre.
  palette.index_of_bin.resize(kPaletteBins);
  for (std::uint32_t b = 0; b < kPaletteBins; ++b) {
    const int shift = 8 - kPaletteBinBits, half = 1 << (shift - 1);
    const int r = (channel(b, 0) << shift) + half, g = (channel(b, 1) << shift) + half, bl = (channel(b, 2) << shift) + half;
    int best = std::numeric_limits<int>::max();
    std::size_t best_index = 0;
    for (std::size_t i = 0; i < palette.colours.size(); ++i) {
      const Rgba8& c = palette.colours[i];
      const int dr = r - c.r, dg = g - c.g, db = bl - c.b;
      const int d = dr * dr + dg * dg + db * db;
      if (d < best) {
        best = d;
        best_index = i;
      }
    }
    palette.index_of_bin[b] = static_cast<std::uint8_t>(best_index);
  }
  return palette;
}

}  // namespace marrow::presentation
