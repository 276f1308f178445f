#pragma once
// PNG files through libspng (Debian's libspng-dev): 8-bit RGB when every pixel is opaque,
// else RGBA. Encoding is deterministic: the same image gives the same bytes.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "marrow/render/image.hpp"

namespace marrow::render {

// Throws std::runtime_error with libspng's message.
std::vector<std::uint8_t> encode_png(const Image& image);
// Throws std::runtime_error naming the file when it cannot be written.
void write_png(const Image& image, const std::filesystem::path& path);

// Any PNG libspng reads, converted to 8-bit RGBA. Throws std::runtime_error for a broken file
// or one larger than check_image_size allows.
Image decode_png(std::span<const std::uint8_t> bytes);
Image read_png(const std::filesystem::path& path);

}  // namespace marrow::render
