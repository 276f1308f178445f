#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow {

void ImportBudget::charge(std::uint64_t bytes, std::string_view what) {
  if (!fits(bytes)) throw ImportError(ImportErrorCode::LimitExceeded, bytes_refusal(bytes, what));
  used_ += bytes;
}

void ImportBudget::charge_keys(std::uint64_t keys, std::string_view what) {
  require_keys(keys, what);
  keys_ += keys;
}

void ImportBudget::require_keys(std::uint64_t keys, std::string_view what) const {
  if (!fits_keys(keys)) throw ImportError(ImportErrorCode::LimitExceeded, keys_refusal(keys, what));
}

std::string ImportBudget::bytes_refusal(std::uint64_t bytes, std::string_view what) const {
  return std::string(what) + ": " + std::to_string(bytes) + " more bytes after " + std::to_string(used_) +
         " exceed ImportLimits::max_total_bytes (" + std::to_string(limits_.max_total_bytes) + ")";
}

std::string ImportBudget::keys_refusal(std::uint64_t keys, std::string_view what) const {
  return std::string(what) + ": " + std::to_string(keys) + " more animation keys after " + std::to_string(keys_) +
         " exceed ImportLimits::max_animation_keys (" + std::to_string(limits_.max_animation_keys) + ")";
}

}  // namespace marrow
