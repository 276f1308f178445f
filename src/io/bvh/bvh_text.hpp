#pragma once
// Private: walks BVH text by whitespace-separated tokens (the hierarchy) or by lines (the
// motion), counting lines the way editors do: "\r\n", "\r" and "\n" each end one line, so files
// with Windows, classic Mac or mixed endings read alike. Spaces, tabs, form feeds and vertical
// tabs separate tokens.
#include <cstddef>
#include <string_view>

namespace marrow::bvh {

class BvhText {
 public:
  explicit BvhText(std::string_view text) noexcept;
  // The next token, across line breaks; empty at the end of the text.
  std::string_view token() noexcept;
  // The rest of the current line without its surrounding blanks; stops before the line break.
  std::string_view rest_of_line() noexcept;
  // Moves past the current line's break and returns the next line, trimmed; false at the end.
  bool next_line(std::string_view& line) noexcept;
  // The line of the last token or line returned (1-based).
  int line() const noexcept { return token_line_; }

 private:
  void skip_blanks() noexcept;
  bool at_break() const noexcept;
  void skip_break() noexcept;

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;        // the line pos_ is on
  int token_line_ = 1;
};

// Splits a line into blank-separated fields, one at a time: for (auto f : fields) ...
// (a frame line is checked for its count before its numbers are read).
std::size_t count_fields(std::string_view line) noexcept;
std::string_view next_field(std::string_view& line) noexcept;

}  // namespace marrow::bvh
