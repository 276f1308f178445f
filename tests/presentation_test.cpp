// The command line's presentation code (tools/presentation): the bitmap font and captions,
// contact and clip sheets, and GIFs with their palette.
#include <gtest/gtest.h>

#include <gif_lib.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <span>

#include "demo/demo_character.hpp"
#include "presentation/bitmap_font.hpp"
#include "presentation/caption.hpp"
#include "presentation/clip_sheet.hpp"
#include "presentation/contact_sheet.hpp"
#include "presentation/gif_file.hpp"
#include "presentation/palette_quantizer.hpp"
#include "render_test_util.hpp"
#include "test_util.hpp"

namespace marrow::presentation {
namespace {

using namespace marrow::render;
using test::throws_with;

TEST(PresentationFont, EveryPrintableGlyphHasInkAndUnknownsAreQuestionMarks) {
  std::set<std::uint64_t> shapes;  // seven 5-bit rows packed into one number
  for (char c = '!'; c <= '~'; ++c) {
    std::uint64_t rows = 0;
    int ink = 0;
    for (int r = 0; r < kGlyphHeight; ++r) {
      rows = rows << 8 | glyph_row(c, r);
      ink += glyph_row(c, r) != 0;
    }
    EXPECT_GT(ink, 0) << c;
    shapes.insert(rows);
  }
  EXPECT_EQ(shapes.size(), 94u);  // no two glyphs alike
  for (int r = 0; r < kGlyphHeight; ++r) {
    EXPECT_EQ(glyph_row(' ', r), 0);
    EXPECT_EQ(glyph_row('\x7f', r), glyph_row('?', r));
  }
  EXPECT_EQ(text_width("", 2), 0);
  EXPECT_EQ(text_width("ab", 1), 11);
  EXPECT_EQ(text_width("ab", 3), 33);
  Image image(20, 10, Rgba8{0, 0, 0, 255});
  draw_text(image, 1, 1, "I", Rgba8{255, 255, 255, 255}, 1);
  // 'I': a bar of three on top, a stem in the middle column.
  EXPECT_EQ(image(2, 1).r, 255);
  EXPECT_EQ(image(1, 1).r, 0);
  EXPECT_EQ(image(3, 4).r, 255);
  EXPECT_EQ(image(2, 4).r, 0);
}

TEST(PresentationCaption, LongTextIsCutToFit) {
  Image image(60, 40, Rgba8{0, 0, 0, 255});
  const int band = draw_caption(image, "a caption much longer than sixty pixels", CaptionPlace::Bottom, 1);
  EXPECT_EQ(band, kCellHeight + 2);
  // Nothing drawn above the band; the text stops before the right edge.
  for (int y = 0; y < image.height() - band; ++y) {
    for (int x = 0; x < image.width(); ++x) ASSERT_EQ(image(x, y), (Rgba8{0, 0, 0, 255}));
  }
  EXPECT_EQ(caption_scale(256, 256), 1);
  EXPECT_EQ(caption_scale(512, 512), 2);
  EXPECT_EQ(caption_scale(1024, 800), 3);
}

TEST(PresentationContactSheet, TilesLandInTheirCellsWithLabels) {
  ContactSheet sheet(3, 2, 20, 10, "title");
  EXPECT_EQ(sheet.image().width(), 3 * 22 + 2);
  EXPECT_EQ(sheet.image().height(), 2 * 12 + 2 + sheet.title_height());
  const Image tile(20, 10, Rgba8{9, 99, 199, 255});
  sheet.place(4, tile, "");
  EXPECT_EQ(sheet.image()(sheet.cell_x(4), sheet.cell_y(4)), (Rgba8{9, 99, 199, 255}));
  EXPECT_EQ(sheet.cell_x(4), 2 + 22);
  EXPECT_EQ(sheet.cell_y(4), sheet.title_height() + 2 + 12);
  EXPECT_NE(sheet.image()(sheet.cell_x(3), sheet.cell_y(3)), (Rgba8{9, 99, 199, 255}));
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { sheet.place(6, tile, ""); }, {"cell 6", "3x2"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { sheet.place(0, Image(5, 5), ""); }, {"5x5", "20x10"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { ContactSheet(200, 200, 512, 512, ""); }, {"too large"}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { ContactSheet(0, 2, 8, 8, ""); }, {"at least 1"}));
}

TEST(PresentationClipSheet, BadRequestsAreRefused) {
  const Model model = make_demo_character();
  ClipSheetRequest request;
  request.clips = {5};
  EXPECT_TRUE(throws_with<std::out_of_range>([&] { render_clip_sheet(model, request); }, {"clip 5", "2 animations"}));
  request.clips = {0};
  request.frames = 0;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { render_clip_sheet(model, request); }, {"0 frames"}));
  // One clip of 5 frames: a 3x2 grid; no clips: one tile of the loaded pose.
  request.frames = 5;
  request.tile.width = request.tile.height = 32;
  EXPECT_EQ(render_clip_sheet(model, request).width(), 3 * 34 + 2);
  request.clips.clear();
  EXPECT_EQ(render_clip_sheet(model, request).width(), 34 + 2);
}

