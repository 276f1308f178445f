#pragma once
// An animation graph as data (AG1-AG8): what a graph file holds (io/graph_file.hpp reads the
// JSON form, docs/graph.md and docs/graph.schema.json describe it), or what code builds. It
// names clips, nodes and parameters by string; AnimationGraph (animation_graph.hpp) checks it
// against a Model once and makes it immutable and shareable.
//
//   GraphDescription g;
//   g.parameters = {{.name = "speed"}};
//   g.nodes = {{.name = "walk", .kind = GraphNodeKind::Clip, .clip = {.clip = "Walk"}},
//              {.name = "run", .kind = GraphNodeKind::Clip, .clip = {.clip = "Run"}},
//              {.name = "move", .kind = GraphNodeKind::Blend1d,
//               .blend = {.parameters = {"speed"}, .samples = {{"walk", {1.5f, 0.f}}, {"run", {4.f, 0.f}}},
//                         .sync = {.enabled = true}}}};
//   g.root = "move";
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>

#include "marrow/runtime/playback_clock.hpp"

namespace marrow {

enum class GraphParameterType : std::uint8_t { Float, Bool, Trigger };

struct GraphParameter {
  std::string name;
  GraphParameterType type = GraphParameterType::Float;
  float default_value = 0.f;  // Float: the value; Bool: 0 (false) or 1 (true); Trigger: unused
};

enum class GraphNodeKind : std::uint8_t { Clip, Blend1d, Blend2d, Layer, StateMachine, Sync };

// "clip": one of the model's animations by name.
struct GraphClipNode {
  std::string clip;
  LoopMode loop = LoopMode::Loop;
  float rate = 1.f;     // signed, finite
  float start = 0.f;    // seconds into the clip where entering the node starts it, in [0, duration]
};

// Members of a blend (or a sync node's subtree) share one normalized phase (B6); with markers,
// the phase counts marker to marker (AG5): each member clip holds the named markers in the same
// cyclic order.
struct GraphSync {
  bool enabled = false;
  std::vector<std::string> markers{};  // empty: plain phase sync
};

struct GraphBlendSample {
  std::string node;
  glm::vec2 at{0.f};    // blend1d: at.x
};

// "blend1d" (one parameter, AG1) and "blend2d" (two, AG2).
struct GraphBlendNode {
  std::vector<std::string> parameters{};  // one (blend1d) or two (blend2d) float parameters
  std::vector<GraphBlendSample> samples{};
  GraphSync sync{};
};

enum class GraphLayerMode : std::uint8_t { Override, Additive };

// One layer of a "layer" node over its base (B2, B3).
struct GraphLayerEntry {
  std::string node;
  float weight = 1.f;                 // finite, >= 0, used when weight_parameter is empty
  std::string weight_parameter{};     // a float parameter giving the weight (clamped to [0, 1])
  GraphLayerMode mode = GraphLayerMode::Override;
  std::string mask_root{};            // the layer acts on this node's subtree only
  std::vector<std::pair<std::string, float>> mask_weights{};  // or per-node weights (others 0)
};

struct GraphLayerNode {
  std::string base;
  std::vector<GraphLayerEntry> layers{};
};

enum class GraphConditionOp : std::uint8_t { Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual, Trigger };

// A float compared with value; a bool compared (Equal or NotEqual) with value 0 or 1; a trigger
// (op Trigger) that is set.
struct GraphCondition {
  std::string parameter;
  GraphConditionOp op = GraphConditionOp::Trigger;
  float value = 0.f;
};

enum class GraphBlendMode : std::uint8_t { Crossfade, Inertialize };

struct GraphTransition {
  std::string from;                   // a state, or "*" for any state
  std::string to;
  std::vector<GraphCondition> conditions{};  // all must hold
  std::optional<float> exit_time{};   // the source state's normalized time, >= 0
  float duration = 0.f;               // seconds, >= 0 (0: at once)
  GraphBlendMode blend = GraphBlendMode::Crossfade;
};

struct GraphStateMachineNode {
  std::string initial;
  std::vector<std::pair<std::string, std::string>> states{};  // state name -> node name
  std::vector<GraphTransition> transitions{};                 // tried in this order
};

// "sync": its node's subtree shares one phase (the same as a blend's "sync").
struct GraphSyncNode {
  std::string node;
  GraphSync sync{.enabled = true};
};

struct GraphNode {
  std::string name;
  GraphNodeKind kind = GraphNodeKind::Clip;
  GraphClipNode clip{};                  // Clip
  GraphBlendNode blend{};                // Blend1d, Blend2d
  GraphLayerNode layer{};                // Layer
  GraphStateMachineNode state_machine{}; // StateMachine
  GraphSyncNode sync{};                  // Sync
};

struct GraphDescription {
  int version = 1;
  std::vector<GraphParameter> parameters{};
  std::string root;
  std::vector<GraphNode> nodes{};
};

inline constexpr int kGraphVersion = 1;

}  // namespace marrow
