#pragma once
// What an Animator reports after an update, as Python values: shared by Instance and
// GraphInstance, which both pose through one (instance_binding.cpp, graph_binding.cpp).
#include <array>
#include <optional>
#include <stdexcept>
#include <string>

#include <pybind11/pybind11.h>

#include "marrow/model/animator.hpp"
#include "marrow/model/root_motion.hpp"

namespace marrow::python {

namespace py = pybind11;

// The markers the last update crossed, in order: dicts of name, animation (its name), layer
// (a graph's clip slot), time (the marker's, seconds) and weight (the clip's weight).
py::list events_list(const Animator& animator);

// {'translation': (x, y, z), 'yaw': radians}.
py::dict motion_dict(const RootMotion& motion);

// Lookups by name (a node, a parameter) throw std::out_of_range in C++: a KeyError in Python.
template <class F>
auto by_name(F&& call) {
  try {
    return call();
  } catch (const std::out_of_range& e) {
    throw py::key_error(e.what());
  }
}

// Animator::enable_root_motion for a node name (None: the first skin's root joint) and an up axis.
void enable_root_motion(Animator& animator, const std::optional<std::string>& joint, bool yaw, const std::array<float, 3>& up);

}  // namespace marrow::python
