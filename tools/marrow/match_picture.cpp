#include "match_picture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "marrow/model/skeleton_bones.hpp"
#include "marrow/render/box_overlay.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/framebuffer.hpp"
#include "marrow/render/model_renderer.hpp"
#include "marrow/render/overlay_drawing.hpp"
#include "marrow/render/skeleton_overlay.hpp"
#include "presentation/caption.hpp"
#include "presentation/gif_file.hpp"

namespace marrow::cli {

namespace {

using render::Camera;
using render::Framebuffer;

constexpr glm::vec3 kGrid{0.045f, 0.055f, 0.08f};       // linear RGB, a little above the background
constexpr glm::vec3 kSimulated{0.2f, 0.3f, 0.45f};    // the desired (simulated) path
constexpr glm::vec3 kTrail{0.9f, 0.45f, 0.08f};       // where the character went

// points[first, end) joined by lines.
void draw_polyline(Framebuffer& fb, const Camera& camera, const std::vector<glm::vec3>& points, std::size_t first, std::size_t end,
                   const glm::vec3& colour, float half_width) {
  for (std::size_t i = first + 1; i < end && i < points.size(); ++i) {
    const auto a = render::project_to_samples(camera, fb, points[i - 1]);
    const auto b = render::project_to_samples(camera, fb, points[i]);
    if (a && b) render::draw_line(fb, *a, *b, colour, half_width);
  }
}

// Lines every metre over the box's ground.
void draw_grid(Framebuffer& fb, const Camera& camera, const BoundingBox& box, float half_width) {
  for (float x = std::floor(box.min.x); x <= box.max.x; x += 1.f) {
    const auto a = render::project_to_samples(camera, fb, {x, 0.f, box.min.z});
    const auto b = render::project_to_samples(camera, fb, {x, 0.f, box.max.z});
    if (a && b) render::draw_line(fb, *a, *b, kGrid, half_width);
  }
  for (float z = std::floor(box.min.z); z <= box.max.z; z += 1.f) {
    const auto a = render::project_to_samples(camera, fb, {box.min.x, 0.f, z});
    const auto b = render::project_to_samples(camera, fb, {box.max.x, 0.f, z});
    if (a && b) render::draw_line(fb, *a, *b, kGrid, half_width);
  }
}

}  // namespace

MatchPicture::MatchPicture(const MotionClips& clips, int width, int height, std::size_t step)
    : clips_(clips), width_(width), height_(height), step_(std::max<std::size_t>(step, 1)) {}

void MatchPicture::record(std::size_t frame, const MotionMatcher& matcher) {
  simulated_.push_back(matcher.simulation_position());
  character_.push_back(matcher.position());
  if (frame % step_ != 0) return;
  Kept k;
  k.frame = frame;
  for (const glm::mat4& m : matcher.animator().absolute_bone_transforms()) k.worlds.push_back(matcher.world() * m);
  k.clip = clips_.database().range_of(matcher.row()).name;
  kept_.push_back(std::move(k));
}

std::size_t MatchPicture::write(const std::filesystem::path& path, double fps, const std::string& title) const {
  if (kept_.empty()) throw std::invalid_argument("match demo: no frame to draw");
  // The whole run in view: both paths, a standing character's height, half a metre around.
  BoundingBox box;
  for (const auto* points : {&simulated_, &character_})
    for (const glm::vec3& p : *points) box.extend(p);
  box.extend(box.min - glm::vec3(0.5f, 0.f, 0.5f));
  box.extend(box.max + glm::vec3(0.5f, 1.8f, 0.5f));
  render::CameraFraming framing;
  framing.angles = {20.f, 40.f};
  framing.aspect = static_cast<float>(width_) / static_cast<float>(height_);
  framing.margin = 0.02f;
  const Camera camera = render::frame_camera(box, framing);
  const Model& model = clips_.model();
  const std::vector<std::uint8_t> joints = skeleton_bones(model);
  Framebuffer fb;
  std::vector<render::Image> frames(kept_.size());
  for (std::size_t i = 0; i < kept_.size(); ++i) {
    const Kept& k = kept_[i];
    fb.resize(width_, height_, 2);
    fb.clear(render::kDefaultBackground);
    const float w = render::overlay_half_width(fb);
    draw_grid(fb, camera, box, 0.5f * w);
    draw_polyline(fb, camera, simulated_, k.frame, simulated_.size(), kSimulated, 0.6f * w);  // the way ahead
    draw_polyline(fb, camera, character_, 0, k.frame + 1, kTrail, 0.6f * w);                  // the way gone
    render::draw_skeleton(model, joints, k.worlds, camera, fb);
    fb.resolve(frames[i]);
    char caption[160];
    std::snprintf(caption, sizeof caption, "%s  %5.1f s  %s", title.c_str(), static_cast<double>(k.frame) / 60.0, k.clip.c_str());
    presentation::draw_frame_caption(frames[i], caption);
  }
  presentation::write_gif(frames, fps, path);
  return frames.size();
}

}  // namespace marrow::cli
