#include "arguments.hpp"

#include <cmath>

namespace marrow::python {

int animation_index(const Model& model, const ClipArg& clip) {
  if (const long long* index = std::get_if<long long>(&clip)) {
    return static_cast<int>(checked_index(*index, model.animations.size(), "animation"));
  }
  const std::string& name = std::get<std::string>(clip);
  const int found = model.find_animation(name);
  if (found < 0) {
    std::string names;
    for (const ModelAnimation& a : model.animations) names += (names.empty() ? "" : ", ") + ("'" + a.name + "'");
    throw py::key_error("no animation '" + name + "' (the model has " +
                        (names.empty() ? std::string("none") : names) + ")");
  }
  return found;
}

std::size_t checked_index(long long index, std::size_t count, const char* what) {
  if (index < 0 || static_cast<unsigned long long>(index) >= count) {
    throw py::index_error(std::string(what) + " " + std::to_string(index) + " out of range (there are " + std::to_string(count) + ")");
  }
  return static_cast<std::size_t>(index);
}

Ticks checked_ticks(double seconds, const char* what) {
  if (!std::isfinite(seconds)) throw py::value_error(std::string(what) + " must be finite, not " + std::to_string(seconds));
  return ticks_from_seconds(seconds);
}

double checked_time(double seconds, const char* what) {
  if (!std::isfinite(seconds) || seconds < 0.0)
    throw py::value_error(std::string(what) + " must be a finite number of seconds >= 0, not " + std::to_string(seconds));
  return seconds;
}

LoopMode loop_mode_from_name(const std::string& name) {
  if (name == "loop") return LoopMode::Loop;
  if (name == "once") return LoopMode::Once;
  if (name == "pingpong") return LoopMode::PingPong;
  throw py::value_error("loop='" + name + "': use 'loop', 'once' or 'pingpong'");
}

FadeCurve fade_curve_from_name(const std::string& name) {
  if (name == "linear") return FadeCurve::Linear;
  if (name == "smooth") return FadeCurve::Smooth;
  throw py::value_error("curve='" + name + "': use 'linear' or 'smooth'");
}

std::string path_text(const py::object& path) {
  const py::object text = py::module_::import("os").attr("fspath")(path);
  return text.cast<std::string>();
}

}  // namespace marrow::python
