#include "presentation/contact_sheet.hpp"

#include <stdexcept>
#include <string>

#include "presentation/bitmap_font.hpp"
#include "presentation/caption.hpp"

namespace marrow::presentation {

using namespace marrow::render;  // the renderer this code draws with

namespace {

constexpr Rgba8 kSheetBackground{18, 20, 24, 255};

}  // namespace

ContactSheet::ContactSheet(int columns, int rows, int tile_width, int tile_height, std::string_view title)
    : columns_(columns), rows_(rows), tile_width_(tile_width), tile_height_(tile_height) {
  if (columns < 1 || rows < 1) {
    throw std::invalid_argument("contact sheet of " + std::to_string(columns) + "x" + std::to_string(rows) +
                                " tiles: both must be at least 1");
  }
  check_image_size(tile_width, tile_height, "contact sheet tile");
  const int scale = caption_scale(tile_width * columns, tile_height * rows);
  title_height_ = title.empty() ? 0 : kCellHeight * scale + 2 * scale;
  const std::int64_t width = std::int64_t{columns} * (tile_width + kSheetGap) + kSheetGap;
  const std::int64_t height = std::int64_t{rows} * (tile_height + kSheetGap) + kSheetGap + title_height_;
  if (width > kMaxImageSide || height > kMaxImageSide) {
    throw std::invalid_argument("contact sheet " + std::to_string(width) + "x" + std::to_string(height) +
                                " is too large: at most " + std::to_string(kMaxImageSide) + " pixels per side");
  }
  image_.reset(static_cast<int>(width), static_cast<int>(height), kSheetBackground);
  if (!title.empty()) draw_caption(image_, title, CaptionPlace::Top, scale);
}

void ContactSheet::place(int index, const Image& tile, std::string_view label) {
  if (index < 0 || index >= columns_ * rows_) {
    throw std::out_of_range("contact sheet cell " + std::to_string(index) + " is outside the " + std::to_string(columns_) +
                            "x" + std::to_string(rows_) + " grid");
  }
  if (tile.width() != tile_width_ || tile.height() != tile_height_) {
    throw std::invalid_argument("contact sheet tile is " + std::to_string(tile.width()) + "x" + std::to_string(tile.height()) +
                                ", expected " + std::to_string(tile_width_) + "x" + std::to_string(tile_height_));
  }
  labelled_ = tile;
  if (!label.empty()) draw_caption(labelled_, label, CaptionPlace::Bottom, caption_scale(tile_width_, tile_height_));
  image_.blit(labelled_, cell_x(index), cell_y(index));
}

}  // namespace marrow::presentation
