#pragma once
// An animation graph checked against a Model (AG1-AG8): immutable, shareable by every character
// that plays it (graph_instance.hpp holds one character's state).
//
// Checking (AG8): every clip, node, parameter, state and mask node a field names exists; blend
// positions increase strictly (AG1); 2-D samples are neither coincident nor all on one line
// (AG2); a layer's weight parameter, a blend's parameters and a compared parameter are floats
// (a bool may be compared with == or !=); a trigger is only used as a trigger; marker sync finds
// the named markers in every member clip, in the same cyclic order; nodes form no cycle. Each
// refusal is a std::invalid_argument whose message names the node and the field:
//   graph node "move", field "samples[2].node": no node is named "jog"
//
// Places. A node named in several places plays one instance in each place, with its own clock:
// the graph is unfolded from its root into a tree of places (depth first, children in the
// order the node lists them). Each clip place is a slot: the instance's clip i (its clock, its
// weight) is slot i. The unfolded tree is bounded (kMaxGraphPlaces, kMaxGraphDepth), so a small
// file that names one node from many places cannot make an exponential one.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "marrow/core/ticks.hpp"
#include "marrow/model/graph_description.hpp"
#include "marrow/model/model.hpp"
#include "marrow/runtime/blend_space.hpp"

namespace marrow {

inline constexpr std::size_t kMaxGraphPlaces = 4096;
inline constexpr std::size_t kMaxGraphDepth = 64;
inline constexpr std::size_t kMaxGraphSlots = 1024;  // clip places

// One place of the unfolded graph. What an instance's update reads of every place comes first,
// in the first 64 bytes (a place is 64-byte aligned): one cache line a place a frame.
struct alignas(64) GraphPlace {
  GraphNodeKind kind = GraphNodeKind::Clip;
  LoopMode loop = LoopMode::Loop;     // Clip
  bool sync = false;                  // Sync (a sync node, or a blend with sync on): its subtree shares one phase
  bool machine_below = false;         // a state machine in its subtree (itself included): transitions and fades look there
  std::uint32_t first_child = 0;      // into AnimationGraph::children()
  std::uint32_t child_count = 0;
  int slot = -1;                      // Clip: the instance's clip index
  int machine = -1;                   // StateMachine: into AnimationGraph::machines()
  int parameters[2] = {-1, -1};       // Blend1d / Blend2d: parameter indices
  // The sync place whose phase this place follows: its outermost sync ancestor (or itself)
  // with no state machine between them; -1: its own clocks.
  int sync_root = -1;
  int marker_set = -1;                // into AnimationGraph::marker_sets(), -1: plain phase
  int node = -1;                      // its node in the description
  int parent = -1;                    // its parent place, -1 for the root
  std::uint32_t depth = 0;
  // Clip
  int animation = -1;                 // into Model::animations
  float rate = 1.f;
  Ticks start{};
  Ticks duration{};
  // Blend1d / Blend2d: the 1-D positions or the 2-D space
  std::vector<float> positions{};                   // Blend1d, one per child
  std::shared_ptr<const BlendSpace2d> space{};      // Blend2d
  // Layer: per child after the first (the base): its layer
  struct Layer {
    GraphLayerMode mode = GraphLayerMode::Override;
    float weight = 1.f;
    int weight_parameter = -1;
    std::vector<float> mask{};        // per scene node; empty: none
  };
  std::vector<Layer> layers{};
};

// A compiled transition condition.
struct GraphPlaceCondition {
  int parameter = -1;
  GraphConditionOp op = GraphConditionOp::Trigger;
  float value = 0.f;
};

struct GraphPlaceTransition {
  int from = -1;                      // state index, -1: any state
  int to = -1;
  std::vector<GraphPlaceCondition> conditions{};
  float exit_time = -1.f;             // < 0: none
  float duration = 0.f;               // seconds
  GraphBlendMode blend = GraphBlendMode::Crossfade;
};

struct GraphMachine {
  std::vector<std::string> state_names{};  // child i of the place is state i
  int initial = 0;
  std::vector<GraphPlaceTransition> transitions{};
};

// Marker sync (AG5): names in cyclic order, and per slot under the sync place the marker times
// in that order (first the one named first, then on around the clip).
struct GraphMarkerSet {
  std::vector<std::string> names{};
};

class AnimationGraph {
 public:
  // Checks and unfolds; throws std::invalid_argument naming the node and field (AG8). The
  // model must outlive the graph and every instance.
  AnimationGraph(const GraphDescription& description, const Model& model);

  const Model& model() const noexcept { return *model_; }
  const GraphDescription& description() const noexcept { return description_; }
  std::span<const GraphParameter> parameters() const noexcept { return description_.parameters; }
  int find_parameter(std::string_view name) const noexcept;

  std::span<const GraphPlace> places() const noexcept { return places_; }   // [0] is the root
  std::span<const std::uint32_t> children() const noexcept { return children_; }
  std::span<const GraphMachine> machines() const noexcept { return machines_; }
  std::span<const GraphMarkerSet> marker_sets() const noexcept { return marker_sets_; }
  std::size_t slot_count() const noexcept { return slot_places_.size(); }
  std::span<const std::uint32_t> slot_places() const noexcept { return slot_places_; }  // per slot
  // Per slot, the times of its sync markers (empty when its sync place has none), in the marker
  // set's cyclic order starting with the set's first name.
  std::span<const Ticks> slot_markers(std::size_t slot) const { return slot_markers_.at(slot); }
  bool has_inertialization() const noexcept { return has_inertialization_; }
  // The place's node name.
  std::string_view node_name(std::size_t place) const { return description_.nodes.at(static_cast<std::size_t>(places_.at(place).node)).name; }

 private:
  friend class GraphCompiler;
  const Model* model_ = nullptr;
  GraphDescription description_;
  std::vector<GraphPlace> places_;
  std::vector<std::uint32_t> children_;
  std::vector<GraphMachine> machines_;
  std::vector<GraphMarkerSet> marker_sets_;
  std::vector<std::uint32_t> slot_places_;
  std::vector<std::vector<Ticks>> slot_markers_;
  bool has_inertialization_ = false;
};

}  // namespace marrow
