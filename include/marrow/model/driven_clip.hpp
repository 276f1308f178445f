#pragma once
// A clip whose clock and weight its caller runs (an animation graph: graph_instance.hpp), for
// Animator::drive. The Animator samples it at `time`, blends it at `weight` (B2, or B3 when
// additive) under its mask, reports the markers `step` crossed (B7) and moves the character by
// the root motion along `step` (R1).
#include <span>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/playback_clock.hpp"

namespace marrow {

struct DrivenClip {
  int animation = -1;                     // into Model::animations
  float weight = 0.f;                     // finite, >= 0
  Ticks time{};                           // its position in the clip now, in [0, duration]
  std::span<const float> node_weights{};  // a mask per scene node (each finite, >= 0); empty: none
  bool additive = false;                  // a delta from the clip's first frame (B3)
  ClockStep step{};                       // the path since the last update (empty: none); unread at weight 0
};

}  // namespace marrow
