#pragma once
// The parts of the marrow._marrow extension; module.cpp binds them in order (docs/python.md).
#include <pybind11/pybind11.h>

namespace marrow::python {

namespace py = pybind11;

void bind_errors(py::module_& m);    // error_translation.cpp: ImportError -> marrow.LoadError
void bind_model(py::module_& m);     // model_binding.cpp: load(), Model
void bind_instance(py::module_& m);  // instance_binding.cpp: Instance (an Animator)
void bind_pose(py::module_& m);      // pose_binding.cpp: pose()
void bind_sample(py::module_& m);    // sample_binding.cpp: sample()
void bind_render(py::module_& m);    // render_binding.cpp: render()
void bind_convert(py::module_& m);   // convert_binding.cpp: convert()
void bind_retarget(py::module_& m);  // retarget_binding.cpp: retarget()
void bind_graph(py::module_& m);
void bind_motion(py::module_& m);    // motion_binding.cpp: MotionDatabase     // graph_binding.cpp: load_graph(), Graph, GraphInstance, pose(graph instance)

}  // namespace marrow::python
