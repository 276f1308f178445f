// C++ exceptions as Python ones. pybind11 already maps std::invalid_argument to ValueError,
// std::out_of_range to IndexError (the bindings raise KeyError themselves where a name is
// looked up) and other std::exceptions to RuntimeError; a refused file (marrow::ImportError)
// becomes marrow.LoadError(code, message), the class the package defines in Python.
#include <exception>
#include <string>

#include "bindings.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::python {

void bind_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const ImportError& e) {
      try {
        // Looked up when raised: the package defines LoadError before it imports this module.
        const py::object load_error = py::module_::import("marrow").attr("LoadError");
        const py::object error = load_error(std::string(to_string(e.code())), e.detail());
        PyErr_SetObject(load_error.ptr(), error.ptr());
      } catch (const py::error_already_set&) {
        PyErr_SetString(PyExc_RuntimeError, e.what());  // marrow._marrow imported on its own
      }
    }
  });
}

}  // namespace marrow::python
