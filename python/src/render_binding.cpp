// render(): a picture of a model at a clip's time, or of an instance's current pose, drawn by
// marrow's software renderer (what `marrow render` writes), as a numpy RGB image. The camera
// is framed on the box that covers every clip (animated_bounds, computed once per model), so
// pictures of one model share it whatever the pose.
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "instance.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/model_renderer.hpp"
#include "presentation/caption.hpp"
#include "numpy_arrays.hpp"

namespace marrow::python {

namespace {

struct Picture {
  render::RenderSettings settings;
  render::ViewAngles view;
  std::string caption;  // drawn over the top of the picture; empty: none
};

Picture picture(const std::array<int, 2>& size, const std::string& view, std::optional<float> yaw, std::optional<float> pitch,
                bool skeleton, int samples, const std::string& caption) {
  Picture p;
  p.settings.width = size[0];
  p.settings.height = size[1];
  render::check_image_size(size[0], size[1], "render: size");
  p.settings.samples = samples;
  p.settings.skeleton = skeleton;
  p.caption = caption;
  p.view = render::view_angles(render::view_preset_from_name(view));
  // The command line's ranges (--yaw, --pitch); NaN is outside both.
  if (yaw && !(*yaw >= -360.f && *yaw <= 360.f)) throw py::value_error("yaw=" + std::to_string(*yaw) + ": from -360 to 360 degrees");
  if (pitch && !(*pitch >= -90.f && *pitch <= 90.f)) throw py::value_error("pitch=" + std::to_string(*pitch) + ": from -90 to 90 degrees");
  if (yaw) p.view.yaw_degrees = *yaw;
  if (pitch) p.view.pitch_degrees = *pitch;
  return p;
}

// Draws the animator's pose (GIL released by the caller or not) into out, (height, width, 3).
void draw(LoadedModel& loaded, Animator& animator, const Picture& p, bool bounds, std::uint8_t* out) {
  const BoundingBox box = loaded.framing_box();
  render::RenderSettings settings = p.settings;
  if (bounds) settings.bounds_overlay = box;
  const render::Camera camera = render::frame_camera(
      box, render::CameraFraming{p.view, static_cast<float>(settings.width) / static_cast<float>(settings.height)});
  render::ModelRenderer renderer(loaded.model());
  render::Image image;
  renderer.render(animator, camera, settings, image);
  presentation::draw_frame_caption(image, p.caption);
  for (const render::Rgba8& px : image.pixels()) {
    *out++ = px.r;
    *out++ = px.g;
    *out++ = px.b;
  }
}

py::array_t<std::uint8_t> new_image(const Picture& p) {
  return py::array_t<std::uint8_t>({static_cast<py::ssize_t>(p.settings.height), static_cast<py::ssize_t>(p.settings.width), py::ssize_t{3}});
}

constexpr const char* kDoc = R"(A picture by marrow's software renderer: uint8 RGB (height, width, 3), sRGB.

Of a model at a clip's time (clamped to the clip; clip None: the loaded pose), or of an
instance's current pose (clip and time must be left out). size: (width, height); view:
"front", "side", "top" or "iso", turned by yaw and raised by pitch (degrees); skeleton and
bounds draw the joints and the framing box over the model; samples: supersampling per axis
(1 to 4); caption: a line of text at the top.)";

}  // namespace

void bind_render(py::module_& m) {
  m.def(
      "render",
      [](const std::shared_ptr<LoadedModel>& loaded, const std::optional<ClipArg>& clip, double time,
         const std::array<int, 2>& size, const std::string& view, std::optional<float> yaw, std::optional<float> pitch,
         bool skeleton, bool bounds, int samples, const std::string& caption) {
        const int index = clip ? animation_index(loaded->model(), *clip) : -1;
        const Ticks t = ticks_from_seconds(checked_time(time, "render: time"));
        const Picture p = picture(size, view, yaw, pitch, skeleton, samples, caption);
        const auto compiled = loaded->compiled();
        py::array_t<std::uint8_t> out = new_image(p);
        std::uint8_t* pixels = out.mutable_data();
        {
          py::gil_scoped_release unlocked;
          Animator animator(compiled);
          if (index >= 0) {
            animator.play(index);
            // Clamped to the clip, as `marrow render --time` and `marrow pose` do.
            animator.update(std::min(t, loaded->model().animations[static_cast<std::size_t>(index)].duration), false, false);
          }
          draw(*loaded, animator, p, bounds, pixels);
        }
        return out;
      },
      py::arg("model"), py::arg("clip") = py::none(), py::arg("time") = 0.0, py::kw_only(),
      py::arg("size") = std::array<int, 2>{512, 512}, py::arg("view") = "iso", py::arg("yaw") = py::none(),
      py::arg("pitch") = py::none(), py::arg("skeleton") = false, py::arg("bounds") = false, py::arg("samples") = 2,
      py::arg("caption") = "", kDoc);
  m.def(
      "render",
      [](Instance& instance, const std::optional<ClipArg>& clip, const std::optional<double>& time,
         const std::array<int, 2>& size, const std::string& view, std::optional<float> yaw, std::optional<float> pitch,
         bool skeleton, bool bounds, int samples, const std::string& caption) {
        if (clip || time) throw py::value_error("render(instance) draws the instance's own pose: play the clip on it instead");
        const Picture p = picture(size, view, yaw, pitch, skeleton, samples, caption);
        py::array_t<std::uint8_t> out = new_image(p);
        // The GIL stays held: it is what keeps other Python threads off this instance.
        draw(*instance.model, instance.animator, p, bounds, out.mutable_data());
        return out;
      },
      py::arg("instance"), py::arg("clip") = py::none(), py::arg("time") = py::none(), py::kw_only(),
      py::arg("size") = std::array<int, 2>{512, 512}, py::arg("view") = "iso", py::arg("yaw") = py::none(),
      py::arg("pitch") = py::none(), py::arg("skeleton") = false, py::arg("bounds") = false, py::arg("samples") = 2,
      py::arg("caption") = "", kDoc);
}

}  // namespace marrow::python