TEST(PresentationGifPalette, FewColoursAreKeptExactlyAndManyAreReduced) {
  Image few(4, 1);
  few(0, 0) = {0, 0, 0, 255};
  few(1, 0) = {248, 0, 0, 255};
  few(2, 0) = {0, 248, 0, 255};
  few(3, 0) = {0, 0, 248, 255};
  const Palette p = quantize_palette(std::span<const Image>(&few, 1));
  EXPECT_EQ(p.colours.size(), 4u);
  for (const Rgba8& c : few.pixels()) EXPECT_EQ(p.colours[p.index(c)], c);

  Image gradient(256, 64);
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 256; ++x) gradient(x, y) = Rgba8{static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y * 4), 128, 255};
  }
  const Palette q = quantize_palette(std::span<const Image>(&gradient, 1), 64);
  EXPECT_EQ(q.colours.size(), 64u);
  double error = 0.0;
  for (const Rgba8& c : gradient.pixels()) {
    const Rgba8 m = q.colours[q.index(c)];
    error += std::abs(c.r - m.r) + std::abs(c.g - m.g) + std::abs(c.b - m.b);
  }
  EXPECT_LT(error / static_cast<double>(gradient.pixels().size()), 24.0);  // 64 colours for 16k
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { quantize_palette({}, 300); }, {"300 colours"}));
}

int read_gif_bytes(GifFileType* gif, GifByteType* out, int length) {
  auto* in = static_cast<std::span<const std::uint8_t>*>(gif->UserData);
  const auto n = std::min(static_cast<std::size_t>(length), in->size());
  std::memcpy(out, in->data(), n);
  *in = in->subspan(n);
  return static_cast<int>(n);
}

TEST(PresentationGif, HoldsEveryFrameWithItsDelay) {
  std::vector<Image> frames;
  for (int f = 0; f < 3; ++f) frames.emplace_back(10, 6, Rgba8{static_cast<std::uint8_t>(f * 100), 20, 200, 255});
  const std::vector<std::uint8_t> bytes = encode_gif(frames, 25.0);
  EXPECT_EQ(std::memcmp(bytes.data(), "GIF89a", 6), 0);
  std::span<const std::uint8_t> input(bytes);
  int error = 0;
  GifFileType* gif = DGifOpen(&input, read_gif_bytes, &error);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_EQ(gif->SWidth, 10);
  EXPECT_EQ(gif->SHeight, 6);
  ASSERT_EQ(gif->ImageCount, 3);
  GraphicsControlBlock control;
  ASSERT_EQ(DGifSavedExtensionToGCB(gif, 1, &control), GIF_OK);
  EXPECT_EQ(control.DelayTime, 4);
  // Frame 2's pixels index its own colour exactly (three colours fit any palette).
  const GifColorType c = gif->SColorMap->Colors[gif->SavedImages[2].RasterBits[0]];
  EXPECT_EQ(c.Red, 200);
  EXPECT_EQ(c.Blue, 200);
  DGifCloseFile(gif, &error);
  EXPECT_EQ(gif_frame_delay(12.0), 8);
  EXPECT_EQ(gif_frame_delay(100.0), 2);
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { encode_gif({}, 10.0); }, {"no frames"}));
  frames.emplace_back(3, 3);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { encode_gif(frames, 10.0); }, {"differ in size"}));
}

}  // namespace
}  // namespace marrow::presentation
