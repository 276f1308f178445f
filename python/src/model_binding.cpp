// load() and Model: a loaded file, shared by its instances (docs/python.md).
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "load_options.hpp"
#include "loaded_model.hpp"
#include "reports/info_report.hpp"
#include "marrow/model/animation_marker.hpp"
#include "report_dicts.hpp"

namespace marrow::python {

namespace {

// A skin's joints in palette order (parents first), or with skin None every bone.
py::list joint_names(const Model& model, std::optional<long long> skin) {
  py::list out;
  if (!skin) {
    for (const ModelNode& b : model.nodes) out.append(b.name);
    return out;
  }
  const Skin& s = model.skins[checked_index(*skin, model.skins.size(), "skin")];
  for (int bone : s.palette_to_scene) {
    out.append(bone < 0 ? py::object(py::none()) : py::object(py::str(model.nodes[static_cast<std::size_t>(bone)].name)));
  }
  return out;
}

py::list joint_parents(const Model& model, std::optional<long long> skin) {
  py::list out;
  if (!skin) {
    for (const ModelNode& b : model.nodes) out.append(b.parent);
    return out;
  }
  for (int p : model.skins[checked_index(*skin, model.skins.size(), "skin")].data.skeleton_hierarchy) out.append(p < 0 ? -1 : p);
  return out;
}

std::string describe(const LoadedModel& m) {
  const Model& model = m.model();
  return "<marrow.Model '" + m.path() + "': " + std::to_string(model.nodes.size()) + " bones, " +
         std::to_string(model.meshes.size()) + " meshes, " + std::to_string(model.skins.size()) + " skins, " +
         std::to_string(model.animations.size()) + " animations>";
}

}  // namespace

void bind_model(py::module_& m) {
  py::class_<LoadedModel, std::shared_ptr<LoadedModel>>(m, "Model", R"(A loaded model: nodes, meshes, skins, animations.

Immutable once used (instance(), pose(), sample(), render(), convert()); any number of
instances share it. Made by marrow.load().)")
      .def_property_readonly("path", &LoadedModel::path, "The path it was loaded from, as given.")
      .def_property_readonly(
          "animations",
          [](const LoadedModel& self) {
            py::list names;
            for (const ModelAnimation& a : self.model().animations) names.append(a.name);
            return names;
          },
          "Animation names, in the file's order (clip= takes a name or this index).")
      .def(
          "duration", [](const LoadedModel& self, const ClipArg& clip) {
            return seconds_from_ticks(self.model().animations[static_cast<std::size_t>(animation_index(self.model(), clip))].duration);
          },
          py::arg("clip"), "An animation's duration in seconds.")
      .def_property_readonly(
          "diagnostics",
          [](const LoadedModel& self) {
            py::list out;
            for (const Diagnostic& d : self.model().diagnostics) {
              py::dict e;
              e["code"] = std::string(marrow::to_string(d.code));
              e["count"] = d.count;
              e["message"] = d.message;
              out.append(e);
            }
            return out;
          },
          "What marrow repaired or left out of an accepted file: dicts of code, count, message.")
      .def(
          "info", [](const LoadedModel& self) { return info_dict(self.path(), make_info_report(self.model())); },
          "The dict `marrow info FILE --json` prints.")
      .def(
          "joint_names", [](const LoadedModel& self, std::optional<long long> skin) { return joint_names(self.model(), skin); },
          py::arg("skin") = 0,
          "A skin's joint names in palette order (parents before children: the order of\n"
          "Instance.joint_matrices() and sample()); skin=None: every bone's name (bone 0 is the\n"
          "synthetic root).")
      .def(
          "joint_parents", [](const LoadedModel& self, std::optional<long long> skin) { return joint_parents(self.model(), skin); },
          py::arg("skin") = 0, "The parent of each entry of joint_names(skin) in the same list, -1 for a root.")
      .def(
          "add_marker",
          [](LoadedModel& self, const std::string& animation, const std::string& name, double seconds) {
            Model& model = self.model_to_edit();
            if (model.find_animation(animation) < 0) animation_index(model, ClipArg(animation));  // KeyError
            add_marker(model, animation, name, checked_ticks(seconds, "add_marker: seconds"));
          },
          py::arg("animation"), py::arg("name"), py::arg("seconds"),
          "Adds a named marker (an event: a footstep, a hit) to an animation at `seconds`.\n"
          "Only before the model is used (RuntimeError after).")
      .def("__repr__", &describe);

  m.def(
      "load",
      [](const py::object& path, std::optional<int> scene, int max_palette, const std::string& palette,
         std::optional<double> ticks_per_second, bool skeletal) {
        const std::string file = path_text(path);
        const ModelFileOptions options = load_options(scene, max_palette, palette, ticks_per_second, skeletal);
        py::gil_scoped_release unlocked;
        return std::make_shared<LoadedModel>(file, load_model_file(file, options));
      },
      py::arg("path"), py::kw_only(), py::arg("scene") = py::none(), py::arg("max_palette") = 72,
      py::arg("palette") = "refuse", py::arg("ticks_per_second") = py::none(), py::arg("skeletal") = true,
      R"(Loads any format marrow reads: glTF (.gltf, .glb), native (.marrow), and through Assimp
FBX, Collada and the rest. Raises marrow.LoadError(code, message) for a refused file.

scene: the file's scene (default: its default scene); max_palette, palette ("refuse",
"static" or "split"): what a skin with more joints does (split: sub-parts of at most
max_palette joints, posed exactly as unsplit); ticks_per_second: Assimp formats that record
none; skeletal=False loads every mesh of an Assimp format static.)");
}

}  // namespace marrow::python
