// MotionDatabase: motion matching's searchable frames (model/motion_database.hpp, docs/python.md)
// built from one or more models of one rig, kept alive by the database object.
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

#include "bindings.hpp"
#include "loaded_model.hpp"
#include "marrow/model/motion_database.hpp"

namespace marrow::python {

namespace {

struct Database {
  std::vector<std::shared_ptr<LoadedModel>> models;
  std::unique_ptr<MotionDatabase> db;
};

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

MotionExclusion exclusion_of(const Database& self, const std::optional<std::pair<std::size_t, std::size_t>>& exclude) {
  if (!exclude) return {};
  if (exclude->first >= self.db->size())
    throw py::index_error("MotionDatabase: exclude row " + std::to_string(exclude->first) + " of " + std::to_string(self.db->size()));
  return MotionExclusion{exclude->first, exclude->second};
}

}  // namespace

void bind_motion(py::module_& m) {
  py::class_<Database>(m, "MotionDatabase", R"(Motion matching's database (docs/python.md): every frame of the clips of
one rig sampled at `rate`, described by 27 normalized features.)")
      .def(py::init([](const py::object& models, const std::optional<std::vector<std::string>>& clips, double rate,
                       const std::optional<std::vector<float>>& weights) {
             auto self = std::make_unique<Database>();
             self->models = model_list(models);
             std::vector<const Model*> pointers;
             for (const auto& loaded : self->models) pointers.push_back(&loaded->model());
             MotionDatabaseOptions options;
             options.rate = rate;
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
           py::arg("models"), py::arg("clips") = py::none(), py::arg("rate") = 60.0, py::arg("weights") = py::none())
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
          [](const Database& self, std::size_t row) {
            if (row >= self.db->size()) throw py::index_error("MotionDatabase: row " + std::to_string(row) + " of " + std::to_string(self.db->size()));
            return py::make_tuple(self.db->range_of(row).name, seconds_from_ticks(self.db->time_of(row)));
          },
          py::arg("row"), "(clip name, time in seconds) of a row.")
      .def(
          "search",
          [](const Database& self, const py::array_t<float, py::array::c_style | py::array::forcecast>& query,
             const std::optional<std::pair<std::size_t, std::size_t>>& exclude) {
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
}

}  // namespace marrow::python
