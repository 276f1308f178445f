#pragma once
// A contact sheet of a model's clips: every requested clip shown at `frames` times spread
// evenly over it (both ends included), each tile labelled with its time. One clip fills a grid
// as close to square as fits; several clips get a row each. Every tile shares one camera,
// framed on the box that covers every clip (animated_bounds), so motion reads across tiles.
// No clips: one tile of the loaded pose.
#include <optional>
#include <string>
#include <vector>

#include "marrow/model/bounds.hpp"
#include "marrow/model/model.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/image.hpp"
#include "marrow/render/model_renderer.hpp"

namespace marrow::presentation {

using render::Image;

inline constexpr int kMaxSheetFrames = 256;

struct ClipSheetRequest {
  std::vector<int> clips;               // indices into Model::animations; empty: the loaded pose
  int frames = 8;                       // per clip, 1 to kMaxSheetFrames
  render::RenderSettings tile = [] {    // size and look of one tile
    render::RenderSettings s;
    s.width = s.height = 256;
    return s;
  }();
  render::ViewAngles view = render::view_angles(render::ViewPreset::Iso);
  std::optional<BoundingBox> framing;   // the box to frame; default animated_bounds(model)
  std::string title;                    // the band above the grid; empty: none
};

// Throws std::invalid_argument for a frame count outside [1, kMaxSheetFrames] or a
// sheet too large (ContactSheet), and std::out_of_range for a clip index the model lacks.
Image render_clip_sheet(const Model& model, const ClipSheetRequest& request);

}  // namespace marrow::presentation
