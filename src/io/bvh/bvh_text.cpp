#include "bvh_text.hpp"

namespace marrow::bvh {

namespace {

bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
bool is_break(char c) noexcept { return c == '\r' || c == '\n'; }

}  // namespace

BvhText::BvhText(std::string_view text) noexcept : text_(text) {
  if (text_.starts_with("\xef\xbb\xbf")) pos_ = 3;  // a UTF-8 byte order mark
}

void BvhText::skip_blanks() noexcept {
  while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
}

bool BvhText::at_break() const noexcept { return pos_ < text_.size() && is_break(text_[pos_]); }

void BvhText::skip_break() noexcept {
  if (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ++pos_;
  ++pos_;
  ++line_;
}

std::string_view BvhText::token() noexcept {
  for (;;) {
    skip_blanks();
    if (!at_break()) break;
    skip_break();
  }
  token_line_ = line_;
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !is_blank(text_[pos_]) && !is_break(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view BvhText::rest_of_line() noexcept {
  skip_blanks();
  token_line_ = line_;
  const std::size_t start = pos_;
  std::size_t end = pos_;
  while (pos_ < text_.size() && !is_break(text_[pos_])) {
    if (!is_blank(text_[pos_])) end = pos_ + 1;
    ++pos_;
  }
  return text_.substr(start, end - start);
}

bool BvhText::next_line(std::string_view& line) noexcept {
  while (pos_ < text_.size() && !is_break(text_[pos_])) ++pos_;
  if (pos_ >= text_.size()) return false;
  skip_break();
  line = rest_of_line();
  return true;
}

std::size_t count_fields(std::string_view line) noexcept {
  std::size_t n = 0;
  while (!next_field(line).empty()) ++n;
  return n;
}

std::string_view next_field(std::string_view& line) noexcept {
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  std::size_t j = i;
  while (j < line.size() && !is_blank(line[j])) ++j;
  const std::string_view field = line.substr(i, j - i);
  line.remove_prefix(j);
  return field;
}

}  // namespace marrow::bvh
