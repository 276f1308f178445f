#pragma once
// Python arguments into marrow's types, with Python's errors: IndexError for an index outside
// its range, KeyError for an unknown name, ValueError for a value marrow cannot use. The
// messages name the argument and what the model has.
#include <cstddef>
#include <optional>
#include <string>
#include <variant>

#include <glm/vec3.hpp>
#include <pybind11/pybind11.h>

#include "marrow/core/ticks.hpp"
#include "marrow/model/model.hpp"
#include "marrow/model/play_options.hpp"

namespace marrow::python {

namespace py = pybind11;

// An animation by index or by name, as every clip= argument takes it.
using ClipArg = std::variant<long long, std::string>;

// Its index in model.animations (IndexError, KeyError).
int animation_index(const Model& model, const ClipArg& clip);

// index as a position in [0, count) (IndexError naming `what` and count).
std::size_t checked_index(long long index, std::size_t count, const char* what);

// Seconds (finite: ValueError naming `what`) as Ticks.
Ticks checked_ticks(double seconds, const char* what);
// A time in a clip: seconds finite and >= 0 (ValueError naming `what`), as the command line's --time.
double checked_time(double seconds, const char* what);

// "loop", "once", "pingpong" (ValueError otherwise).
LoopMode loop_mode_from_name(const std::string& name);
// "linear", "smooth" (ValueError otherwise).
FadeCurve fade_curve_from_name(const std::string& name);

// A path argument (str, bytes or os.PathLike) as the text the caller gave.
std::string path_text(const py::object& path);

}  // namespace marrow::python
