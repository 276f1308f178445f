#pragma once
// A small streaming JSON writer for the CLI: compact output, floats with 9 significant digits
// (enough to round-trip float32), strings escaped, non-finite numbers as null.
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace marrow::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::FILE* out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  JsonWriter& key(std::string_view k) {
    separate();
    write_string(k);
    std::fputc(':', out_);
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(double v) {
    separate();
    if (!std::isfinite(v)) {
      std::fputs("null", out_);
    } else if (v == std::floor(v) && std::fabs(v) < 1e15) {
      std::fprintf(out_, "%.0f", v);
    } else {
      std::fprintf(out_, "%.9g", v);
    }
    return *this;
  }
  JsonWriter& value(int v) { return value(static_cast<double>(v)); }
  JsonWriter& value(unsigned v) { return value(static_cast<double>(v)); }
  JsonWriter& value(std::size_t v) { return value(static_cast<double>(v)); }
  JsonWriter& value(bool v) {
    separate();
    std::fputs(v ? "true" : "false", out_);
    return *this;
  }
  JsonWriter& value(std::string_view v) {
    separate();
    write_string(v);
    return *this;
  }
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& null() {
    separate();
    std::fputs("null", out_);
    return *this;
  }
  // A string, or null when empty (the oracle's convention for missing names).
  JsonWriter& name(std::string_view v) { return v.empty() ? null() : value(v); }

  template <class It>
  JsonWriter& numbers(It begin, It end) {
    begin_array();
    for (It it = begin; it != end; ++it) value(static_cast<double>(*it));
    return end_array();
  }

  void finish() { std::fputc('\n', out_); }

 private:
  JsonWriter& open(char c) {
    separate();
    std::fputc(c, out_);
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char c) {
    std::fputc(c, out_);
    first_.pop_back();
    return *this;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) std::fputc(',', out_);
      first_.back() = false;
    }
  }
  void write_string(std::string_view s) {
    std::fputc('"', out_);
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"' || c == '\\') {
        std::fputc('\\', out_);
        std::fputc(ch, out_);
      } else if (c < 0x20) {
        std::fprintf(out_, "\\u%04x", c);
      } else {
        std::fputc(ch, out_);
      }
    }
    std::fputc('"', out_);
  }

  std::FILE* out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace marrow::cli
