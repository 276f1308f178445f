#pragma once
// marrow's own 5x7 bitmap font for captions: printable ASCII (32-126), drawn at an integer
// scale into an Image. Each glyph sits in a 6x9 cell (one column and two rows of spacing).
// Characters outside printable ASCII are drawn as '?'.
#include <cstdint>
#include <string_view>

#include "marrow/render/image.hpp"

namespace marrow::presentation {

using render::Image;
using render::Rgba8;

inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 7;
inline constexpr int kCellWidth = 6;
inline constexpr int kCellHeight = 9;

// Row `row` (0 = top) of the glyph for c; bit 4 is the leftmost column.
std::uint8_t glyph_row(char c, int row) noexcept;

// Width in pixels of text at that scale (no spacing after the last glyph; 0 for "").
int text_width(std::string_view text, int scale) noexcept;

// Draws text with the top-left of its first cell at (x, y); pixels outside are dropped.
void draw_text(Image& image, int x, int y, std::string_view text, Rgba8 colour, int scale) noexcept;

}  // namespace marrow::presentation
