#include "marrow/io/finish_import.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/model/bind_pose_palette.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/model/loaded_pose_bounds.hpp"
#include "marrow/model/split_skin_palettes.hpp"
#include "marrow/model/unit_scale.hpp"

namespace marrow {

namespace {

// G18 at import time: apply_unit_scale refuses a length the scale takes beyond the float range as
// invalid_argument; that is the file's fault here, so it becomes an ImportError naming the option.
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

}  // namespace

void finish_import(Model& model, const ImportOptions& options, ImportSource source) {
  const bool built = source == ImportSource::Built;
  if (built) apply_import_unit_scale(model, options.unit_scale);  // G18
  if (options.compression) compress_model_clips(model, *options.compression);
  if (built && options.palette_policy == PalettePolicy::Split) split_skin_palettes(model, options.max_palette);  // S4
  for (std::size_t s = 0; s < model.skins.size(); ++s) apply_bind_pose_bone_transforms(model, s);  // M2
  if (built) {
    compute_import_bounds(model);  // S5, G17
  } else if (!frame_bounds_ready(model)) {
    compute_frame_bounds(model);  // S5 for a file without FBND; its spheres are stored
  }
}

}  // namespace marrow
