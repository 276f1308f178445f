#pragma once
// Typed reads of simdjson values for the glTF reader: each checks the JSON type (and range) and
// refuses with an ImportError whose message names `what`, e.g. "nodes[3].mesh must be an integer".
// A What is composed into text only when a message is written: a document's thousands of
// successful reads build no strings.
#include <simdjson.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

namespace marrow::gltf::json_values {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

[[noreturn]] void fail(ImportErrorCode code, const std::string& message);

// What a value is, for messages: a text, or a parent and a field ("accessors[3]: count") or an
// index ("nodes[2].translation[1]"). It refers to its parts: use it within the call it is made for.
class What {
 public:
  What(const std::string& text) : text_(&text) {}  // NOLINT(google-explicit-constructor)
  What(const char* text) : literal_(text) {}       // NOLINT(google-explicit-constructor)
  What(const What& parent, const char* field) : parent_(&parent), literal_(field) {}
  What(const What& parent, std::size_t index) : parent_(&parent), index_(index) {}
  std::string str() const;
  friend std::string operator+(const What& what, std::string_view tail) { return what.str().append(tail); }

 private:
  const What* parent_ = nullptr;
  const std::string* text_ = nullptr;
  const char* literal_ = nullptr;
  std::size_t index_ = 0;
};

std::string num(std::uint64_t v);

// A short description of a JSON value for messages: numbers and strings by value, else the kind.
std::string describe(element e);

std::optional<element> member(object o, std::string_view key);

element required(object o, std::string_view key, const What& where);

object as_object(element e, const What& what);

array as_array(element e, const What& what);

std::string as_string(element e, const What& what);

bool as_bool(element e, const What& what);

double as_number(element e, const What& what);

// A number stored as float: it must round to a finite float. 2^128 - 2^103 is halfway between
// FLT_MAX and 2^128; anything below rounds to FLT_MAX at most (the shortest text of FLT_MAX,
// 3.4028235e+38, is itself slightly above FLT_MAX).
float as_float(element e, const What& what);

// A JSON integer; integral doubles such as 3.0 count too (JSON Schema treats them as integers).
struct JsonInteger {
  bool is_integer = false;
  bool negative = false;
  std::uint64_t magnitude = 0;
};

JsonInteger integer_of(element e);

std::string integer_text(const JsonInteger& v);

// A non-negative integer no larger than max (InvalidDocument otherwise).
std::uint64_t as_uint(element e, const What& what,
                      std::uint64_t max = std::numeric_limits<std::uint64_t>::max());

// An index into an array of size elements: "node 4: mesh 9 of 3 meshes" when out of range.
std::uint32_t as_index(element e, const What& what, std::uint64_t size, const char* plural);

// An array of exactly N floats (node translation, matrix, ...).
template <std::size_t N>
void read_float_array(element e, const What& what, std::array<float, N>& out) {
  const array a = as_array(e, what);
  if (a.size() != N) {
    fail(ImportErrorCode::InvalidDocument, what + " must have " + num(N) + " numbers, got " + num(a.size()));
  }
  std::size_t i = 0;
  for (element v : a) {
    out[i] = as_float(v, What(what, i));
    ++i;
  }
}

std::vector<float> read_float_list(element e, const What& what);

std::vector<double> read_double_list(element e, const What& what);

std::vector<std::string> read_string_list(element e, const What& what);

std::string optional_string(object o, std::string_view key, const What& where);

// "2.0", "2.1": major and minor as integers; false for anything else.
bool parse_version(std::string_view text, std::uint64_t& major, std::uint64_t& minor);

ComponentType component_type_of(element e, const What& what, bool indices_only);

const char* component_type_name(ComponentType t);

}  // namespace marrow::gltf::json_values
