#include "marrow/core/quoted_name.hpp"

namespace marrow {

std::string shown_name(std::string_view name, std::size_t shown) {
  std::size_t end = name.size();
  if (end > shown) {
    end = shown;
    while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0u) == 0x80u) --end;  // not inside a character
  }
  std::string out;
  for (std::size_t i = 0; i < end; ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20u || c == 0x7Fu) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xFu];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (end < name.size()) out += "...";
  return out;
}

std::string quoted_name(std::string_view name, std::size_t shown) { return "\"" + shown_name(name, shown) + "\""; }

}  // namespace marrow
