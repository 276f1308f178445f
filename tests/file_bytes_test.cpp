// The one file reader (io/file_bytes.hpp): the size limit before anything is read, mapped and
// read files give the same bytes, io-errors name the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gltf_test_util.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/file_bytes.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;
using test::refuses;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("marrow_file_bytes_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::vector<std::byte> write_random(const fs::path& path, std::size_t size) {
  std::mt19937 rng(static_cast<unsigned>(size));
  std::vector<std::byte> bytes(size);
  for (std::byte& b : bytes) b = static_cast<std::byte>(rng() & 0xffu);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

TEST(FileBytes, SmallFilesAreReadLargeOnesMappedWithTheSameBytes) {
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{70000}, std::size_t{3} << 20}) {
    const fs::path path = scratch("f" + std::to_string(size) + ".bin");
    const std::vector<std::byte> expected = write_random(path, size);
    FileBytes file = read_file(path, {});
    ASSERT_EQ(file.size(), size);
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), file.bytes().begin()));
    EXPECT_EQ(file.mapped(), size >= (std::size_t{1} << 20)) << size;
    const FileBytes moved = std::move(file);
    EXPECT_EQ(moved.size(), size);
    EXPECT_TRUE(file.empty());  // NOLINT(bugprone-use-after-move): a moved-from FileBytes is empty
  }
  fs::remove_all(scratch("").parent_path());
}

TEST(FileBytes, SizeLimitIsCheckedBeforeReading) {
  const fs::path path = scratch("big.bin");
  write_random(path, 5000);
  ImportLimits limits;
  limits.max_file_bytes = 4999;
  EXPECT_TRUE(refuses([&] { read_file(path, limits); }, ImportErrorCode::LimitExceeded,
                      {"big.bin", "5000 bytes exceed ImportLimits::max_file_bytes (4999)"}));
  fs::remove_all(scratch("").parent_path());
}

TEST(FileBytes, MissingFilesAndFoldersAreIoErrors) {
  EXPECT_TRUE(refuses([] { read_file("/nonexistent/marrow.glb", {}); }, ImportErrorCode::IoError,
                      {"/nonexistent/marrow.glb", "cannot be opened"}));
  EXPECT_TRUE(refuses([] { read_file(fs::temp_directory_path(), {}); }, ImportErrorCode::IoError, {"is a directory"}));
  EXPECT_TRUE(read_file_head("/nonexistent/marrow.glb", 32).empty());
}

TEST(FileBytes, HeadIsAtMostTheFirstBytes) {
  const fs::path path = scratch("head.bin");
  const std::vector<std::byte> bytes = write_random(path, 10);
  EXPECT_EQ(read_file_head(path, 32), bytes);
  const std::vector<std::byte> four = read_file_head(path, 4);
  EXPECT_EQ(four, std::vector<std::byte>(bytes.begin(), bytes.begin() + 4));
  fs::remove_all(scratch("").parent_path());
}

}  // namespace
}  // namespace marrow
