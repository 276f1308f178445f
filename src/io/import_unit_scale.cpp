#include "import_unit_scale.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/model/unit_scale.hpp"

namespace marrow::detail {

void apply_import_unit_scale(Model& model, float scale) {
  if (scale == 1.f) return;
  if (!std::isfinite(scale) || !(scale > 0.f)) {
    apply_unit_scale(model, scale);  // throws std::invalid_argument naming the scale
    return;
  }
  try {
    apply_unit_scale(model, scale);
  } catch (const std::invalid_argument& e) {
    throw ImportError(ImportErrorCode::InvalidDocument, std::string("ImportOptions::unit_scale: ") + e.what());
  }
}

}  // namespace marrow::detail
