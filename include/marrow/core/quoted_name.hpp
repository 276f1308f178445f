#pragma once
// A name as marrow's messages show it. A hostile file's names may be huge or hold any byte, and a
// message must stay short, on one line, and say where the name ends.
#include <cstddef>
#include <string>
#include <string_view>

namespace marrow {

// Cut to `shown` bytes at the start of a UTF-8 character, then "..."; control bytes (NUL,
// newline, DEL, ...) written as \xNN. Other bytes, UTF-8 included, as they are.
std::string shown_name(std::string_view name, std::size_t shown = 60);
// shown_name in double quotes.
std::string quoted_name(std::string_view name, std::size_t shown = 60);

}  // namespace marrow
