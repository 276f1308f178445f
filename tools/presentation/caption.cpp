#include "presentation/caption.hpp"

#include <algorithm>
#include <string>

#include "presentation/bitmap_font.hpp"

namespace marrow::presentation {

using namespace marrow::render;  // the renderer this code draws with

int caption_scale(int width, int height) noexcept {
  const int side = std::min(width, height);
  return side < 320 ? 1 : side < 720 ? 2 : 3;
}

int draw_caption(Image& image, std::string_view text, CaptionPlace place, int scale) noexcept {
  if (scale < 1 || image.width() == 0) return 0;
  const int pad = 2 * scale;
  const int band = kCellHeight * scale + pad;
  const int top = place == CaptionPlace::Top ? 0 : image.height() - band;
  image.blend_rect(0, top, image.width(), band, Rgba8{0, 0, 0, 255}, 0.55f);
  const int room = (image.width() - 2 * pad + (kCellWidth - kGlyphWidth) * scale) / (kCellWidth * scale);
  if (room <= 0) return band;
  std::string shown(text.substr(0, static_cast<std::size_t>(room)));
  if (text.size() > static_cast<std::size_t>(room)) {
    shown.resize(static_cast<std::size_t>(std::max(room - 2, 0)));
    shown += std::string("..").substr(0, static_cast<std::size_t>(std::min(room, 2)));
  }
  draw_text(image, pad, top + (band - kGlyphHeight * scale) / 2, shown, Rgba8{240, 240, 240, 255}, scale);
  return band;
}

void draw_frame_caption(Image& image, std::string_view text) noexcept {
  if (!text.empty()) draw_caption(image, text, CaptionPlace::Top, caption_scale(image.width(), image.height()));
}

}  // namespace marrow::presentation
