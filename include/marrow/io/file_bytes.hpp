#pragma once
// The one way marrow reads a file: its size checked against ImportLimits::max_file_bytes before
// anything is read, then the bytes mapped read-only (the page cache, no copy, nothing zero-filled
// and no heap block whose release makes the allocator give memory back and fault it in again on
// the next load), or read into an uninitialised buffer where a mapping cannot be had (small files,
// pipes, exotic file systems). Releasing a FileBytes unmaps or frees it.
//
// A mapped file that another process truncates while it is mapped would fault on access; marrow
// holds a mapping only for the duration of one import.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "marrow/io/import_options.hpp"

namespace marrow {

class FileBytes {
 public:
  FileBytes() noexcept = default;
  FileBytes(FileBytes&& other) noexcept;
  FileBytes& operator=(FileBytes&& other) noexcept;
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  ~FileBytes();

  std::span<const std::byte> bytes() const noexcept { return {data_, size_}; }
  const std::byte* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  bool mapped() const noexcept { return mapped_; }
  operator std::span<const std::byte>() const noexcept { return bytes(); }  // NOLINT: a view of the bytes

 private:
  friend FileBytes read_file(const std::filesystem::path& path, const ImportLimits& limits);

// The one ImportLimits::max_file_bytes check, which every reader runs on a file or byte span
// before reading it: throws ImportError(LimitExceeded) "<where>: N bytes exceed
// ImportLimits::max_file_bytes (M)" (no "<where>: " when where is empty).
void check_file_size(std::uint64_t size, const ImportLimits& limits, std::string_view where);
  void release() noexcept;

  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  std::unique_ptr<std::byte[]> heap_;
};

// The whole file. Throws ImportError: IoError (cannot be opened or read, not a regular file,
// changed size while read), LimitExceeded (larger than limits.max_file_bytes; nothing is read).
FileBytes read_file(const std::filesystem::path& path, const ImportLimits& limits);

// The one ImportLimits::max_file_bytes check, which every reader runs on a file or byte span
// before reading it: throws ImportError(LimitExceeded) "<where>: N bytes exceed
// ImportLimits::max_file_bytes (M)" (no "<where>: " when where is empty).
void check_file_size(std::uint64_t size, const ImportLimits& limits, std::string_view where);

// At most n first bytes (enough to recognise a format by its signature); fewer for a shorter
// file, none for one that cannot be read (the reader chosen afterwards names that io-error).
std::vector<std::byte> read_file_head(const std::filesystem::path& path, std::size_t n);

}  // namespace marrow
