#include "gltf_json_values.hpp"

#include <cmath>

#include "accessor_layout.hpp"
#include "marrow/core/quoted_name.hpp"

namespace marrow::gltf::json_values {

[[noreturn]] void fail(ImportErrorCode code, const std::string& message) { throw ImportError(code, message); }

std::string num(std::uint64_t v) { return std::to_string(v); }

std::string What::str() const {
  std::string out = parent_ != nullptr ? parent_->str() : text_ != nullptr ? *text_ : std::string(literal_);
  if (parent_ == nullptr) return out;
  return literal_ != nullptr ? out + ": " + literal_ : out + "[" + num(index_) + "]";
}

std::string describe(element e) {
  switch (e.type()) {
    case element_type::ARRAY: return "an array";
    case element_type::OBJECT: return "an object";
    case element_type::INT64: return std::to_string(int64_t(e));
    case element_type::UINT64: return std::to_string(uint64_t(e));
    case element_type::DOUBLE: {
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", double(e));
      return text;
    }
    case element_type::STRING: return quoted_name(std::string_view(e), 40);
    case element_type::BOOL: return "a boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "a value";
}

std::optional<element> member(object o, std::string_view key) {
  element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS) return std::nullopt;
  return e;
}

element required(object o, std::string_view key, const What& where) {
  std::optional<element> e = member(o, key);
  if (!e) fail(ImportErrorCode::InvalidDocument, where + ": missing required property '" + std::string(key) + "'");
  return *e;
}

object as_object(element e, const What& what) {
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    fail(ImportErrorCode::InvalidDocument, what + " must be an object, got " + describe(e));
  }
  return o;
}

array as_array(element e, const What& what) {
  array a;
  if (e.get_array().get(a) != simdjson::SUCCESS) {
    fail(ImportErrorCode::InvalidDocument, what + " must be an array, got " + describe(e));
  }
  return a;
}

std::string as_string(element e, const What& what) {
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) {
    fail(ImportErrorCode::InvalidDocument, what + " must be a string, got " + describe(e));
  }
  return std::string(s);
}

bool as_bool(element e, const What& what) {
  bool b = false;
  if (e.get_bool().get(b) != simdjson::SUCCESS) {
    fail(ImportErrorCode::InvalidDocument, what + " must be true or false, got " + describe(e));
  }
  return b;
}

double as_number(element e, const What& what) {
  if (!e.is_number()) fail(ImportErrorCode::InvalidDocument, what + " must be a number, got " + describe(e));
  return double(e);
}

float as_float(element e, const What& what) {
  constexpr double kFloatRoundingLimit = 0x1.ffffffp127;
  const double d = as_number(e, what);
  if (!(std::fabs(d) < kFloatRoundingLimit)) {
    fail(ImportErrorCode::InvalidDocument, what + " " + describe(e) + " is out of the float range");
  }
  return static_cast<float>(d);
}

JsonInteger integer_of(element e) {
  JsonInteger r;
  switch (e.type()) {
    case element_type::UINT64:
      r.is_integer = true;
      r.magnitude = uint64_t(e);
      break;
    case element_type::INT64: {
      const std::int64_t v = int64_t(e);
      r.is_integer = true;
      r.negative = v < 0;
      r.magnitude = v < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      break;
    }
    case element_type::DOUBLE: {
      const double d = double(e);
      // 2^64 and above cannot be held; such values are reported as not integers of our range.
      if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 18446744073709551616.0) {
        r.is_integer = true;
        r.negative = d < 0;
        r.magnitude = static_cast<std::uint64_t>(std::fabs(d));
      }
      break;
    }
    default: break;
  }
  return r;
}

std::string integer_text(const JsonInteger& v) { return (v.negative ? "-" : "") + num(v.magnitude); }

std::uint64_t as_uint(element e, const What& what,
                      std::uint64_t max) {
  const JsonInteger v = integer_of(e);
  if (!v.is_integer) fail(ImportErrorCode::InvalidDocument, what + " must be an integer, got " + describe(e));
  if (v.negative && v.magnitude != 0) {
    fail(ImportErrorCode::InvalidDocument, what + " must not be negative, got " + integer_text(v));
  }
  if (v.magnitude > max) fail(ImportErrorCode::InvalidDocument, what + " " + num(v.magnitude) + " exceeds " + num(max));
  return v.magnitude;
}

std::uint32_t as_index(element e, const What& what, std::uint64_t size, const char* plural) {
  const JsonInteger v = integer_of(e);
  if (!v.is_integer) fail(ImportErrorCode::InvalidDocument, what + " must be an integer index, got " + describe(e));
  if ((v.negative && v.magnitude != 0) || v.magnitude >= size) {
    fail(ImportErrorCode::IndexOutOfRange, what + " " + integer_text(v) + " of " + num(size) + " " + plural);
  }
  return static_cast<std::uint32_t>(v.magnitude);
}

std::vector<float> read_float_list(element e, const What& what) {
  const array a = as_array(e, what);
  std::vector<float> out;
  out.reserve(a.size());
  for (element v : a) out.push_back(as_float(v, What(what, out.size())));
  return out;
}

std::vector<double> read_double_list(element e, const What& what) {
  const array a = as_array(e, what);
  std::vector<double> out;
  out.reserve(a.size());
  for (element v : a) out.push_back(as_number(v, What(what, out.size())));
  return out;
}

std::vector<std::string> read_string_list(element e, const What& what) {
  const array a = as_array(e, what);
  std::vector<std::string> out;
  out.reserve(a.size());
  for (element v : a) out.push_back(as_string(v, What(what, out.size())));
  return out;
}

std::string optional_string(object o, std::string_view key, const What& where) {
  const std::optional<element> e = member(o, key);
  return e ? as_string(*e, where + ": " + std::string(key)) : std::string();
}

bool parse_version(std::string_view text, std::uint64_t& major, std::uint64_t& minor) {
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == text.size()) return false;
  auto digits = [](std::string_view s, std::uint64_t& out) {
    if (s.size() > 9) return false;
    out = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + std::uint64_t(c - '0');
    }
    return true;
  };
  return digits(text.substr(0, dot), major) && digits(text.substr(dot + 1), minor);
}

ComponentType component_type_of(element e, const What& what, bool indices_only) {
  const std::uint64_t v = as_uint(e, what);
  const bool ok = indices_only ? (v == 5121 || v == 5123 || v == 5125)
                               : (v <= 0xffffffffu && detail::is_component_type(static_cast<std::uint32_t>(v)));
  if (!ok) {
    fail(ImportErrorCode::InvalidAccessor,
         what + " " + num(v) +
             (indices_only ? " is not an unsigned integer type (5121, 5123, 5125)"
                           : " is not a glTF component type (5120, 5121, 5122, 5123, 5125, 5126)"));
  }
  return static_cast<ComponentType>(v);
}

const char* component_type_name(ComponentType t) {
  switch (t) {
    case ComponentType::Byte: return "BYTE";
    case ComponentType::UnsignedByte: return "UNSIGNED_BYTE";
    case ComponentType::Short: return "SHORT";
    case ComponentType::UnsignedShort: return "UNSIGNED_SHORT";
    case ComponentType::UnsignedInt: return "UNSIGNED_INT";
    case ComponentType::Float: return "FLOAT";
  }
  return "?";
}

}  // namespace marrow::gltf::json_values
