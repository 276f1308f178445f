// POSIX file reading for every importer (include/marrow/io/file_bytes.hpp).
#include "marrow/io/file_bytes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "marrow/core/import_error.hpp"

namespace marrow {

namespace {

// Below this, read() into a small buffer costs less than setting up and tearing down a mapping.
constexpr std::size_t kMapFrom = 1024 * 1024;

class Fd {
 public:
  explicit Fd(int fd) noexcept : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const noexcept { return fd_; }

 private:
  int fd_;
};

[[noreturn]] void io_error(const std::filesystem::path& path, const std::string& what) {
  throw ImportError(ImportErrorCode::IoError, path.string() + ": " + what);
}

std::string errno_text(int e) { return std::strerror(e); }

// Reads exactly n bytes at the current position; false at an early end of file.
bool read_fully(int fd, std::byte* out, std::size_t n, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::read(fd, out + done, n - done);
    if (got < 0) {
      if (errno == EINTR) continue;
      io_error(path, "cannot be read: " + errno_text(errno));
    }
    if (got == 0) return false;
    done += static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace

FileBytes::FileBytes(FileBytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      heap_(std::move(other.heap_)) {}

FileBytes& FileBytes::operator=(FileBytes&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    heap_ = std::move(other.heap_);
  }
  return *this;
}

FileBytes::~FileBytes() { release(); }

void FileBytes::release() noexcept {
  if (mapped_) ::munmap(const_cast<std::byte*>(data_), size_);
  heap_.reset();
  data_ = nullptr;
  size_ = 0;
  mapped_ = false;
}

void check_file_size(std::uint64_t size, const ImportLimits& limits, std::string_view where) {
  if (size <= limits.max_file_bytes) return;
  throw ImportError(ImportErrorCode::LimitExceeded, (where.empty() ? std::string() : std::string(where) + ": ") +
                                                        std::to_string(size) + " bytes exceed ImportLimits::max_file_bytes (" +
                                                        std::to_string(limits.max_file_bytes) + ")");
}

FileBytes read_file(const std::filesystem::path& path, const ImportLimits& limits) {
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) io_error(path, "cannot be opened: " + errno_text(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) io_error(path, "cannot be read: " + errno_text(errno));
  if (S_ISDIR(st.st_mode)) io_error(path, "is a directory");
  if (!S_ISREG(st.st_mode)) io_error(path, "is not a regular file");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  check_file_size(size, limits, path.string());
  FileBytes out;
  if (size == 0) return out;
  const auto n = static_cast<std::size_t>(size);
  if (n >= kMapFrom) {
    // MAP_POPULATE maps every page of the (cached) file in one call instead of one fault per page.
    void* p = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd.get(), 0);
    if (p != MAP_FAILED) {
      out.data_ = static_cast<const std::byte*>(p);
      out.size_ = n;
      out.mapped_ = true;
      return out;
    }
  }
  // Uninitialised: every byte is overwritten by the read (or the read fails).
  out.heap_ = std::make_unique_for_overwrite<std::byte[]>(n);
  if (!read_fully(fd.get(), out.heap_.get(), n, path)) io_error(path, "short read (the file shrank while read)");
  out.data_ = out.heap_.get();
  out.size_ = n;
  return out;
}

std::vector<std::byte> read_file_head(const std::filesystem::path& path, std::size_t n) {
  std::vector<std::byte> head(n);
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  std::size_t done = 0;
  if (fd.get() >= 0) {
    struct stat st {};
    if (::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode)) {
      while (done < n) {
        const ssize_t got = ::read(fd.get(), head.data() + done, n - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += static_cast<std::size_t>(got);
      }
    }
  }
  head.resize(done);
  return head;
}

}  // namespace marrow
