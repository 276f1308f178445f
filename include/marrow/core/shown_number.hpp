#pragma once
// A number as marrow's messages show it: six significant digits ("%g"), so a tolerance of 1e-9
// reads 1e-09, not std::to_string's 0.000000, and 0.5 reads 0.5.
#include <string>

namespace marrow {

std::string shown_number(double x);

}  // namespace marrow
