#pragma once
// One character playing an animation graph (AG1-AG7): parameters, clocks, blend weights, state
// machines and their transitions. It drives an Animator (Animator::drive's frame, without its
// checks: the graph's clips, weights and masks are valid by construction), which samples,
// blends, composes, runs IK, extracts root motion and reports events on top of it.
//
//   auto graph = std::make_shared<const AnimationGraph>(read_graph_file("fox.json"), model);
//   Animator animator(model, animations);
//   GraphInstance character(graph, animator);      // allocates here, once
//   character.set("speed", 2.3f);
//   character.fire("jump");
//   character.update(ticks_from_seconds(1.0 / 60));  // no allocation (AG6), no throw
//   animator.absolute_bone_transforms();
//
// An update, in order:
//   1. Transitions (AG3). In each state machine that plays, the transitions are tried in order
//      (those from the current state and those from any state "*" as the file lists them); the
//      first whose conditions all hold and whose exit time has passed fires, one per machine
//      per update. A trigger condition consumes the trigger when its transition fires; a
//      trigger no transition takes stays set. A transition to the current state is not taken
//      unless it was fired by a trigger. From the transition's first update on the current
//      state is the destination, whose nodes start at their start times (nested machines at
//      their initial states).
//      - crossfade (B4): every state showing (the source, and what still fades out) keeps its
//        weight at the switch times 1 - u, the destination has u, u = elapsed / duration; the
//        states keep playing until u reaches 1. A state re-entered while it fades out restarts
//        and its fading part is dropped.
//      - inertialize (AG4): the destination plays alone at once; the Animator carries the
//        difference from the last pose shown and its velocity to zero over the duration
//        (Animator::inertialize, runtime/inertialization_job.hpp).
//      A duration of 0 switches at once.
//   2. Weights. From the root down, each place's weight is its parent's share: blend1d and
//      blend2d by their parameters (AG1, AG2), state machines by their fades, a layer node's base
//      by 1 - w * mask(j) and its override layer by w * mask(j) per joint (so a layer at weight 1
//      with mask 1 replaces the base), an additive layer by w * mask(j) on top (B3).
//   3. Clocks. Every clip place under a playing state advances by its rate * dt (its loop mode,
//      B5); the clips under a sync place share one normalized phase instead, whose cycle length
//      is the weighted mean of its clips' (duration / |rate|) (B6), counted marker to marker
//      when the sync names markers (AG5).
//   4. The Animator poses the frame from every clip slot (as Animator::drive does): one B2
//      blend of the normal clips at their weights (a blend of blends flattens to the products
//      of the weights on each path), then the additive ones; events of every clip with
//      weight > 0 (AG7), root motion (R1) and IK on top.
//
// A state's normalized time is its node's: a clip's played time over its duration (counting
// loops: 1.5 is one and a half cycles, Once stops at 1); a synced subtree's phase; a blend's
// heaviest member's; a layer node's base's; a machine's current state's. An exit time e lets
// a transition fire once the source state's normalized time is >= e.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "marrow/core/ticks.hpp"
#include "marrow/model/animation_graph.hpp"
#include "marrow/model/animator.hpp"

namespace marrow {

class GraphInstance {
 public:
  // Sizes every buffer (the only allocation), enters the initial states and poses the animator
  // at time 0. The animator must be of the graph's model; both must outlive the instance.
  // Throws std::invalid_argument when the animator's model is not the graph's.
  GraphInstance(std::shared_ptr<const AnimationGraph> graph, Animator& animator);

  const AnimationGraph& graph() const noexcept { return *graph_; }
  Animator& animator() noexcept { return *animator_; }
  const Animator& animator() const noexcept { return *animator_; }

  // Parameters. set() takes a float (a bool takes 0 or 1: any value other than 0 is true);
  // fire() sets a trigger. Throw std::out_of_range for an unknown name, std::invalid_argument
  // for a trigger given to set() or another kind to fire(), or a value that is not finite.
  void set(std::string_view parameter, float value);
  void fire(std::string_view trigger);
  float get(std::string_view parameter) const;   // a trigger: 1 while set

