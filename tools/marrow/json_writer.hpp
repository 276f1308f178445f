#pragma once
// The CLI's reports as JSON on a stream: marrow's one JSON writer (marrow/io/json_writer.hpp:
// shortest round-trip numbers, so a float prints as the float it is) with non-finite numbers
// written as null, chained calls, and the text flushed to the stream as it grows.
#include <cstdio>
#include <string_view>
#include <type_traits>

#include "marrow/io/json_writer.hpp"

namespace marrow::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::FILE* out) : out_(out) {}
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& begin_object() { return then(json_.begin_object()); }
  JsonWriter& end_object() { return then(json_.end_object()); }
  JsonWriter& begin_array() { return then(json_.begin_array()); }
  JsonWriter& end_array() { return then(json_.end_array()); }
  JsonWriter& key(std::string_view k) { return then(json_.key(k)); }
  JsonWriter& null() { return then(json_.null()); }
  JsonWriter& value(std::string_view v) { return then(json_.string(v)); }
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  template <class T>
    requires std::is_arithmetic_v<T>
  JsonWriter& value(T v) {
    if constexpr (std::is_same_v<T, bool>) {
      json_.boolean(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      json_.number(v);
    } else if constexpr (std::is_signed_v<T>) {
      json_.integer(v);
    } else {
      json_.uint(v);
    }
    return then(json_);
  }
  // A string, or null when empty (the oracle's convention for missing names).
  JsonWriter& name(std::string_view v) { return v.empty() ? null() : value(v); }

  template <class It>
  JsonWriter& numbers(It begin, It end) {
    begin_array();
    for (It it = begin; it != end; ++it) value(*it);
    return end_array();
  }

  void finish() {
    flush();
    std::fputc('\n', out_);
  }

 private:
  JsonWriter& then(marrow::JsonWriter&) {
    if (json_.text().size() >= 1 << 16) flush();
    return *this;
  }
  void flush() {
    std::fwrite(json_.text().data(), 1, json_.text().size(), out_);
    json_.clear_text();
  }

  std::FILE* out_;
  marrow::JsonWriter json_{marrow::JsonWriter::NonFinite::Null};
};

}  // namespace marrow::cli
