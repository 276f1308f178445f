#include "marrow/io/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace marrow {

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  write_string(k);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
  separate();
  write_string(s);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::uint(std::uint64_t v) {
  separate();
  char text[24];
  const auto r = std::to_chars(text, text + sizeof text, v);
  out_.append(text, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::integer(std::int64_t v) {
  separate();
  char text[24];
  const auto r = std::to_chars(text, text + sizeof text, v);
  out_.append(text, r.ptr);
  return *this;
}

bool JsonWriter::finite_or_null(bool finite, std::string_view what) {
  if (finite) return true;
  // A NaN or infinity in a file would make it one no JSON reader accepts.
  if (non_finite_ == NonFinite::Refuse) throw std::invalid_argument("JSON: " + std::string(what) + " is not finite");
  null();
  return false;
}

// Readers parse JSON numbers as double and round to float. The shortest float text survives that
// double rounding for all but a handful of floats (e.g. 7.038531e-26); those are written as the
// exact double of the float instead, so every float reads back bit for bit.
JsonWriter& JsonWriter::number(float v, std::string_view what) {
  if (!finite_or_null(std::isfinite(v), what)) return *this;
  separate();
  if (v == 0 && std::signbit(v)) {
    out_ += "-0.0";  // "-0" would read back as the integer 0 and lose its sign
    return *this;
  }
  char text[32];
  auto r = std::to_chars(text, text + sizeof text, v);
  double read_back = 0;
  std::from_chars(text, r.ptr, read_back);
  if (static_cast<float>(read_back) != v) r = std::to_chars(text, text + sizeof text, static_cast<double>(v));
  out_.append(text, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::number(double v, std::string_view what) {
  if (!finite_or_null(std::isfinite(v), what)) return *this;
  separate();
  if (v == 0 && std::signbit(v)) {
    out_ += "-0.0";
    return *this;
  }
  char text[32];
  const auto r = std::to_chars(text, text + sizeof text, v);
  out_.append(text, r.ptr);
  return *this;
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_.empty()) return;
  if (!first_.back()) out_ += ',';
  first_.back() = false;
}

void JsonWriter::write_string(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out_ += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      case '\b': out_ += "\\b"; break;
      case '\f': out_ += "\\f"; break;
      default:
        if (u < 0x20) {
          out_ += "\\u00";
          out_ += kHex[u >> 4];
          out_ += kHex[u & 15];
        } else {
          out_ += c;
        }
    }
  }
  out_ += '"';
}

}  // namespace marrow
