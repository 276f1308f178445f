#include "marrow/io/import_options.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/shown_number.hpp"

namespace marrow {

namespace {

[[noreturn]] void refuse(const std::string& field, const std::string& what) {
  throw std::invalid_argument("ImportOptions::" + field + " " + what);
}

}  // namespace

void check_import_options(const ImportOptions& options) {
  if (options.scene < -1) {
    refuse("scene", std::to_string(options.scene) + " is neither -1 (the file's default) nor a scene number from 0");
  }
  if (options.max_palette < 1 || options.max_palette > kMaxPaletteJoints) {
    refuse("max_palette",
           std::to_string(options.max_palette) + " is not a number of joints from 1 to " + std::to_string(kMaxPaletteJoints));
  }
  if (!(options.curve_tolerance > 0.0) || !std::isfinite(options.curve_tolerance)) {
    refuse("curve_tolerance", shown_number(options.curve_tolerance) + " is not positive and finite");
  }
  if (!(options.unit_scale > 0.f) || !std::isfinite(options.unit_scale)) {
    refuse("unit_scale", shown_number(options.unit_scale) + " is not positive and finite");
  }
  if (options.compression) {
    if (const std::string why = compression_refusal(*options.compression); !why.empty()) refuse("compression", why);
  }
}

}  // namespace marrow
