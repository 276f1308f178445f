#pragma once
// Named markers on an animation (B7): a footstep, a hit frame, a sound cue. Attach them in
// code to the model before its instances are created; every Animator reports the markers its
// playback crosses, in order, from update() (Animator::events()). Markers live in memory only:
// glTF and the native format do not store them.
#include <string>
#include <string_view>

#include "marrow/core/ticks.hpp"

namespace marrow {

struct AnimationMarker {
  Ticks time{};
  std::string name;
};

struct Model;

// Adds a marker at `time` to the animation named `animation`, keeping the markers sorted by
// time (equal times keep insertion order). Throws std::out_of_range for an unknown animation
// and std::invalid_argument for a time outside [0, duration], or an empty name.
void add_marker(Model& model, std::string_view animation, std::string_view name, Ticks time);

// What Animator::update() reports for each marker crossed.
struct AnimationEvent {
  std::string_view name;   // the marker's name (lives in the Model)
  int animation = -1;      // index into Model::animations
  std::size_t layer = 0;
  Ticks time{};            // the marker's time in the clip
  float weight = 0.f;      // the playing clip's weight at that update (layer * fade)
};

}  // namespace marrow
