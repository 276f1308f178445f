#include "marrow/render/png_file.hpp"

#include <spng.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>

#include "marrow/render/write_file_bytes.hpp"

namespace marrow::render {

namespace {

static_assert(sizeof(Rgba8) == 4, "Image pixels are handed to libspng as packed RGBA bytes");

struct ContextDeleter {
  void operator()(spng_ctx* ctx) const noexcept { spng_ctx_free(ctx); }
};
using Context = std::unique_ptr<spng_ctx, ContextDeleter>;

void check(int error, const char* what) {
  if (error != 0) throw std::runtime_error(std::string(what) + ": " + spng_strerror(error));
}

}  // namespace

std::vector<std::uint8_t> encode_png(const Image& image) {
  if (image.width() < 1 || image.height() < 1) throw std::runtime_error("encode_png: the image is empty");
  bool opaque = true;
  for (const Rgba8& p : image.pixels()) opaque = opaque && p.a == 255;
  const std::size_t channels = opaque ? 3 : 4;
  std::vector<std::uint8_t> raw;
  raw.reserve(image.pixels().size() * channels);
  for (const Rgba8& p : image.pixels()) {
    raw.insert(raw.end(), {p.r, p.g, p.b});
    if (!opaque) raw.push_back(p.a);
  }
  Context ctx(spng_ctx_new(SPNG_CTX_ENCODER));
  if (!ctx) throw std::runtime_error("encode_png: out of memory");
  check(spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1), "encode_png");
  spng_ihdr ihdr{};
  ihdr.width = static_cast<std::uint32_t>(image.width());
  ihdr.height = static_cast<std::uint32_t>(image.height());
  ihdr.bit_depth = 8;
  ihdr.color_type = opaque ? SPNG_COLOR_TYPE_TRUECOLOR : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  check(spng_set_ihdr(ctx.get(), &ihdr), "encode_png");
  check(spng_encode_image(ctx.get(), raw.data(), raw.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE), "encode_png");
  std::size_t size = 0;
  int error = 0;
  void* buffer = spng_get_png_buffer(ctx.get(), &size, &error);
  check(error, "encode_png");
  std::unique_ptr<void, decltype(&std::free)> owned(buffer, &std::free);  // spng hands the buffer over
  const auto* bytes = static_cast<const std::uint8_t*>(buffer);
  return std::vector<std::uint8_t>(bytes, bytes + size);
}

void write_png(const Image& image, const std::filesystem::path& path) { write_file_bytes(path, encode_png(image)); }

Image decode_png(std::span<const std::uint8_t> bytes) {
  Context ctx(spng_ctx_new(0));
  if (!ctx) throw std::runtime_error("decode_png: out of memory");
  check(spng_set_image_limits(ctx.get(), kMaxImageSide, kMaxImageSide), "decode_png");
  check(spng_set_png_buffer(ctx.get(), bytes.data(), bytes.size()), "decode_png");
  spng_ihdr ihdr{};
  check(spng_get_ihdr(ctx.get(), &ihdr), "decode_png");
  try {
    check_image_size(static_cast<int>(ihdr.width), static_cast<int>(ihdr.height), "PNG");
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
  std::size_t size = 0;
  check(spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size), "decode_png");
  Image image(static_cast<int>(ihdr.width), static_cast<int>(ihdr.height));
  if (size != image.pixels().size_bytes()) throw std::runtime_error("decode_png: unexpected decoded size");
  check(spng_decode_image(ctx.get(), image.pixels().data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS), "decode_png");
  return image;
}

Image read_png(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    return decode_png(bytes);
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

}  // namespace marrow::render
