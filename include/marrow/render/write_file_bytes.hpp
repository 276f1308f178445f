#pragma once
// Writes encoded bytes to a file: the PNG writer and the tools' GIF writer.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <stdexcept>

namespace marrow::render {

// Throws std::runtime_error naming the file when it cannot be written.
inline void write_file_bytes(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace marrow::render
