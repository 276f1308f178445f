#include "marrow/core/diagnostic.hpp"

namespace marrow {

void add_diagnostic(std::vector<Diagnostic>& list, std::string_view code, std::string_view message, int count) {
  for (Diagnostic& d : list) {
    if (d.code == code) {
      d.count += count;
      return;
    }
  }
  list.push_back(Diagnostic{std::string(code), count, std::string(message)});
}

const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& list, std::string_view code) noexcept {
  for (const Diagnostic& d : list) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

}  // namespace marrow
