#include "marrow/model/animation_marker.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "marrow/model/model.hpp"

namespace marrow {

void add_marker(Model& model, std::string_view animation, std::string_view name, Ticks t) {
  const int index = model.find_animation(animation);
  if (index < 0) throw std::out_of_range("add_marker: no animation named '" + std::string(animation) + "'");
  ModelAnimation& anim = model.animations[static_cast<std::size_t>(index)];
  if (name.empty()) throw std::invalid_argument("add_marker: the marker's name is empty");
  if (t < Ticks{0} || t > anim.duration) {
    throw std::invalid_argument("add_marker: time " + std::to_string(seconds_from_ticks(t)) + " s of marker '" + std::string(name) +
                                "' is outside animation '" + anim.name + "' (0 to " +
                                std::to_string(seconds_from_ticks(anim.duration)) + " s)");
  }
  const auto at = std::upper_bound(anim.markers.begin(), anim.markers.end(), t,
                                   [](Ticks time, const AnimationMarker& m) { return time < m.time; });
  anim.markers.insert(at, AnimationMarker{t, std::string(name)});
}

}  // namespace marrow
