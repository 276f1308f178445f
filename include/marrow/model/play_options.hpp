#pragma once
// How an Animator plays a clip on a layer, and what a layer is (B2-B6).
//
// Times are Ticks, the model layer's one time type (std::chrono: 250ms converts exactly).
//
//   using namespace std::chrono_literals;
//   animator.play("Run", {.fade = 250ms});                       // cross-fade on the base layer
//   animator.set_layer(1, {.mask = "Spine"});                    // upper body only
//   animator.play("Wave", {.layer = 1});
//   animator.set_layer(2, {.weight = 0.5f, .additive = true});   // a breath on top of it all
//   animator.play("Breathe", {.layer = 2});
#include <cstddef>
#include <string>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/playback_clock.hpp"

namespace marrow {

// How a cross-fade's progress u = elapsed / fade becomes the new clip's weight (B4).
enum class FadeCurve : unsigned char {
  Linear,  // u
  Smooth,  // 3u^2 - 2u^3: starts and ends gently
};

// How play() leaves what a layer played: a cross-fade over `fade` (B4), or at once with the
// whole pose's difference decaying over `fade` (AG4, Animator::inertialize).
enum class Transition : unsigned char { Crossfade, Inertialize };

struct PlayOptions {
  Ticks fade{};                        // to cross-fade from what the layer played (B4); >= 0
  FadeCurve curve = FadeCurve::Linear;
  Transition transition = Transition::Crossfade;
  float rate = 1.f;                   // signed playback speed (B5); finite
  LoopMode loop = LoopMode::Loop;     // B5
  Ticks start{};                       // into the clip
  std::size_t layer = 0;              // layers blend in index order: normal ones, then additive ones
  int sync_group = -1;                // >= 0: follow the group's normalized time (B6); ignores start
};

struct LayerOptions {
  float weight = 1.f;                 // finite, >= 0
  std::string mask{};                 // a node name: the layer acts on that node's subtree only
                                      // ("" acts everywhere); set_layer_mask gives finer weights
  bool additive = false;              // clips act as deltas from their first frame (B3)
};

}  // namespace marrow
