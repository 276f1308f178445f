#include "presentation/gif_file.hpp"

#include <gif_lib.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/render/write_file_bytes.hpp"
#include "presentation/palette_quantizer.hpp"

namespace marrow::presentation {

using namespace marrow::render;  // the renderer this code draws with

namespace {

int append_bytes(GifFileType* gif, const GifByteType* data, int length) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(gif->UserData);
  out->insert(out->end(), data, data + length);
  return length;
}

std::string gif_error(int code) {
  const char* message = GifErrorString(code);
  return message ? message : "giflib error " + std::to_string(code);
}

void check(int status, GifFileType* gif, const char* what) {
  if (status != GIF_OK) throw std::runtime_error(std::string("encode_gif: ") + what + ": " + gif_error(gif->Error));
}

struct GifCloser {
  GifFileType* gif;
  ~GifCloser() {
    if (gif) EGifCloseFile(gif, nullptr);
  }
};

}  // namespace

int gif_frame_delay(double fps) noexcept {
  const double cs = std::round(100.0 / fps);
  return std::isfinite(cs) ? static_cast<int>(std::clamp(cs, 2.0, 65535.0)) : 10;
}

std::vector<std::uint8_t> encode_gif(std::span<const Image> frames, double fps) {
  if (frames.empty()) throw std::invalid_argument("encode_gif: no frames");
  if (frames.size() > static_cast<std::size_t>(kMaxGifFrames)) {
    throw std::invalid_argument("encode_gif: " + std::to_string(frames.size()) + " frames; at most " + std::to_string(kMaxGifFrames));
  }
  if (!(fps > 0.0 && fps <= 100.0)) throw std::invalid_argument("encode_gif: frame rate " + std::to_string(fps) + " is outside (0, 100]");
  const int width = frames[0].width(), height = frames[0].height();
  if (width < 1 || height < 1 || width > 65535 || height > 65535) throw std::invalid_argument("encode_gif: empty or oversized frame");
  for (const Image& f : frames) {
    if (f.width() != width || f.height() != height) throw std::invalid_argument("encode_gif: frames differ in size");
  }

  const Palette palette = quantize_palette(frames);
  // giflib wants a power-of-two colour map; the unused tail is black.
  int map_size = 2;
  while (map_size < static_cast<int>(palette.colours.size())) map_size *= 2;
  std::vector<GifColorType> colours(static_cast<std::size_t>(map_size), GifColorType{0, 0, 0});
  for (std::size_t i = 0; i < palette.colours.size(); ++i) {
    colours[i] = GifColorType{palette.colours[i].r, palette.colours[i].g, palette.colours[i].b};
  }

  std::vector<std::uint8_t> out;
  int error = 0;
  GifCloser closer{EGifOpen(&out, append_bytes, &error)};
  GifFileType* gif = closer.gif;
  if (!gif) throw std::runtime_error("encode_gif: " + gif_error(error));
  EGifSetGifVersion(gif, true);  // GIF89a: animation extensions
  ColorMapObject* map = GifMakeMapObject(map_size, colours.data());
  if (!map) throw std::runtime_error("encode_gif: out of memory");
  const int screen = EGifPutScreenDesc(gif, width, height, 8, 0, map);
  GifFreeMapObject(map);  // giflib copied it
  check(screen, gif, "screen");

  // NETSCAPE2.0 application extension: loop forever.
  static constexpr GifByteType kNetscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static constexpr GifByteType kLoopForever[] = {1, 0, 0};
  check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), gif, "loop");
  check(EGifPutExtensionBlock(gif, sizeof kNetscape, kNetscape), gif, "loop");
  check(EGifPutExtensionBlock(gif, sizeof kLoopForever, kLoopForever), gif, "loop");
  check(EGifPutExtensionTrailer(gif), gif, "loop");

  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.UserInputFlag = false;
  control.DelayTime = gif_frame_delay(fps);
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType control_bytes[4];
  EGifGCBToExtension(&control, control_bytes);
  std::vector<GifPixelType> row(static_cast<std::size_t>(width));
  for (const Image& frame : frames) {
    check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, control_bytes), gif, "frame delay");
    check(EGifPutImageDesc(gif, 0, 0, width, height, false, nullptr), gif, "frame");
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) row[static_cast<std::size_t>(x)] = palette.index(frame(x, y));
      check(EGifPutLine(gif, row.data(), width), gif, "pixels");
    }
  }
  closer.gif = nullptr;
  if (EGifCloseFile(gif, &error) != GIF_OK) throw std::runtime_error("encode_gif: " + gif_error(error));
  return out;
}

void write_gif(std::span<const Image> frames, double fps, const std::filesystem::path& path) {
  write_file_bytes(path, encode_gif(frames, fps));
}

}  // namespace marrow::presentation
