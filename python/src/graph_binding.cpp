// load_graph(), Graph and GraphInstance: animation graphs (blend spaces, state machines,
// inertialized transitions: docs/graph.md) over marrow::AnimationGraph and marrow::GraphInstance,
// each instance posing its own Animator; pose(graph_instance) is `marrow pose --graph`'s dict.
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include <pybind11/stl.h>

#include "animator_results.hpp"
#include "arguments.hpp"
#include "bindings.hpp"
#include "loaded_model.hpp"
#include "marrow/io/graph_file.hpp"
#include "marrow/model/animation_graph.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/graph_instance.hpp"
#include "numpy_arrays.hpp"
#include "report_dicts.hpp"
#include "reports/pose_report.hpp"

namespace marrow::python {

namespace {

// A graph checked against a loaded model. The graph's deleter holds the LoadedModel, so the
// Model outlives the graph whichever Python object goes first.
struct Graph {
  std::shared_ptr<LoadedModel> model;
  std::shared_ptr<const AnimationGraph> graph;
};

// One character playing a graph: its own Animator on the model's shared compiled clips. Members
// are destroyed in reverse order: the GraphInstance before the Animator it drives.
struct GraphPlayer {
  GraphPlayer(std::shared_ptr<LoadedModel> loaded, std::shared_ptr<const AnimationGraph> graph)
      : model(std::move(loaded)), animator(model->compiled()), instance(std::move(graph), animator) {}

  std::shared_ptr<LoadedModel> model;
  Animator animator;
  GraphInstance instance;
};

// A dict is written as JSON by Python's json module and read by the graph file's parser, so a
// dict and a file go through one reader with one set of errors.
GraphDescription description_argument(const py::object& source, std::string& where) {
  if (py::isinstance<py::dict>(source)) {
    where.clear();
    std::string text;
    try {
      // allow_nan=False: JSON has no NaN or infinity; say so rather than let the parser see "NaN".
      text = py::module_::import("json").attr("dumps")(source, py::arg("allow_nan") = false).cast<std::string>();
    } catch (const py::error_already_set& e) {
      if (!e.matches(PyExc_ValueError)) throw;
      throw py::value_error("load_graph: the dict holds a NaN or infinite number, which JSON and so a graph cannot hold");
    }
    return parse_graph(std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()));
  }
  where = path_text(source);
  return read_graph_file(where);
}

std::shared_ptr<const AnimationGraph> make_graph(const GraphDescription& description, const std::shared_ptr<LoadedModel>& loaded,
                                                 const std::string& where) {
  loaded->freeze();  // the graph keeps pointers into the model and its markers' times
  try {
    const auto* graph = new AnimationGraph(description, loaded->model());
    return std::shared_ptr<const AnimationGraph>(graph, [loaded](const AnimationGraph* g) { delete g; });
  } catch (const std::invalid_argument& e) {
    throw py::value_error(where.empty() ? std::string(e.what()) : where + ": " + e.what());
  }
}

const char* type_name(GraphParameterType type) {
  switch (type) {
    case GraphParameterType::Float: return "float";
    case GraphParameterType::Bool: return "bool";
    case GraphParameterType::Trigger: return "trigger";
  }
  return "float";
}

// A bool as 0 or 1, any other real number as a float (TypeError otherwise).
float parameter_value(const py::object& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? 1.f : 0.f;
  if (!PyNumber_Check(value.ptr()) || PyComplex_Check(value.ptr())) {
    throw py::type_error("set: the value must be a number or a bool, not " + std::string(py::str(value.get_type().attr("__name__"))));
  }
  const double v = py::float_(value).cast<double>();
  if (std::isfinite(v) && std::abs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
    throw py::value_error("set: " + std::to_string(v) + " is beyond a float's range");
  }
  return static_cast<float>(v);
}

py::object parameter_result(const GraphPlayer& self, const std::string& name) {
  const AnimationGraph& graph = self.instance.graph();
  const float value = by_name([&] { return self.instance.get(name); });
  const auto p = static_cast<std::size_t>(graph.find_parameter(name));
  if (graph.parameters()[p].type == GraphParameterType::Float) return py::float_(static_cast<double>(value));
  return py::bool_(value != 0.f);
}

py::dict clip_weights_dict(const GraphInstance& instance) {
  py::dict out;
  for (const auto& [clip, weight] : describe_graph(instance).clip_weights) out[py::str(clip)] = static_cast<double>(weight);
  return out;
}

void bind_graph_class(py::module_& m) {
  py::class_<Graph>(m, "Graph", R"(An animation graph checked against a model (marrow::AnimationGraph): immutable,
shared by every GraphInstance made from it. Made by load_graph(); keeps the model alive.)")
      .def_property_readonly("model", [](const Graph& self) { return self.model; }, "The Model it plays.")
      .def_property_readonly(
          "parameters",
          [](const Graph& self) {
            py::dict out;
            for (const GraphParameter& p : self.graph->parameters()) out[py::str(p.name)] = type_name(p.type);
            return out;
          },
          "{name: 'float', 'bool' or 'trigger'}, in the graph's order.")
      .def(
          "instance", [](const Graph& self) { return std::make_unique<GraphPlayer>(self.model, self.graph); },
          "A new character playing the graph from its initial states, with its own pose.")
      .def("__repr__", [](const Graph& self) {
        return "<marrow.Graph of '" + self.model->path() + "', root '" + self.graph->description().root + "', " +
               std::to_string(self.graph->parameters().size()) + " parameters>";
      });
}

void bind_graph_instance_class(py::module_& m) {
  py::class_<GraphPlayer>(m, "GraphInstance", R"(One character playing a Graph (marrow::GraphInstance over
its own marrow::Animator): parameters, state machines, blend weights, clocks. Made by
Graph.instance(); keeps the graph and the model alive.)")
      .def_property_readonly("model", [](const GraphPlayer& self) { return self.model; }, "The Model it poses.")
      .def(
          "set",
          [](GraphPlayer& self, const std::string& name, const py::object& value) {
            const float v = parameter_value(value);
            by_name([&] {
              self.instance.set(name, v);
              return 0;
            });
          },
          py::arg("name"), py::arg("value"),
          R"(Sets a float parameter (a number) or a bool one (True/False, or a number: not 0 is True).
KeyError for an unknown name, ValueError for a trigger (fire it) or a value that is not finite.)")
      .def(
          "fire",
          [](GraphPlayer& self, const std::string& name) {
            by_name([&] {
              self.instance.fire(name);
              return 0;
            });
          },
          py::arg("name"), "Sets a trigger; the transition that takes it consumes it (ValueError for another kind).")
      .def("get", &parameter_result, py::arg("name"),
           "A parameter's value: a float, or for a bool or a trigger a bool (a trigger: True while set).")
      .def(
          "update",
          [](GraphPlayer& self, double seconds) {
            const Ticks dt = checked_ticks(seconds, "update: seconds");
            if (dt < Ticks{0}) throw py::value_error("update: seconds must not be negative (a graph only moves forward)");
            self.instance.update(dt);
          },
          py::arg("seconds"),
          "Advances by `seconds` (>= 0): transitions, weights, clocks, then the pose (docs/graph.md).")
      .def(
          "state", [](const GraphPlayer& self) { return std::string(self.instance.state()); },
          "The root state machine's current state ('' when the root is not a state machine).")
      .def(
          "clip_weights", [](const GraphPlayer& self) { return clip_weights_dict(self.instance); },
          R"({clip name: weight} after the last update: per clip the graph plays, the sum of the weights of
the places that play it (additive ones included), every such clip listed even at weight 0,
in the order the graph first names them. The normal clips' weights sum to 1.)")
      .def(
          "world_transforms", [](const GraphPlayer& self) { return matrix_copy(self.animator.absolute_bone_transforms()); },
          R"(Every bone's model-space transform: a new float32 (B, 4, 4) array [bone, row, column] (bone i:
info()['bones'][i]), the layout of Instance.world_transforms() and of a frame of
sample(..., skin=None).)")
      .def(
          "events", [](const GraphPlayer& self) { return events_list(self.animator); },
          "The markers the last update crossed (as Instance.events(); 'layer' is the clip's slot).")
      .def(
          "enable_root_motion",
          [](GraphPlayer& self, const std::optional<std::string>& joint, bool yaw, const std::array<float, 3>& up) {
            enable_root_motion(self.animator, joint, yaw, up);
          },
          py::arg("joint") = py::none(), py::arg("yaw") = false, py::arg("up") = std::array<float, 3>{0.f, 1.f, 0.f},
          "As Instance.enable_root_motion: the joint's horizontal motion leaves the pose for root_motion().")
      .def(
          "root_motion", [](const GraphPlayer& self) { return motion_dict(self.animator.root_motion()); },
          "The last update's root motion: {'translation': (x, y, z) across the up axis ((x, 0, z) for +Y), 'yaw': radians about it}.")
      .def("__repr__", [](const GraphPlayer& self) {
        const std::string_view state = self.instance.state();
        return "<marrow.GraphInstance of '" + self.model->path() + "'" + (state.empty() ? "" : ", state '" + std::string(state) + "'") + ">";
      });
}

}  // namespace

