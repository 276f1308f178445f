#pragma once
// marrow's one JSON writer (the glTF writer, the CLI's reports): compact output into a string,
// strings escaped, and numbers in their shortest text that reads back to the same value: a
// float as a float (so a float reads back bit for bit), a double as a double, integers exactly.
// JSON has no NaN or infinity: a non-finite number is refused (std::invalid_argument naming
// it) or written as null, as the writer was built to do.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace marrow {

class JsonWriter {
 public:
  enum class NonFinite : unsigned char { Refuse, Null };

  explicit JsonWriter(NonFinite non_finite = NonFinite::Refuse) noexcept : non_finite_(non_finite) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& string(std::string_view s);
  JsonWriter& boolean(bool b);
  JsonWriter& null();
  JsonWriter& uint(std::uint64_t v);
  JsonWriter& integer(std::int64_t v);
  // `what` names the value in the refusal of a non-finite number.
  JsonWriter& number(float v, std::string_view what = "a number");
  JsonWriter& number(double v, std::string_view what = "a number");

  const std::string& text() const noexcept { return out_; }
  std::string take() noexcept { return std::move(out_); }
  // Empties the text written so far (a streaming caller flushes it); the nesting is kept.
  void clear_text() noexcept { out_.clear(); }

 private:
  bool finite_or_null(bool finite, std::string_view what);
  void separate();
  void write_string(std::string_view s);

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
  NonFinite non_finite_;
};

}  // namespace marrow
