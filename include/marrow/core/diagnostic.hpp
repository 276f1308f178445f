#pragma once
// A note about an accepted file: something marrow did not import or had to repair. Codes are
// kebab-case (e.g. "channel-target-outside-scene"); count says how many times it happened and
// message describes the first occurrence.
#include <string>
#include <string_view>
#include <vector>

namespace marrow {

struct Diagnostic {
  std::string code;
  int count = 1;
  std::string message;
};

// Adds one occurrence of code: a new entry, or count + 1 on the existing one with that code.
void add_diagnostic(std::vector<Diagnostic>& list, std::string_view code, std::string_view message,
                    int count = 1);

// The entry with that code, or nullptr.
const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& list, std::string_view code) noexcept;

}  // namespace marrow
