// sample(): a clip's world transforms at a frame rate, as one numpy array: motion data for tools
// and learning. Frame f is the pose `marrow pose --clip C --time f/fps` reports (clamped to
// the clip); the frames are those of `marrow render --gif --fps` (frame_times.hpp).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "loaded_model.hpp"
#include "marrow/model/animator.hpp"
#include "numpy_arrays.hpp"
#include "presentation/frame_times.hpp"

namespace marrow::python {

namespace {

constexpr int kMaxFrames = 10'000'000;
constexpr std::uint64_t kMaxBytes = std::uint64_t{4} << 30;

// The bones whose transforms are sampled: a skin's joints in palette order, or every bone.
std::vector<std::size_t> sampled_bones(const Model& model, std::optional<long long> skin) {
  std::vector<std::size_t> bones;
  if (!skin) {
    for (std::size_t b = 0; b < model.nodes.size(); ++b) bones.push_back(b);
    return bones;
  }
  const std::size_t s = checked_index(*skin, model.skins.size(), "skin");
  for (std::size_t p = 0; p < model.skins[s].palette_to_scene.size(); ++p) {
    const int bone = model.skins[s].palette_to_scene[p];
    if (bone < 0) {
      throw py::value_error("skin " + std::to_string(s) + ": joint " + std::to_string(p) +
                            " is outside the scene (no world transform); use skin=None for the scene's nodes");
    }
    bones.push_back(static_cast<std::size_t>(bone));
  }
  return bones;
}

}  // namespace

void bind_sample(py::module_& m) {
  m.def(
      "sample",
      [](const std::shared_ptr<LoadedModel>& loaded, const ClipArg& clip, double fps, std::optional<long long> skin) {
        const Model& model = loaded->model();
        const int index = animation_index(model, clip);
        const std::vector<std::size_t> bones = sampled_bones(model, skin);
        const Ticks duration = model.animations[static_cast<std::size_t>(index)].duration;
        const int frames = marrow::frame_count_at_rate(duration, fps, kMaxFrames);
        const std::uint64_t bytes = std::uint64_t(frames) * bones.size() * sizeof(glm::mat4);
        if (bytes > kMaxBytes) {
          throw py::value_error("sample: " + std::to_string(frames) + " frames of " + std::to_string(bones.size()) +
                                " matrices need " + std::to_string(bytes) + " bytes; at most " + std::to_string(kMaxBytes) +
                                " (lower fps)");
        }
        const auto compiled = loaded->compiled();
        py::array_t<float> out({static_cast<py::ssize_t>(frames), static_cast<py::ssize_t>(bones.size()), py::ssize_t{4}, py::ssize_t{4}});
        float* data = out.mutable_data();
        {
          py::gil_scoped_release unlocked;
          Animator animator(compiled);
          animator.play(index);
          for (int f = 0; f < frames; ++f) {
            animator.update(std::min(ticks_from_seconds(f / fps), duration), false, false);
            const std::span<const glm::mat4> worlds = animator.absolute_bone_transforms();
            for (const std::size_t bone : bones) {
              store_row_major(worlds[bone], data);
              data += 16;
            }
          }
        }
        return out;
      },
      py::arg("model"), py::arg("clip"), py::kw_only(), py::arg("fps") = 30.0, py::arg("skin") = 0,
      R"(A clip's model-space (world) transforms at `fps`: float32 (frames, joints, 4, 4),
[frame, joint, row, column]. Frame f is the pose at f / fps (clamped to the clip), for
round(duration * fps) frames (at least 1; a looping clip's end repeats its start). Joints are
skin `skin`'s in palette order (Model.joint_names(skin), parents first); skin=None samples
every bone instead (Model.joint_names(None)).)");
}

}  // namespace marrow::python
