// Instance: one posed copy of a model, with layered playback (layers, cross-fades, masks,
// additive layers, events, root motion, IK) over marrow::Animator (docs/animation.md), and its
// results as numpy arrays (numpy_arrays.hpp: what is a view, what is a copy).
#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "animator_results.hpp"
#include "arguments.hpp"
#include "bindings.hpp"
#include "instance.hpp"
#include "numpy_arrays.hpp"

namespace marrow::python {

namespace {

glm::vec3 vec3(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }
py::tuple tuple3(const glm::vec3& v) { return py::make_tuple(v.x, v.y, v.z); }

const std::string& node_name(const Model& model, int node) { return model.nodes[static_cast<std::size_t>(node)].name; }

py::dict two_bone_dict(const Model& model, const TwoBoneIkChain& c) {
  py::dict d;
  d["start"] = node_name(model, c.start);
  d["mid"] = node_name(model, c.mid);
  d["end"] = node_name(model, c.end);
  d["target"] = tuple3(c.target);
  d["pole"] = c.pole ? py::object(tuple3(*c.pole)) : py::object(py::none());
  d["weight"] = c.weight;
  d["soften"] = c.soften;
  d["reached"] = c.reached;
  return d;
}

py::dict aim_dict(const Model& model, const AimIkChain& c) {
  py::dict d;
  d["node"] = node_name(model, c.node);
  d["target"] = tuple3(c.target);
  d["forward"] = tuple3(c.forward);
  d["up"] = tuple3(c.up);
  d["offset"] = tuple3(c.offset);
  d["pole"] = tuple3(c.pole);
  d["weight"] = c.weight;
  d["reached"] = c.reached;
  return d;
}

const ModelMeshPart& part_of(const Model& model, long long mesh, long long part) {
  const ModelMesh& m = model.meshes[checked_index(mesh, model.meshes.size(), "mesh")];
  return m.parts[checked_index(part, m.parts.size(), "part")];
}

std::size_t layer_index(long long layer) { return checked_index(layer, Animator::kMaxLayers, "layer"); }

std::string describe(const Instance& self) {
  std::string playing;
  for (std::size_t l = 0; l < self.animator.layer_count(); ++l) {
    const int a = self.animator.current_animation(l);
    if (a < 0) continue;
    playing += (playing.empty() ? "" : ", ") + std::to_string(l) + ": '" +
               self.model->model().animations[static_cast<std::size_t>(a)].name + "'";
  }
  return "<marrow.Instance of '" + self.model->path() + "'" + (playing.empty() ? "" : ", playing " + playing) + ">";
}

}  // namespace

void bind_instance(py::module_& m) {
  py::class_<Instance>(m, "Instance", R"(One posed copy of a model (a marrow::Animator): its own clips,
layers, clocks, pose and vertices. Made by Model.instance() or Instance(model); keeps the model
alive.)")
      .def(py::init([](const std::shared_ptr<LoadedModel>& model) { return std::make_unique<Instance>(model); }),
           py::arg("model"), "A new instance of model in the loaded pose (as Model.instance()).")
      .def_property_readonly("model", [](const Instance& self) { return self.model; }, "The Model it poses.")
      .def(
          "play",
          [](Instance& self, const std::optional<ClipArg>& clip, double fade, long long layer, float rate,
             const std::string& loop, double start, int sync_group, const std::string& curve) {
            PlayOptions options;
            options.fade = checked_ticks(fade, "play: fade");
            options.curve = fade_curve_from_name(curve);
            options.rate = rate;
            options.loop = loop_mode_from_name(loop);
            options.start = checked_ticks(start, "play: start");
            options.layer = layer_index(layer);
            options.sync_group = sync_group;
            self.animator.play(clip ? animation_index(self.model->model(), *clip) : -1, options);
          },
          py::arg("clip"), py::kw_only(), py::arg("fade") = 0.0, py::arg("layer") = 0, py::arg("rate") = 1.f,
          py::arg("loop") = "loop", py::arg("start") = 0.0, py::arg("sync_group") = -1, py::arg("curve") = "linear",
          R"(Plays an animation (name or index; None: nothing) on a layer, cross-fading over `fade`
seconds from what the layer played. rate: signed speed; loop: "loop", "once" or "pingpong";
start: seconds into the clip; sync_group >= 0: follow the group's normalized time;
curve: "linear" or "smooth" fade.)")
      .def(
          "stop", [](Instance& self, long long layer, double fade) {
            self.animator.stop(layer_index(layer), checked_ticks(fade, "stop: fade"));
          },
          py::arg("layer") = 0, py::arg("fade") = 0.0, "Fades a layer out over `fade` seconds (0: at once).")
      .def(
          "update",
          [](Instance& self, double seconds, bool relative, bool loop) {
            self.animator.update(checked_ticks(seconds, "update: seconds"), relative, loop);
          },
          py::arg("seconds"), py::arg("relative") = true, py::arg("loop") = true,
          R"(Advances every playing clip by `seconds` (times its rate), or seeks them to it when
relative is False; loop=False clamps this update as "once" would. Then poses the instance.)")
      .def(
          "set_layer",
          [](Instance& self, long long layer, float weight, const std::optional<std::string>& mask, bool additive) {
            by_name([&] {
              self.animator.set_layer(layer_index(layer), LayerOptions{weight, mask.value_or(""), additive});
              return 0;
            });
          },
          py::arg("layer"), py::kw_only(), py::arg("weight") = 1.f, py::arg("mask") = py::none(),
          py::arg("additive") = false,
          R"(Sets a layer's weight, its mask (a node name: that node's subtree only; None: everywhere)
and whether its clips add their change since their first frame (additive). Every setting is
replaced: set_layer(1, weight=0.5) also clears a mask.)")
      .def(
          "set_layer_weight", [](Instance& self, long long layer, float weight) { self.animator.set_layer_weight(layer_index(layer), weight); },
          py::arg("layer"), py::arg("weight"))
      .def(
          "set_layer_mask",
          [](Instance& self, long long layer, const std::optional<std::vector<float>>& weights) {
            const std::vector<float> w = weights.value_or(std::vector<float>{});
            self.animator.set_layer_mask(layer_index(layer), w);
          },
          py::arg("layer"), py::arg("weights"),
          "Per-bone mask weights (one per bone of info()['bones'], each >= 0); None clears it.")
      .def(
          "set_rate", [](Instance& self, long long layer, float rate) { self.animator.set_rate(layer_index(layer), rate); },
          py::arg("layer"), py::arg("rate"), "Changes the rate of the clip a layer plays, keeping its position.")
      .def_property_readonly("layer_count", [](const Instance& self) { return self.animator.layer_count(); })
      .def(
          "current_animation",
          [](const Instance& self, long long layer) -> py::object {
            const int a = self.animator.current_animation(layer_index(layer));
            if (a < 0) return py::none();
            return py::str(self.model->model().animations[static_cast<std::size_t>(a)].name);
          },
          py::arg("layer") = 0, "The name of the animation a layer plays (the one fading in), or None.")
      .def(
          "current_time", [](const Instance& self, long long layer) { return seconds_from_ticks(self.animator.current_time(layer_index(layer))); },
          py::arg("layer") = 0, "The clock of the clip a layer plays, in seconds (0 when none).")
      .def(
          "finished", [](const Instance& self, long long layer) { return self.animator.finished(layer_index(layer)); },
          py::arg("layer") = 0, "True once a loop=\"once\" clip has reached its end in its play direction.")
      .def(
          "events",
          [](const Instance& self) { return events_list(self.animator); },
          R"(The markers (Model.add_marker) the last update crossed, in order: dicts of name,
animation (its name), layer, time (the marker's, seconds) and weight (the clip's weight).)")
      .def_property_readonly("events_dropped", [](const Instance& self) { return self.animator.events_dropped(); })
      .def(
          "enable_root_motion",
          [](Instance& self, const std::optional<std::string>& joint, bool yaw, const std::array<float, 3>& up) {
            enable_root_motion(self.animator, joint, yaw, up);
          },
          py::arg("joint") = py::none(), py::arg("yaw") = false, py::arg("up") = std::array<float, 3>{0.f, 1.f, 0.f},
          R"(Takes a joint's horizontal motion (and its yaw, when asked) out of the pose, to move the
character by instead (root_motion()). joint: a node name; None: the first skin's root joint.
up: the scene's up axis, (0, 1, 0) for glTF, (0, 0, 1) for a Z-up file: the motion is what lies
across it, the yaw the turn about it. ValueError when it is zero or not finite.)")
      .def("disable_root_motion", [](Instance& self) { self.animator.disable_root_motion(); })
      .def(
          "bounds",
          [](Instance& self) -> py::object {
            const BoundingBox box = self.animator.bounds();
            if (box.empty) return py::none();
            return py::make_tuple(py::make_tuple(box.min.x, box.min.y, box.min.z),
                                  py::make_tuple(box.max.x, box.max.y, box.max.z));
          },
          R"(This frame's box (Animator::bounds, S5): ((min x, y, z), (max x, y, z)) holding every posed
vertex of every mesh, in the space positions() uses; None for a model without vertices. It costs
O(joints) for linearly skinned meshes (per-joint boxes made at load), for culling each frame.)")
      .def(
          "root_motion", [](const Instance& self) { return motion_dict(self.animator.root_motion()); },
          "The last update's root motion: {'translation': (x, y, z) in scene space, across the up axis ((x, 0, z) for +Y), 'yaw': radians about it}.")
      .def(
          "accumulated_root_motion", [](const Instance& self) { return motion_dict(self.animator.accumulated_root_motion()); },
          "The sum of root_motion() since root motion was enabled (or play() on layer 0).")
      .def(
          "root_motion_offset", [](const Instance& self) { return motion_dict(self.animator.root_motion_offset()); },
          "The motion taken out of the current pose (the playing clips' motion since their time 0).")
      .def_property_readonly(
          "root_motion_joint",
          [](const Instance& self) -> py::object {
            const int node = self.animator.root_motion_node();
            if (node < 0) return py::none();
            return py::str(node_name(self.model->model(), node));
          },
          "The node whose motion is extracted, None when root motion is off.")
      .def(
          "add_two_bone_ik",
          [](Instance& self, const std::string& start, const std::string& mid, const std::string& end) {
            return by_name([&] { return self.animator.add_two_bone_ik(start, mid, end); });
          },
          py::arg("start"), py::arg("mid"), py::arg("end"),
          "Adds a two-bone IK chain (node names, parent -> child -> grandchild), off until\n"
          "set_two_bone_ik gives it a weight. Returns the chain's number.")
      .def(
          "set_two_bone_ik",
          [](Instance& self, std::size_t chain, const std::array<float, 3>& target, float weight,
             const std::optional<std::array<float, 3>>& pole, float soften) {
            self.animator.set_two_bone_ik(chain, vec3(target), weight,
                                          pole ? std::optional<glm::vec3>(vec3(*pole)) : std::nullopt, soften);
          },
          py::arg("chain"), py::arg("target"), py::arg("weight") = 1.f, py::arg("pole") = py::none(),
          py::arg("soften") = 1.f,
          "The chain's target (model space), weight in [0, 1], pole (the point the middle joint bends\n"
          "towards) and soften in (0, 1]; the next update applies it.")
      .def(
          "two_bone_ik", [](const Instance& self, std::size_t chain) { return two_bone_dict(self.model->model(), self.animator.two_bone_ik(chain)); },
          py::arg("chain"), "A chain's settings and whether the last update reached its target.")
      .def(
          "add_aim_ik",
          [](Instance& self, const std::string& node, const std::array<float, 3>& forward, const std::array<float, 3>& up,
             const std::array<float, 3>& offset) {
            return by_name([&] { return self.animator.add_aim_ik(node, vec3(forward), vec3(up), vec3(offset)); });
          },
          py::arg("node"), py::arg("forward") = std::array<float, 3>{0.f, 0.f, 1.f},
          py::arg("up") = std::array<float, 3>{0.f, 1.f, 0.f}, py::arg("offset") = std::array<float, 3>{0.f, 0.f, 0.f},
          "Adds an aim chain: the node's forward axis (node space) turns towards a target.")
      .def(
          "set_aim_ik",
          [](Instance& self, std::size_t chain, const std::array<float, 3>& target, float weight,
             const std::array<float, 3>& pole) { self.animator.set_aim_ik(chain, vec3(target), weight, vec3(pole)); },
          py::arg("chain"), py::arg("target"), py::arg("weight") = 1.f,
          py::arg("pole") = std::array<float, 3>{0.f, 1.f, 0.f})
      .def(
          "aim_ik", [](const Instance& self, std::size_t chain) { return aim_dict(self.model->model(), self.animator.aim_ik(chain)); },
          py::arg("chain"))
      .def(
          "positions",
          [](Instance& self, long long mesh, long long part, const py::object& out) {
            const std::size_t n = part_of(self.model->model(), mesh, part).vertex_count();
            py::array_t<float> positions = checked_vec3_out(out, n, "positions");
            self.animator.pose_part(static_cast<std::size_t>(mesh), static_cast<std::size_t>(part), vec3_span(positions));
            return positions;
          },
          py::arg("mesh") = 0, py::arg("part") = 0, py::kw_only(), py::arg("out") = py::none(),
          R"(A part's vertex positions in model (scene) space after morphing and skinning: float32
(N, 3), in marrow's vertex order (mesh i is info()['meshes'][i]). A new array each call, or
written into `out`.)")
      .def(
          "normals",
          [](Instance& self, long long mesh, long long part, const py::object& out) {
            const ModelMeshPart& data = part_of(self.model->model(), mesh, part);
            if (!data.layout.has(VertexAttribute::Normal)) {
              throw py::value_error("mesh " + std::to_string(mesh) + " part " + std::to_string(part) + " has no normals");
            }
            const std::size_t n = data.vertex_count();
            py::array_t<float> normals = checked_vec3_out(out, n, "normals");
            std::vector<glm::vec3> positions(n);
            self.animator.pose_part(static_cast<std::size_t>(mesh), static_cast<std::size_t>(part), positions,
                                    vec3_span(normals));
            return normals;
          },
          py::arg("mesh") = 0, py::arg("part") = 0, py::kw_only(), py::arg("out") = py::none(),
          "Like positions(), the posed unit normals (ValueError for a part without normals).")
      .def(
          "joint_matrices",
          [](const py::object& self_object, long long skin) {
            const auto& self = self_object.cast<const Instance&>();
            const std::size_t s = checked_index(skin, self.model->model().skins.size(), "skin");
            return matrix_view(self.animator.player(s).skin_transforms(), self_object);
          },
          py::arg("skin") = 0,
          R"(The skin's palette, one matrix per joint in palette order (Model.joint_names(skin)):
world * inverse bind, the glTF joint matrix. A read-only live view of the instance's memory,
(J, 4, 4) float32 [joint, row, column]: the next update changes it (np.array() it to keep a
frame); it keeps the instance alive.)")
      .def(
          "world_transforms",
          [](const py::object& self_object) {
            const auto& self = self_object.cast<const Instance&>();
            return matrix_view(self.animator.absolute_bone_transforms(), self_object);
          },
          "Every bone's model-space transform (bone i: info()['bones'][i]); a live view like joint_matrices().")
      .def(
          "local_transforms",
          [](const py::object& self_object) {
            const auto& self = self_object.cast<const Instance&>();
            return matrix_view(self.animator.bone_transforms(), self_object);
          },
          "Every bone's transform relative to its parent; a live view like joint_matrices().")
      .def(
          "morph_weights",
          [](const py::object& self_object, long long mesh) {
            const auto& self = self_object.cast<const Instance&>();
            const std::size_t m = checked_index(mesh, self.model->model().meshes.size(), "mesh");
            return float_view(self.animator.morph_weights(m), self_object);
          },
          py::arg("mesh") = 0, "A mesh's current morph weights; a live view like joint_matrices().")
      .def("__repr__", &describe);

  // Model.instance() is bound here, where the Instance type is known.
  py::reinterpret_borrow<py::class_<LoadedModel, std::shared_ptr<LoadedModel>>>(m.attr("Model"))
      .def(
          "instance", [](const std::shared_ptr<LoadedModel>& self) { return std::make_unique<Instance>(self); },
          "A new instance in the loaded pose (nothing playing). Instances share the model's\n"
          "compiled clips; each holds its own pose.");
}

}  // namespace marrow::python
