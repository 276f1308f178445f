#pragma once
// A contact sheet: equal tiles in a grid under a title band, each tile labelled on a band
// along its bottom edge (the time it shows).
#include <string>
#include <string_view>

#include "marrow/render/image.hpp"

namespace marrow::presentation {

using render::Image;

inline constexpr int kSheetGap = 2;  // pixels between tiles and around the grid

class ContactSheet {
 public:
  // Throws std::invalid_argument for columns or rows below 1, or a sheet check_image_size
  // refuses. The tiles start dark; unplaced cells stay so.
  ContactSheet(int columns, int rows, int tile_width, int tile_height, std::string_view title);

  // Copies tile (which must be tile_width x tile_height) into cell `index`, counted row by row,
  // and draws the label on it. Throws std::out_of_range for a cell outside the grid and
  // std::invalid_argument for a tile of another size.
  void place(int index, const Image& tile, std::string_view label);

  int columns() const noexcept { return columns_; }
  int rows() const noexcept { return rows_; }
  int title_height() const noexcept { return title_height_; }
  // Top-left pixel of a cell.
  int cell_x(int index) const noexcept { return kSheetGap + (index % columns_) * (tile_width_ + kSheetGap); }
  int cell_y(int index) const noexcept { return title_height_ + kSheetGap + (index / columns_) * (tile_height_ + kSheetGap); }

  const Image& image() const noexcept { return image_; }

 private:
  int columns_, rows_, tile_width_, tile_height_, title_height_ = 0;
  Image image_;
  Image labelled_;  // scratch: the tile with its label
};

}  // namespace marrow::presentation
