// The extension module marrow._marrow; the package marrow (python/marrow/__init__.py) re-exports
// its names. Model and Instance first: the functions' signatures name them.
#include "bindings.hpp"

PYBIND11_MODULE(_marrow, m) {
  using namespace marrow::python;
  m.doc() = "marrow's C++ core; import marrow, not this module (docs/python.md)";
  bind_errors(m);
  bind_model(m);
  bind_instance(m);
  bind_pose(m);
  bind_sample(m);
  bind_render(m);
  bind_convert(m);
  bind_retarget(m);
  bind_graph(m);  // after bind_pose: it adds pose(graph_instance) to pose's overloads
  bind_motion(m);
  // Users meet the classes as marrow.Model, ... (the package re-exports them).
  for (const char* name : {"Model", "Instance", "Graph", "GraphInstance", "MotionDatabase"}) m.attr(name).attr("__module__") = "marrow";
}
