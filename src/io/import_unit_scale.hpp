#pragma once
// G18 at import time. A scale that is not finite and positive is the caller's mistake
// (std::invalid_argument, as apply_unit_scale); a file whose lengths the scale would take beyond
// the float range is the file's: ImportError(InvalidDocument) naming the scale and the length.
#include "marrow/model/model.hpp"

namespace marrow::detail {

void apply_import_unit_scale(Model& model, float scale);

}  // namespace marrow::detail
