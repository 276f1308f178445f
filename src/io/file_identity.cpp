#include "marrow/io/file_identity.hpp"

#include <stdexcept>
#include <system_error>

namespace marrow {

std::filesystem::path file_identity(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
  return ec ? std::filesystem::absolute(path) : canonical;
}

void refuse_writing_over(const std::filesystem::path& out, std::span<const std::filesystem::path> inputs) {
  const std::filesystem::path target = file_identity(out);
  for (const std::filesystem::path& in : inputs) {
    if (file_identity(in) == target)
      throw std::invalid_argument("'" + out.string() + "' is the input '" + in.string() + "': writing it would replace it; choose another output");
  }
}

}  // namespace marrow