void bind_graph(py::module_& m) {
  bind_graph_class(m);
  bind_graph_instance_class(m);
  m.def(
      "load_graph",
      [](const py::object& source, const std::shared_ptr<LoadedModel>& model) {
        std::string where;
        const GraphDescription description = description_argument(source, where);
        return Graph{model, make_graph(description, model, where)};
      },
      py::arg("source"), py::arg("model"),
      R"(An animation graph (docs/graph.md) checked against `model`: from a graph file (a path) or
from a dict holding the file's JSON. A malformed file or dict raises LoadError; a graph the
model cannot play (an unknown clip, node or parameter, ...) raises ValueError naming the node and
the field.)");
  // Beside pose(model, ...) and pose(instance): the same dict for a graph instance's pose.
  m.def(
      "pose",
      [](GraphPlayer& self, const std::optional<ClipArg>& clip, const std::optional<double>& time, bool normals) {
        if (clip || time) throw py::value_error("pose(graph_instance) reports the instance's own pose: update it instead");
        PoseReport report = make_pose_report(self.model->model(), self.animator);
        report.graph = describe_graph(self.instance);
        return pose_dict(self.model->path(), report, normals, std::nullopt);
      },
      py::arg("instance"), py::arg("clip") = py::none(), py::arg("time") = py::none(), py::kw_only(), py::arg("normals") = true,
      R"(The dict `marrow pose --graph` prints for a graph instance's current pose: clip, time and
sampledTime are None; "state" and "clip_weights" are the instance's.)");
}

}  // namespace marrow::python
