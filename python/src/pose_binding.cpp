// pose(): the dict `marrow pose --json` prints, for a model at a clip's time (the CLI's
// --clip/--time: the same pose_at) or for an instance's current pose (the CLI's layered poses:
// set the instance up as --layer, --additive, --two-bone-ik and --root-motion would).
#include <optional>

#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "instance.hpp"
#include "reports/pose_report.hpp"
#include "report_dicts.hpp"

namespace marrow::python {

void bind_pose(py::module_& m) {
  m.def(
      "pose",
      [](const std::shared_ptr<LoadedModel>& loaded, const std::optional<ClipArg>& clip, double time, bool normals) {
        const int index = clip ? animation_index(loaded->model(), *clip) : -1;
        const double seconds = checked_time(time, "pose: time");
        loaded->freeze();
        PoseReport report;
        {
          py::gil_scoped_release unlocked;
          report = pose_at(loaded->model(), index, seconds);
        }
        return pose_dict(loaded->path(), report, normals, std::nullopt);
      },
      py::arg("model"), py::arg("clip") = py::none(), py::arg("time") = 0.0, py::kw_only(), py::arg("normals") = true,
      R"(The dict `marrow pose FILE --clip CLIP --time TIME --json` prints: the model at that time
of the clip (clamped to it, no looping; clip None: the loaded pose), in the file's index spaces.
normals=False leaves them out (--no-normals).)");
  m.def(
      "pose",
      [](Instance& instance, const std::optional<ClipArg>& clip, const std::optional<double>& time, bool normals) {
        if (clip || time) throw py::value_error("pose(instance) reports the instance's own pose: play the clip on it instead");
        const Model& model = instance.model->model();
        const PoseReport report = make_pose_report(model, instance.animator);
        std::optional<RootMotionEntry> root;
        if (const int node = instance.animator.root_motion_node(); node >= 0) {
          root = RootMotionEntry{model.nodes[static_cast<std::size_t>(node)].source_node, instance.animator.root_motion_offset()};
        }
        return pose_dict(instance.model->path(), report, normals, root);
      },
      py::arg("instance"), py::arg("clip") = py::none(), py::arg("time") = py::none(), py::kw_only(), py::arg("normals") = true,
      R"(The same dict for an instance's current pose (its layers, IK and root motion; clip, time and
sampledTime are None, and rootMotion holds the motion taken out of the pose when it is on).)");
}

}  // namespace marrow::python
