#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow {

void ImportBudget::charge(std::uint64_t bytes, std::string_view what) {
  // used_ never exceeds the limit, so the subtraction cannot wrap.
  if (bytes > limits_.max_total_bytes - used_) {
    throw ImportError(ImportErrorCode::LimitExceeded,
                      std::string(what) + ": " + std::to_string(bytes) + " more bytes after " + std::to_string(used_) +
                          " exceed limit max_total_bytes " + std::to_string(limits_.max_total_bytes));
  }
  used_ += bytes;
}

}  // namespace marrow
