#include "import_unit_scale.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/model/unit_scale.hpp"

namespace marrow::detail {

void apply_import_unit_scale(Model& model, float scale) {
  if (scale == 1.f) return;
  const bool callers_mistake = !(std::isfinite(scale) && scale > 0.f);
  try {
    apply_unit_scale(model, scale);
  } catch (const std::invalid_argument& e) {
    if (callers_mistake) throw;
    throw ImportError(ImportErrorCode::InvalidDocument, std::string("ImportOptions::unit_scale: ") + e.what());
  }
}

}  // namespace marrow::detail
