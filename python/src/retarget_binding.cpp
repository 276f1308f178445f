// retarget(): what `marrow retarget SOURCE TARGET OUT` does, returning the Model instead of
// writing it: the target with the source's clips retargeted onto it (docs/retargeting.md).
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "loaded_model.hpp"
#include "marrow/io/bone_map_file.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/live_retarget.hpp"
#include "marrow/model/retarget_clips.hpp"
#include "marrow/model/retarget_map.hpp"

namespace marrow::python {
namespace {

// A Model argument, or a path loaded with the default options.
std::shared_ptr<LoadedModel> model_argument(const py::object& value) {
  if (py::isinstance<LoadedModel>(value)) {
    auto loaded = value.cast<std::shared_ptr<LoadedModel>>();
    loaded->freeze();
    return loaded;
  }
  const std::string path = path_text(value);
  py::gil_scoped_release unlocked;
  return std::make_shared<LoadedModel>(path, load_model_file(path));
}

// map: None or "auto", a dict {target node: source node or humanoid bone}, or a JSON file's path.
BoneMapEntries map_argument(const py::object& map) {
  if (map.is_none()) return {};
  if (py::isinstance<py::dict>(map)) {
    BoneMapEntries entries;
    for (const auto& [key, value] : map.cast<py::dict>()) {
      // Names only, as in a map file: a number is not quietly taken as the name "3".
      if (!py::isinstance<py::str>(key) || !py::isinstance<py::str>(value))
        throw py::type_error("retarget: map entries are {name: name} strings, not " + std::string(py::str(py::repr(key))) + ": " +
                             std::string(py::str(py::repr(value))));
      entries.emplace_back(key.cast<std::string>(), value.cast<std::string>());
    }
    if (entries.empty()) throw py::value_error("retarget: map is an empty dict (None or \"auto\": found from the names)");
    return entries;
  }
  const std::string text = path_text(map);
  if (text == "auto") return {};
  return read_bone_map_file(text);
}

}  // namespace

void bind_retarget(py::module_& m) {
  m.def(
      "retarget",
      [](const py::object& source, const py::object& target, std::optional<std::vector<std::string>> clips,
         const py::object& map, std::optional<std::string> source_rest, std::optional<std::string> target_rest,
         bool feet_ik, const std::string& prefix, bool live) {
        const std::shared_ptr<LoadedModel> from = model_argument(source);
        const std::shared_ptr<LoadedModel> onto = model_argument(target);
        RetargetOptions options;
        options.bone_map = map_argument(map);
        if (source_rest) options.source_rest = parse_rest_pose(*source_rest);
        if (target_rest) options.target_rest = parse_rest_pose(*target_rest);
        RetargetClipsOptions bake{.clips = clips.value_or(std::vector<std::string>{}), .prefix = prefix, .feet_ik = feet_ik};
        py::gil_scoped_release unlocked;
        if (live) {
          // The source stays alive as long as the returned model's animations play it.
          const std::shared_ptr<const Model> source(from, &from->model());
          auto map = std::make_shared<const RetargetMap>(*source, onto->model(), options);
          return std::make_shared<LoadedModel>(onto->path(), retarget_live(source, onto->model(), std::move(map), bake));
        }
        const RetargetMap retarget_map(from->model(), onto->model(), options);
        return std::make_shared<LoadedModel>(onto->path(), retarget_clips(from->model(), onto->model(), retarget_map, bake));
      },
      py::arg("source"), py::arg("target"), py::kw_only(), py::arg("clips") = py::none(), py::arg("map") = py::none(),
      py::arg("source_rest") = py::none(), py::arg("target_rest") = py::none(), py::arg("feet_ik") = false,
      py::arg("prefix") = "", py::arg("live") = false,
      R"(Retargets clips of one humanoid rig onto another (any formats marrow loads; a Model or a
path each) and returns the target as a new Model with the clips added, each named prefix +
its source name, as `marrow retarget` writes it. clips: source clip names (default: all).
map: None or "auto" (bones found from their names), a dict {target node: source node or
humanoid bone name}, or the path of such a JSON object. source_rest, target_rest:
"CLIP@SECONDS" rest poses (default: the bind poses). feet_ik: pin the feet with two-bone IK.
live=True: the clips play the source through the map each frame instead of being baked
(one copy of the source's keys for every rig; convert() refuses such a model).
Raises ValueError naming what cannot be mapped.)");
}

}  // namespace marrow::python
