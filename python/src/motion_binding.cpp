// Motion matching from Python (docs/python.md): MotionDatabase, the searchable frames
// (model/motion_database.hpp) of one or more models of one rig, kept alive by the database
// object; MotionMatcher, one character's controller (model/motion_matcher.hpp) on a database
// or on a model loaded from `marrow match build`'s file.
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "loaded_model.hpp"
#include "marrow/model/motion_database.hpp"
#include "marrow/model/motion_matcher.hpp"
#include "numpy_arrays.hpp"

namespace marrow::python {

namespace {

struct Database {
  std::vector<std::shared_ptr<LoadedModel>> models;
  std::unique_ptr<MotionDatabase> db;
  std::unique_ptr<MotionClips> clips;  // the matchers' clips, made by the first MotionMatcher
};

// A character: the clips it plays (the database's, or its own for a loaded model) and the
// Python object that owns what they read.
struct Matcher {
  py::object source;
  std::unique_ptr<MotionClips> own_clips;
  std::unique_ptr<MotionMatcher> matcher;
};

glm::vec3 vec3_of(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }
py::tuple tuple_of(const glm::vec3& v) { return py::make_tuple(v.x, v.y, v.z); }

std::vector<std::shared_ptr<LoadedModel>> model_list(const py::object& models) {
  if (py::isinstance<LoadedModel>(models)) return {models.cast<std::shared_ptr<LoadedModel>>()};
  std::vector<std::shared_ptr<LoadedModel>> out;
  for (const py::handle item : models) {
    if (!py::isinstance<LoadedModel>(item)) throw py::type_error("MotionDatabase: models must be a Model or a list of Models");
    out.push_back(item.cast<std::shared_ptr<LoadedModel>>());
  }
  if (out.empty()) throw py::value_error("MotionDatabase: no model");
  return out;
}

std::array<float, kMotionFeatures> query_of(const py::array_t<float, py::array::c_style | py::array::forcecast>& query) {
  if (query.ndim() != 1 || static_cast<std::size_t>(query.shape(0)) != kMotionFeatures)
    throw py::value_error("MotionDatabase: a query is " + std::to_string(kMotionFeatures) + " floats (the columns of db.features())");
  std::array<float, kMotionFeatures> q{};
  for (std::size_t c = 0; c < kMotionFeatures; ++c) {
    q[c] = query.at(static_cast<py::ssize_t>(c));
    if (!std::isfinite(q[c])) throw py::value_error("MotionDatabase: query value " + std::to_string(c) + " is not finite");
  }
  return q;
}

MotionExclusion exclusion_of(const Database& self, const std::optional<std::pair<long long, long long>>& exclude) {
  if (!exclude) return {};
  const std::size_t row = checked_index(exclude->first, self.db->size(), "MotionDatabase: exclude row");
  if (exclude->second < 0) throw py::value_error("MotionDatabase: exclude frames " + std::to_string(exclude->second) + " is negative");
  return MotionExclusion{row, static_cast<std::size_t>(exclude->second)};
}

void bind_motion_matcher(py::module_& m);

}  // namespace

void bind_motion(py::module_& m) {
  py::class_<Database>(m, "MotionDatabase", R"(Motion matching's database (docs/python.md): every frame of the clips of
one rig sampled at `rate`, described by 27 normalized features.)")
      .def(py::init([](const py::object& models, const std::optional<std::vector<std::string>>& clips, double rate,
                       const std::optional<std::vector<float>>& weights, bool mirror) {
             auto self = std::make_unique<Database>();
             self->models = model_list(models);
             std::vector<const Model*> pointers;
             for (const auto& loaded : self->models) pointers.push_back(&loaded->model());
             MotionDatabaseOptions options;
             options.rate = rate;
             options.mirror = mirror;
             if (clips) options.clips = *clips;
             if (weights) {
               if (weights->size() != kMotionGroups)
                 throw py::value_error("MotionDatabase: weights are " + std::to_string(kMotionGroups) +
                                       " (foot positions, foot velocities, hip velocity, trajectory positions, trajectory directions)");
               std::copy(weights->begin(), weights->end(), options.weights.begin());
             }
             self->db = std::make_unique<MotionDatabase>(pointers, options);
             return self;
           }),
           py::arg("models"), py::arg("clips") = py::none(), py::arg("rate") = 60.0, py::arg("weights") = py::none(),
           py::arg("mirror") = false)
      .def("__len__", [](const Database& self) { return self.db->size(); })
      .def(
          "features",
          [](const Database& self) {
            py::array_t<float> out({static_cast<py::ssize_t>(self.db->size()), static_cast<py::ssize_t>(kMotionFeatures)});
            float* o = out.mutable_data();
            for (std::size_t r = 0; r < self.db->size(); ++r) o = std::copy_n(self.db->row(r).data(), kMotionFeatures, o);
            return out;
          },
          "numpy (candidates, 27) float32, normalized; row i is candidate frame i.")
      .def(
          "frame_of",
          [](const Database& self, long long index) {
            const std::size_t row = checked_index(index, self.db->size(), "MotionDatabase: row");
            return py::make_tuple(self.db->range_of(row).name, seconds_from_ticks(self.db->time_of(row)));
          },
          py::arg("row"), "(clip name, time in seconds) of a row; a mirrored clip's name ends in ' (mirrored)'.")
      .def(
          "mirror_of",
          [](const Database& self, long long index) {
            return self.db->mirror_of(checked_index(index, self.db->size(), "MotionDatabase: row"));
          },
          py::arg("row"), "The row of the same frame mirrored (MM5; mirror=True), or the row itself without mirroring.")
      .def(
          "search",
          [](const Database& self, const py::array_t<float, py::array::c_style | py::array::forcecast>& query,
             const std::optional<std::pair<long long, long long>>& exclude) {
            const MotionMatch match = self.db->search(query_of(query), exclusion_of(self, exclude));
            return py::make_tuple(match.row, match.cost);
          },
          py::arg("query"), py::arg("exclude") = py::none(),
          "(index, cost): the row nearest the normalized query (squared Euclidean distance), by the accelerated search; "
          "exclude: None, or (index, frames) to skip rows within that many frames of index in its clip.")
      .def(
          "brute_force",
          [](const Database& self, const py::array_t<float, py::array::c_style | py::array::forcecast>& query) {
            const MotionMatch match = self.db->brute_force(query_of(query));
            return py::make_tuple(match.row, match.cost);
          },
          py::arg("query"), "(index, cost): every row tried.")
      .def_property_readonly("rate", [](const Database& self) { return self.db->rate(); });
  bind_motion_matcher(m);
}

namespace {

std::unique_ptr<Matcher> make_matcher(const py::object& source, bool foot_lock, float search_interval) {
  auto self = std::make_unique<Matcher>();
  self->source = source;
  const MotionClips* clips = nullptr;
  if (py::isinstance<Database>(source)) {
    Database& db = source.cast<Database&>();
    if (!db.clips) {
      std::vector<const Model*> pointers;
      for (const auto& loaded : db.models) pointers.push_back(&loaded->model());
      db.clips = std::make_unique<MotionClips>(*db.db, pointers);
    }
    clips = db.clips.get();
  } else if (py::isinstance<LoadedModel>(source)) {
    self->own_clips = std::make_unique<MotionClips>(source.cast<LoadedModel&>().model());  // ValueError without a database
    clips = self->own_clips.get();
  } else {
    throw py::type_error("MotionMatcher: source is a MotionDatabase or a Model loaded from marrow match build's file");
  }
  self->matcher = std::make_unique<MotionMatcher>(*clips, MotionMatcherOptions{.search_interval = search_interval, .foot_lock = foot_lock});
  return self;
}

void bind_motion_matcher(py::module_& m) {
  py::class_<Matcher>(m, "MotionMatcher", R"(One character's motion-matching controller (docs/python.md): a gamepad's
desired velocity in, the database's frames played with inertialized switches out.)")
      .def(py::init(&make_matcher), py::arg("source"), py::kw_only(), py::arg("foot_lock") = true, py::arg("search_interval") = 0.1f,
           "source: a MotionDatabase (of models in metres) or a Model loaded from `marrow match build`'s file.")
      .def(
          "reset",
          [](Matcher& self, long long row, const std::array<float, 3>& position, float yaw) {
            self.matcher->reset(checked_index(row, self.matcher->clips().database().size(), "MotionMatcher: row"), vec3_of(position), yaw);
          },
          py::arg("row") = 0, py::arg("position") = std::array<float, 3>{0.f, 0.f, 0.f}, py::arg("yaw") = 0.f,
          "Plays `row` at once, the character at `position` facing `yaw` (radians about +Y, 0 = +Z).")
      .def(
          "update",
          [](Matcher& self, float dt, const std::array<float, 3>& velocity, const std::optional<std::array<float, 3>>& facing) {
            self.matcher->update(dt, {vec3_of(velocity), facing ? vec3_of(*facing) : glm::vec3(0.f)});
          },
          py::arg("dt"), py::arg("velocity"), py::arg("facing") = py::none(),
          "One frame of dt seconds: the desired velocity (world, m/s, y ignored) and facing (None: along the velocity).")
      .def(
          "world_transforms",
          [](const Matcher& self) {
            const std::span<const glm::mat4> locals = self.matcher->animator().absolute_bone_transforms();
            py::array_t<float> out({static_cast<py::ssize_t>(locals.size()), py::ssize_t{4}, py::ssize_t{4}});
            float* o = out.mutable_data();
            for (std::size_t i = 0; i < locals.size(); ++i) store_row_major(self.matcher->world() * locals[i], o + 16 * i);
            return out;
          },
          "numpy (nodes, 4, 4) float32: every node's transform in the world this frame ([row, column]).")
      .def("node_names", [](const Matcher& self) {
            std::vector<std::string> names;
            for (const ModelNode& n : self.matcher->clips().model().nodes) names.push_back(n.name);
            return names;
          }, "The nodes' names, in world_transforms()' order.")
      .def("row", [](const Matcher& self) { return self.matcher->row(); }, "The database row of the pose shown.")
      .def("frame", [](const Matcher& self) {
            const MotionDatabase& db = self.matcher->clips().database();
            return py::make_tuple(db.range_of(self.matcher->row()).name, seconds_from_ticks(db.time_of(self.matcher->row())));
          }, "(clip name, seconds) of row().")
      .def("position", [](const Matcher& self) { return tuple_of(self.matcher->position()); }, "The character's position (world, m).")
      .def("yaw", [](const Matcher& self) { return self.matcher->yaw(); }, "The character's facing (radians about +Y, 0 = +Z).")
      .def("simulation_position", [](const Matcher& self) { return tuple_of(self.matcher->simulation_position()); },
           "The desired (simulated) position the character is pulled toward.")
      .def("foot_locked", [](const Matcher& self, long long foot) {
            return self.matcher->foot_locked(checked_index(foot, 2, "MotionMatcher: foot (0 left, 1 right)"));
          }, py::arg("foot"))
      .def_property_readonly("searches", [](const Matcher& self) { return self.matcher->searches(); })
      .def_property_readonly("switches", [](const Matcher& self) { return self.matcher->switches(); });
}

}  // namespace

}  // namespace marrow::python
