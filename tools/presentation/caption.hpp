#pragma once
// A line of text on a dark translucent band across the top or bottom of a picture: the file,
// clip and time of a frame, or the time under a contact-sheet tile.
#include <string_view>

#include "marrow/render/image.hpp"

namespace marrow::presentation {

using render::Image;

enum class CaptionPlace { Top, Bottom };

// The font scale that suits a picture: 1 below 320 pixels on the shorter side, 2 below 720, else 3.
int caption_scale(int width, int height) noexcept;

// Draws the band and the text (white); text wider than the picture is cut and ends in "..".
// Returns the band's height in pixels.
int draw_caption(Image& image, std::string_view text, CaptionPlace place, int scale) noexcept;

// A rendered frame's caption: the top band at the scale that suits the picture; nothing for
// empty text.
void draw_frame_caption(Image& image, std::string_view text) noexcept;

}  // namespace marrow::presentation
