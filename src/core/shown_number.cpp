#include "marrow/core/shown_number.hpp"

#include <cstdio>

namespace marrow {

std::string shown_number(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", x);
  return text;
}

}  // namespace marrow
