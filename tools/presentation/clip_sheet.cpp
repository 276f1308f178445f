#include "presentation/clip_sheet.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "marrow/model/animator.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "presentation/contact_sheet.hpp"
#include "presentation/frame_times.hpp"

namespace marrow::presentation {

using namespace marrow::render;  // the renderer this code draws with

namespace {

std::string time_label(const std::string& clip, Ticks t) {
  char text[48];
  std::snprintf(text, sizeof text, "%.3f s", seconds_from_ticks(t));
  return clip.empty() ? std::string(text) : clip + " " + text;
}

}  // namespace

Image render_clip_sheet(const Model& model, const ClipSheetRequest& request) {
  if (request.frames < 1 || request.frames > kMaxSheetFrames) {
    throw std::invalid_argument("render_clip_sheet: " + std::to_string(request.frames) + " frames is outside [1, " +
                                std::to_string(kMaxSheetFrames) + "]");
  }
  for (int clip : request.clips) {
    if (clip < 0 || clip >= static_cast<int>(model.animations.size())) {
      throw std::out_of_range("render_clip_sheet: clip " + std::to_string(clip) + " of a model with " +
                              std::to_string(model.animations.size()) + " animations");
    }
  }
  const bool still = request.clips.empty();
  const bool one_clip = request.clips.size() == 1;
  const int columns = still ? 1
                      : one_clip ? static_cast<int>(std::ceil(std::sqrt(static_cast<double>(request.frames))))
                                 : request.frames;
  const int rows = still ? 1 : one_clip ? (request.frames + columns - 1) / columns : static_cast<int>(request.clips.size());
  ContactSheet sheet(columns, rows, request.tile.width, request.tile.height, request.title);

  const BoundingBox box = request.framing ? *request.framing : animated_bounds(model);
  const Camera camera = frame_camera(box, CameraFraming{request.view, static_cast<float>(request.tile.width) /
                                                                          static_cast<float>(request.tile.height)});
  RenderSettings settings = request.tile;
  Animator animator(model);
  ModelRenderer renderer(model);
  Image tile;
  if (still) {
    renderer.render(animator, camera, settings, tile);
    sheet.place(0, tile, "loaded pose");
  }
  for (std::size_t row = 0; row < request.clips.size(); ++row) {
    const int clip = request.clips[row];
    const ModelAnimation& animation = model.animations[static_cast<std::size_t>(clip)];
    animator.play(clip);
    for (int f = 0; f < request.frames; ++f) {
      const Ticks t = spread_frame_time(animation.duration, f, request.frames);
      animator.update(t, false, false);
      renderer.render(animator, camera, settings, tile);
      const int cell = one_clip ? f : static_cast<int>(row) * columns + f;
      sheet.place(cell, tile, time_label(one_clip ? std::string() : animation.name, t));
    }
  }
  return sheet.image();
}

}  // namespace marrow::presentation