  // Advances by dt (>= 0; a negative dt counts as 0) and poses the animator. No allocation,
  // no throw.
  void update(Ticks dt) noexcept;

  // The root state machine's current state ("" when the root is not a state machine).
  std::string_view state() const noexcept;
  // The current state of the machine in place `place` (GraphPlace::machine >= 0).
  std::string_view state_of(std::size_t place) const noexcept;

  // After the last update: each clip slot's weight (AnimationGraph::slot_places() says where
  // it is). An override layer's weight w counts w for its clips and 1 - w for its base's (the
  // weights where every mask is 1), so the normal clips' weights sum to 1.
  struct ClipWeight {
    int animation = -1;
    float weight = 0.f;
    bool additive = false;
  };
  std::span<const ClipWeight> clip_weights() const noexcept { return reported_; }

  // A clip slot's position in its clip.
  Ticks clip_time(std::size_t slot) const noexcept;
  // A place's normalized time (the rule above).
  double normalized_time(std::size_t place) const noexcept;

 private:
  struct Slot {
    PlaybackClock clock;            // its path this update goes to driven_'s step
    double progress = 0.0;          // normalized time since entered (loops counted)
    float weight = 0.f;             // to the Animator (masked layers' factors in `mask`)
    float reported = 0.f;           // with every mask taken as 1
    bool additive = false;
    bool masked = false;            // `mask` holds this update's per-node weights
    std::vector<float> mask;        // per scene node, when a masked layer is above it
  };
  struct Active {
    int state = -1;
    float from = 0.f;               // its weight when the fade began
    float weight = 0.f;
  };
  struct Machine {
    std::vector<Active> active;     // the current state last
    float elapsed = 0.f, duration = 0.f;
  };
  struct Sync {
    double phase = 0.0;             // [0, 1) plain; [0, markers) by markers
    double cycles = 0.0;            // normalized time since entered
    std::vector<std::uint32_t> slots;  // the clip slots that follow it
  };

  void enter(std::size_t place);
  void place_members(std::size_t sync_place);
  void take_transitions(std::size_t place);
  bool transition_holds(const GraphPlaceTransition& t, int current, double source_time) const noexcept;
  void start_transition(std::size_t place, const GraphPlaceTransition& t);
  void weigh(std::size_t place, float weight, float reported, bool additive, int mask_depth, bool playing);
  void weigh_child(std::size_t place, float weight, float reported, bool additive, int mask_depth, bool playing);
  void weigh_clip(std::size_t place, float weight, float reported, bool additive, int mask_depth, bool playing);
  void weigh_layer(std::size_t place, float weight, float reported, bool additive, int mask_depth, bool playing);
  void advance_fades(std::size_t place, Ticks dt);
  void advance(std::size_t place, Ticks dt);
  void advance_child(std::size_t place, Ticks dt);
  void advance_sync(std::size_t place, Ticks dt);
  void advance_marker_sync(std::size_t place, double seconds);
  double cycle_seconds(const Sync& sync) const noexcept;
  void drive(Ticks dt, bool still);
  int parameter(std::string_view name, const char* what) const;

  std::shared_ptr<const AnimationGraph> graph_;
  Animator* animator_ = nullptr;
  std::vector<float> values_;                // per parameter (a trigger: 1 while set)
  std::vector<Slot> slots_;
  std::vector<Machine> machines_;            // per GraphPlace::machine
  std::vector<Sync> syncs_;                  // per sync place (sync_index_)
  std::vector<int> sync_index_;              // per place: its Sync, or -1
  std::vector<float> child_weights_;         // per entry of AnimationGraph::children(): its share
  std::vector<glm::vec2> blend_inputs_;      // per place: the parameters a blend's shares are for (NaN: none)
  std::vector<std::uint8_t> playing_;        // per place: under playing states
  std::vector<std::vector<float>> masks_;    // per mask depth: the product of masks so far
  std::vector<ClipWeight> reported_;
  std::vector<DrivenClip> driven_;
  float inertialize_ = 0.f;                  // > 0: this update switches inertialized
};

}  // namespace marrow
