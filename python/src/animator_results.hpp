#pragma once
// What an Animator reports after an update, as Python values: shared by Instance and
// GraphInstance, which both pose through one (instance_binding.cpp, graph_binding.cpp).
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

}  // namespace marrow::python
