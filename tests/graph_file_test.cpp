// AG8: the animation graph file (io/graph_file.hpp, docs/graph.md): the format's members and
// defaults map onto a GraphDescription, every refusal is an ImportError naming the node and the
// field, limits are refused as LimitExceeded, and the docs' schema and example agree with the
// reader.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "marrow/core/import_error.hpp"
#include "marrow/io/graph_file.hpp"

namespace marrow::graph_file_test {

namespace fs = std::filesystem;

// The format as the task describes it: every node kind, every member.
constexpr std::string_view kFullGraph = R"json({"version": 1,
 "parameters": {"speed": {"type": "float", "default": 0}, "grounded": {"type": "bool", "default": true}, "jump": {"type": "trigger"}},
 "root": "main",
 "nodes": {
   "idle": {"type": "clip", "clip": "Survey"},
   "run": {"type": "clip", "clip": "Run", "rate": 1.0, "loop": "loop", "start": 0.0},
   "move": {"type": "blend1d", "parameter": "speed", "sync": true,
            "samples": [{"node": "idle", "at": 0}, {"node": "run", "at": 4}]},
   "steer": {"type": "blend2d", "parameters": ["turn", "speed"], "sync": {"markers": ["foot_l", "foot_r"]},
             "samples": [{"node": "idle", "at": [0, 0]}, {"node": "run", "at": [1, 4]}]},
   "upper": {"type": "layer", "base": "move",
             "layers": [{"node": "wave", "weight": 0.5, "mode": "override", "mask": "Spine"},
                        {"node": "breathe", "weight": "breath", "mode": "additive", "mask": {"Spine": 1, "Neck": 0.5}}]},
   "synced": {"type": "sync", "node": "move", "markers": ["foot_l"]},
   "main": {"type": "state_machine", "initial": "ground",
            "states": {"ground": "move", "leap": "run"},
            "transitions": [
              {"from": "ground", "to": "leap", "conditions": [{"trigger": "jump"}], "duration": 0.1, "blend": "inertialize"},
              {"from": "leap", "to": "ground", "exit_time": 0.9, "duration": 0.2, "blend": "crossfade"},
              {"from": "*", "to": "ground", "conditions": [{"parameter": "speed", "op": ">", "value": 0.5},
                                                          {"parameter": "grounded", "op": "==", "value": true},
                                                          {"parameter": "grounded"}]}]}}})json";

std::span<const std::byte> bytes_of(std::string_view text) { return std::as_bytes(std::span(text.data(), text.size())); }

GraphDescription parse(std::string_view text) { return parse_graph(bytes_of(text), {}, "graph.json"); }

struct Refusal {
  ImportErrorCode code = ImportErrorCode::IoError;
  std::string message;  // without the "[code] " prefix
};

Refusal refusal_of(std::string_view text) {
  try {
    (void)parse(text);
  } catch (const ImportError& e) {
    return {e.code(), e.detail()};
  }
  ADD_FAILURE() << "accepted: " << text.substr(0, 300);
  return {ImportErrorCode::IoError, "accepted"};
}

// A graph whose one node "a" has these members.
std::string one_node(const std::string& members) {
  return R"({"version": 1, "root": "a", "nodes": {"a": {)" + members + "}}}";
}

// A state machine "a" with one state "s" and these transitions.
std::string machine(const std::string& transitions) {
  return one_node(R"("type": "state_machine", "initial": "s", "states": {"s": "b"}, "transitions": [)" + transitions + "]");
}

std::string repeated(std::size_t n, const std::function<std::string(std::size_t)>& item) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += (i == 0 ? "" : ", ") + item(i);
  return out;
}

const GraphNode& node_named(const GraphDescription& g, std::string_view name) {
  for (const GraphNode& n : g.nodes) {
    if (n.name == name) return n;
  }
  throw std::out_of_range(std::string(name));
}

fs::path docs_dir() { return fs::path(MARROW_TEST_DATA) / ".." / ".." / "docs"; }

TEST(GraphFile, AG8_FullExampleMapsOntoTheDescription) {
  const GraphDescription g = parse(kFullGraph);
  EXPECT_EQ(g.version, 1);
  EXPECT_EQ(g.root, "main");
  ASSERT_EQ(g.parameters.size(), 3u);
  EXPECT_EQ(g.parameters[0].name, "speed");
  EXPECT_EQ(g.parameters[0].type, GraphParameterType::Float);
  EXPECT_EQ(g.parameters[0].default_value, 0.f);
  EXPECT_EQ(g.parameters[1].name, "grounded");
  EXPECT_EQ(g.parameters[1].type, GraphParameterType::Bool);
  EXPECT_EQ(g.parameters[1].default_value, 1.f);
  EXPECT_EQ(g.parameters[2].name, "jump");
  EXPECT_EQ(g.parameters[2].type, GraphParameterType::Trigger);

  // Nodes in file order, each named by its key.
  const std::vector<std::string> names = {"idle", "run", "move", "steer", "upper", "synced", "main"};
  ASSERT_EQ(g.nodes.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(g.nodes[i].name, names[i]);

  const GraphNode& run = g.nodes[1];
  EXPECT_EQ(run.kind, GraphNodeKind::Clip);
  EXPECT_EQ(run.clip.clip, "Run");
  EXPECT_EQ(run.clip.rate, 1.f);
  EXPECT_EQ(run.clip.loop, LoopMode::Loop);
  EXPECT_EQ(run.clip.start, 0.f);

  const GraphNode& move = g.nodes[2];
  EXPECT_EQ(move.kind, GraphNodeKind::Blend1d);
  EXPECT_EQ(move.blend.parameters, std::vector<std::string>{"speed"});
  EXPECT_TRUE(move.blend.sync.enabled);
  EXPECT_TRUE(move.blend.sync.markers.empty());
  ASSERT_EQ(move.blend.samples.size(), 2u);
  EXPECT_EQ(move.blend.samples[0].node, "idle");
  EXPECT_EQ(move.blend.samples[1].node, "run");
  EXPECT_EQ(move.blend.samples[1].at, glm::vec2(4.f, 0.f));

  const GraphNode& steer = g.nodes[3];
  EXPECT_EQ(steer.kind, GraphNodeKind::Blend2d);
  EXPECT_EQ(steer.blend.parameters, (std::vector<std::string>{"turn", "speed"}));
  EXPECT_TRUE(steer.blend.sync.enabled);
  EXPECT_EQ(steer.blend.sync.markers, (std::vector<std::string>{"foot_l", "foot_r"}));
  ASSERT_EQ(steer.blend.samples.size(), 2u);
  EXPECT_EQ(steer.blend.samples[1].at, glm::vec2(1.f, 4.f));

  const GraphNode& upper = g.nodes[4];
  EXPECT_EQ(upper.kind, GraphNodeKind::Layer);
  EXPECT_EQ(upper.layer.base, "move");
  ASSERT_EQ(upper.layer.layers.size(), 2u);
  const GraphLayerEntry& wave = upper.layer.layers[0];
  EXPECT_EQ(wave.node, "wave");
  EXPECT_EQ(wave.weight, 0.5f);
  EXPECT_TRUE(wave.weight_parameter.empty());
  EXPECT_EQ(wave.mode, GraphLayerMode::Override);
  EXPECT_EQ(wave.mask_root, "Spine");
  EXPECT_TRUE(wave.mask_weights.empty());
  const GraphLayerEntry& breathe = upper.layer.layers[1];
  EXPECT_EQ(breathe.weight_parameter, "breath");
  EXPECT_EQ(breathe.mode, GraphLayerMode::Additive);
  EXPECT_TRUE(breathe.mask_root.empty());
  ASSERT_EQ(breathe.mask_weights.size(), 2u);
  EXPECT_EQ(breathe.mask_weights[0], (std::pair<std::string, float>{"Spine", 1.f}));
  EXPECT_EQ(breathe.mask_weights[1], (std::pair<std::string, float>{"Neck", 0.5f}));

  const GraphNode& synced = g.nodes[5];
  EXPECT_EQ(synced.kind, GraphNodeKind::Sync);
  EXPECT_EQ(synced.sync.node, "move");
  EXPECT_TRUE(synced.sync.sync.enabled);
  EXPECT_EQ(synced.sync.sync.markers, std::vector<std::string>{"foot_l"});

  const GraphNode& main = g.nodes[6];
  EXPECT_EQ(main.kind, GraphNodeKind::StateMachine);
  const GraphStateMachineNode& m = main.state_machine;
  EXPECT_EQ(m.initial, "ground");
  ASSERT_EQ(m.states.size(), 2u);
  EXPECT_EQ(m.states[0], (std::pair<std::string, std::string>{"ground", "move"}));
  EXPECT_EQ(m.states[1], (std::pair<std::string, std::string>{"leap", "run"}));
  ASSERT_EQ(m.transitions.size(), 3u);
  const GraphTransition& jump = m.transitions[0];
  EXPECT_EQ(jump.from, "ground");
  EXPECT_EQ(jump.to, "leap");
  ASSERT_EQ(jump.conditions.size(), 1u);
  EXPECT_EQ(jump.conditions[0].parameter, "jump");
  EXPECT_EQ(jump.conditions[0].op, GraphConditionOp::Trigger);
  EXPECT_FALSE(jump.exit_time.has_value());
  EXPECT_EQ(jump.duration, 0.1f);
  EXPECT_EQ(jump.blend, GraphBlendMode::Inertialize);
  const GraphTransition& back = m.transitions[1];
  EXPECT_TRUE(back.conditions.empty());
  ASSERT_TRUE(back.exit_time.has_value());
  EXPECT_EQ(*back.exit_time, 0.9f);
  EXPECT_EQ(back.duration, 0.2f);
  EXPECT_EQ(back.blend, GraphBlendMode::Crossfade);
  const GraphTransition& any = m.transitions[2];
  EXPECT_EQ(any.from, "*");
  ASSERT_EQ(any.conditions.size(), 3u);
  EXPECT_EQ(any.conditions[0].parameter, "speed");
  EXPECT_EQ(any.conditions[0].op, GraphConditionOp::Greater);
  EXPECT_EQ(any.conditions[0].value, 0.5f);
  EXPECT_EQ(any.conditions[1].op, GraphConditionOp::Equal);
  EXPECT_EQ(any.conditions[1].value, 1.f);
  EXPECT_EQ(any.conditions[2].parameter, "grounded");  // op and value left out: == true
  EXPECT_EQ(any.conditions[2].op, GraphConditionOp::Equal);
  EXPECT_EQ(any.conditions[2].value, 1.f);
  EXPECT_EQ(any.duration, 0.f);
}

TEST(GraphFile, AG8_DefaultsAndEveryWord) {
  const GraphDescription g = parse(R"({"version": 1, "root": "c",
    "parameters": {"f": {"type": "float"}, "b": {"type": "bool"}, "b0": {"type": "bool", "default": false},
                   "f2": {"type": "float", "default": -2.5}},
    "nodes": {
      "c": {"type": "clip", "clip": "Walk"},
      "once": {"type": "clip", "clip": "Walk", "loop": "once", "rate": -1.5, "start": 0.25},
      "pp": {"type": "clip", "clip": "Walk", "loop": "pingpong"},
      "b1": {"type": "blend1d", "parameter": "f", "samples": [{"node": "c", "at": -1}]},
      "b1off": {"type": "blend1d", "parameter": "f", "sync": false, "samples": [{"node": "c", "at": 1e3}]},
      "l": {"type": "layer", "base": "c", "layers": [{"node": "once"}]},
      "s": {"type": "sync", "node": "b1"},
      "m": {"type": "state_machine", "initial": "x", "states": {"x": "c"}},
      "ops": {"type": "state_machine", "initial": "x", "states": {"x": "c", "y": "pp"}, "transitions": [{"from": "x", "to": "y",
        "conditions": [{"parameter": "f", "op": ">="}, {"parameter": "f", "op": "<", "value": 2}, {"parameter": "f", "op": "<="},
                       {"parameter": "b", "op": "!=", "value": false}, {"parameter": "f", "value": 3}],
        "exit_time": 0}]}}})");
  EXPECT_EQ(g.parameters[0].default_value, 0.f);
  EXPECT_EQ(g.parameters[1].default_value, 0.f);
  EXPECT_EQ(g.parameters[2].default_value, 0.f);
  EXPECT_EQ(g.parameters[3].default_value, -2.5f);
  const GraphClipNode& c = node_named(g, "c").clip;
  EXPECT_EQ(c.rate, 1.f);
  EXPECT_EQ(c.loop, LoopMode::Loop);
  EXPECT_EQ(c.start, 0.f);
  const GraphClipNode& once = node_named(g, "once").clip;
  EXPECT_EQ(once.loop, LoopMode::Once);
  EXPECT_EQ(once.rate, -1.5f);
  EXPECT_EQ(once.start, 0.25f);
  EXPECT_EQ(node_named(g, "pp").clip.loop, LoopMode::PingPong);
  EXPECT_FALSE(node_named(g, "b1").blend.sync.enabled);
  EXPECT_EQ(node_named(g, "b1").blend.samples[0].at, glm::vec2(-1.f, 0.f));
  EXPECT_FALSE(node_named(g, "b1off").blend.sync.enabled);
  EXPECT_EQ(node_named(g, "b1off").blend.samples[0].at.x, 1000.f);
  const GraphLayerEntry& layer = node_named(g, "l").layer.layers.at(0);
  EXPECT_EQ(layer.weight, 1.f);
  EXPECT_TRUE(layer.weight_parameter.empty());
  EXPECT_EQ(layer.mode, GraphLayerMode::Override);
  EXPECT_TRUE(layer.mask_root.empty());
  EXPECT_TRUE(layer.mask_weights.empty());
  const GraphSyncNode& s = node_named(g, "s").sync;
  EXPECT_EQ(s.node, "b1");
  EXPECT_TRUE(s.sync.enabled);
  EXPECT_TRUE(s.sync.markers.empty());
  EXPECT_TRUE(node_named(g, "m").state_machine.transitions.empty());
  const GraphTransition& t = node_named(g, "ops").state_machine.transitions.at(0);
  EXPECT_EQ(t.exit_time, std::optional<float>(0.f));
  EXPECT_EQ(t.duration, 0.f);
  EXPECT_EQ(t.blend, GraphBlendMode::Crossfade);
  ASSERT_EQ(t.conditions.size(), 5u);
  EXPECT_EQ(t.conditions[0].op, GraphConditionOp::GreaterEqual);
  EXPECT_EQ(t.conditions[0].value, 1.f);
  EXPECT_EQ(t.conditions[1].op, GraphConditionOp::Less);
  EXPECT_EQ(t.conditions[1].value, 2.f);
  EXPECT_EQ(t.conditions[2].op, GraphConditionOp::LessEqual);
  EXPECT_EQ(t.conditions[3].op, GraphConditionOp::NotEqual);
  EXPECT_EQ(t.conditions[3].value, 0.f);
  EXPECT_EQ(t.conditions[4].op, GraphConditionOp::Equal);
  EXPECT_EQ(t.conditions[4].value, 3.f);
  // No "parameters" at all is a graph without parameters.
  EXPECT_TRUE(parse(one_node(R"("type": "clip", "clip": "Walk")")).parameters.empty());
}

TEST(GraphFile, AG8_RefusalsNameTheNodeAndTheField) {
  struct Case {
    std::string json;
    ImportErrorCode code;
    std::string message;  // the whole message
  };
  using C = ImportErrorCode;
  const std::string clip = R"("type": "clip", "clip": "Walk")";
  const std::string blend1d = R"("type": "blend1d", "parameter": "speed", "samples": )";
  const std::string blend2d = R"("type": "blend2d", "parameters": ["x", "y"], "samples": )";
  const std::string layer = R"("type": "layer", "base": "b", "layers": )";
  const std::vector<Case> cases = {
      // The document and its top-level members.
      {"[1]", C::InvalidDocument,
       R"(the document is not an object (a graph: {"version": 1, "root": ..., "nodes": {...}}; it is an array))"},
      {R"({"root": "a", "nodes": {}})", C::InvalidDocument, R"(field "version": is missing)"},
      {R"({"version": 2, "nodes": {}})", C::VersionMismatch, R"(field "version": version 2 is not supported (this reader reads version 1))"},
      {R"({"version": "1"})", C::InvalidDocument, R"(field "version": is not an integer (a string; this reader reads version 1))"},
      {R"({"version": 1.5})", C::InvalidDocument, R"(field "version": is not an integer (a number; this reader reads version 1))"},
      {R"({"version": 1, "nodes": {"a": {)" + clip + "}}}", C::InvalidDocument, R"(field "root": is missing)"},
      {R"({"version": 1, "root": "", "nodes": {"a": {)" + clip + "}}}", C::InvalidDocument, R"(field "root": is an empty name)"},
      {R"({"version": 1, "root": "a"})", C::InvalidDocument, R"(field "nodes": is missing)"},
      {R"({"version": 1, "root": "a", "nodes": {}})", C::InvalidDocument, R"(field "nodes": the graph has no node)"},
      {R"({"version": 1, "root": "a", "nodes": []})", C::InvalidDocument,
       R"(field "nodes": is not an object ({"name": {"type": ...}}; it is an array))"},
      {R"({"version": 1, "root": "a", "nodez": {}})", C::InvalidDocument,
       R"(field "nodez": is not a member of a graph (version, parameters, root, nodes))"},
      {R"({"version": 1, "root": "a", "root": "b"})", C::InvalidDocument, R"(field "root": is given twice)"},
      {R"({"version": 1, "root": "a", "nodes": {"a": {)" + clip + "}, \"a\": {" + clip + "}}}", C::InvalidDocument,
       R"(field "nodes": node "a" is defined twice)"},
      {R"({"version": 1, "root": "a", "nodes": {"": {)" + clip + "}}}", C::InvalidDocument, R"(field "nodes": a node has an empty name)"},
      // Parameters.
      {R"({"version": 1, "parameters": {"jump": {"type": "trigger", "default": 0}}})", C::InvalidDocument,
       R"(parameter "jump", field "default": a trigger has no default (it starts unset))"},
      {R"({"version": 1, "parameters": {"on": {"type": "bool", "default": 1}}})", C::InvalidDocument,
       R"(parameter "on", field "default": is not true or false (a number))"},
      {R"({"version": 1, "parameters": {"speed": {"type": "float", "default": true}}})", C::InvalidDocument,
       R"(parameter "speed", field "default": is not a number (true or false))"},
      {R"({"version": 1, "parameters": {"speed": {"type": "int"}}})", C::InvalidDocument,
       R"(parameter "speed", field "type": "int" is not one of float, bool, trigger)"},
      {R"({"version": 1, "parameters": {"speed": {"default": 1}}})", C::InvalidDocument, R"(parameter "speed", field "type": is missing)"},
      {R"({"version": 1, "parameters": {"speed": {"type": "float"}, "speed": {"type": "float"}}})", C::InvalidDocument,
       R"(field "parameters": parameter "speed" is named twice)"},
      {R"({"version": 1, "parameters": {"speed": 3}})", C::InvalidDocument,
       R"(parameter "speed": is not an object ({"type": "float" | "bool" | "trigger", "default": ...}; it is a number))"},
      // Nodes.
      {one_node(R"("clip": "Walk")"), C::InvalidDocument, R"(node "a", field "type": is missing)"},
      {one_node(R"("type": "blend3d")"), C::InvalidDocument,
       R"(node "a", field "type": "blend3d" is not one of clip, blend1d, blend2d, layer, sync, state_machine)"},
      {one_node(R"("type": "clip")"), C::InvalidDocument, R"(node "a", field "clip": is missing)"},
      {one_node(clip + R"(, "rat": 1.5)"), C::InvalidDocument,
       R"(node "a", field "rat": is not a member of a clip node (type, clip, rate, loop, start))"},
      {one_node(clip + R"(, "loop": "forever")"), C::InvalidDocument, R"(node "a", field "loop": "forever" is not one of loop, once, pingpong)"},
      {one_node(clip + R"(, "start": -1)"), C::InvalidDocument, R"(node "a", field "start": -1 is negative)"},
      {one_node(clip + R"(, "rate": 1e39)"), C::InvalidDocument, R"(node "a", field "rate": 1e+39 is beyond the float range)"},
      {one_node(clip + R"(, "rate": null)"), C::InvalidDocument, R"(node "a", field "rate": is not a number (null))"},
      {one_node(R"("type": "clip", "clip": 3)"), C::InvalidDocument, R"(node "a", field "clip": is not a string (a name; it is a number))"},
      {one_node(blend1d + R"([{"node": "b", "at": 0}, {"node": "c", "at": 1}, {"node": "d", "at": "4"}])"), C::InvalidDocument,
       R"(node "a", field "samples[2].at": is not a number (a string))"},
      {one_node(blend1d + R"([{"node": "b"}])"), C::InvalidDocument, R"(node "a", field "samples[0].at": is missing)"},
      {one_node(blend1d + R"([{"node": "b", "at": 0, "weight": 1}])"), C::InvalidDocument,
       R"(node "a", field "samples[0].weight": is not a member of a blend sample (node, at))"},
      {one_node(blend1d + "[]"), C::InvalidDocument, R"(node "a", field "samples": the blend has no sample)"},
      {one_node(R"("type": "blend1d", "parameters": ["speed"], "samples": [])"), C::InvalidDocument,
       R"(node "a", field "parameters": is not a member of a blend1d node (type, parameter, sync, samples))"},
      {one_node(blend1d + R"([{"node": "b", "at": 0}], "sync": "yes")"), C::InvalidDocument,
       R"(node "a", field "sync": is not true, false or {"markers": [...]} (a string))"},
      {one_node(blend1d + R"([{"node": "b", "at": 0}], "sync": {"markers": []})"), C::InvalidDocument,
       R"(node "a", field "sync.markers": names no marker (leave the markers out for phase sync))"},
      {one_node(blend1d + R"([{"node": "b", "at": 0}], "sync": {"markers": ["l", ""]})"), C::InvalidDocument,
       R"(node "a", field "sync.markers[1]": is an empty name)"},
      {one_node(blend1d + R"([{"node": "b", "at": 0}], "sync": {"markers": ["l", "l"]})"), C::InvalidDocument,
       R"(node "a", field "sync.markers": marker "l" is named twice)"},
      {one_node(blend1d + R"([{"node": "b", "at": 0}], "sync": {"marker": ["l"]})"), C::InvalidDocument,
       R"(node "a", field "sync.marker": is not a member of a marker sync (markers))"},
      {one_node(blend2d + R"([{"node": "b", "at": [1]}])"), C::InvalidDocument,
       R"(node "a", field "samples[0].at": is not an array of two numbers [x, y])"},
      {one_node(blend2d + R"([{"node": "b", "at": [1, "2"]}])"), C::InvalidDocument,
       R"(node "a", field "samples[0].at[1]": is not a number (a string))"},
      {one_node(R"("type": "blend2d", "parameters": ["x"], "samples": [])"), C::InvalidDocument,
       R"(node "a", field "parameters": is not two parameter names [x, y] (it holds 1))"},
      {one_node(R"("type": "blend2d", "parameters": ["x", 2], "samples": [])"), C::InvalidDocument,
       R"(node "a", field "parameters[1]": is not a string (a name; it is a number))"},
      {one_node(layer + "[]"), C::InvalidDocument, R"(node "a", field "layers": the layer node has no layer (use its base instead))"},
      {one_node(layer + R"([{"node": "c", "weight": -1}])"), C::InvalidDocument, R"(node "a", field "layers[0].weight": -1 is negative)"},
      {one_node(layer + R"([{"node": "c", "weight": true}])"), C::InvalidDocument,
       R"(node "a", field "layers[0].weight": is not a number or a parameter name (true or false))"},
      {one_node(layer + R"([{"node": "c", "mode": "multiply"}])"), C::InvalidDocument,
       R"(node "a", field "layers[0].mode": "multiply" is not one of override, additive)"},
      {one_node(layer + R"([{"node": "c", "mask": {"Spine": -0.5}}])"), C::InvalidDocument,
       R"(node "a", field "layers[0].mask.Spine": -0.5 is negative)"},
      {one_node(layer + R"([{"node": "c", "mask": {"Spine": 1, "Spine": 0}}])"), C::InvalidDocument,
       R"(node "a", field "layers[0].mask": node "Spine" is named twice)"},
      {one_node(layer + R"([{"node": "c", "mask": {}}])"), C::InvalidDocument, R"(node "a", field "layers[0].mask": the mask names no node)"},
      {one_node(layer + R"([{"node": "c", "mask": ["Spine"]}])"), C::InvalidDocument,
       R"(node "a", field "layers[0].mask": is not a node name or an object of {"node": weight} (an array))"},
      {one_node(R"("type": "sync", "node": "b", "markers": "l")"), C::InvalidDocument,
       R"(node "a", field "markers": is not an array (marker names; it is a string))"},
      {one_node(R"("type": "sync")"), C::InvalidDocument, R"(node "a", field "node": is missing)"},
      // State machines.
      {one_node(R"("type": "state_machine", "initial": "s")"), C::InvalidDocument, R"(node "a", field "states": is missing)"},
      {one_node(R"("type": "state_machine", "initial": "s", "states": {})"), C::InvalidDocument,
       R"(node "a", field "states": the state machine has no state)"},
      {one_node(R"("type": "state_machine", "initial": "s", "states": {"s": "b", "s": "c"})"), C::InvalidDocument,
       R"(node "a", field "states": state "s" is named twice)"},
      {one_node(R"("type": "state_machine", "initial": "s", "states": {"*": "b"})"), C::InvalidDocument,
       R"(node "a", field "states": "*" is not a state name (a transition from "*" leaves any state))"},
      {one_node(R"("type": "state_machine", "initial": "s", "states": {"s": 1})"), C::InvalidDocument,
       R"(node "a", field "states.s": is not a string (a name; it is a number))"},
      {machine(R"({"from": "s", "to": "s", "duration": -0.2})"), C::InvalidDocument, R"(node "a", field "transitions[0].duration": -0.2 is negative)"},
      {machine(R"({"from": "s", "to": "s", "exit_time": -1})"), C::InvalidDocument, R"(node "a", field "transitions[0].exit_time": -1 is negative)"},
      {machine(R"({"from": "s"})"), C::InvalidDocument, R"(node "a", field "transitions[0].to": is missing)"},
      {machine(R"({"from": "s", "to": "*"})"), C::InvalidDocument,
       R"(node "a", field "transitions[0].to": a transition goes to one state ("*" stands for any state in "from" only))"},
      {machine(R"({"from": "s", "to": "s", "blend": "cut"})"), C::InvalidDocument,
       R"(node "a", field "transitions[0].blend": "cut" is not one of crossfade, inertialize)"},
      {machine(R"({"from": "s", "to": "s", "condition": []})"), C::InvalidDocument,
       R"(node "a", field "transitions[0].condition": is not a member of a transition (from, to, conditions, exit_time, duration, blend))"},
      {machine(R"({"from": "s", "to": "s"}, {"from": "s", "to": "s", "conditions": [{"trigger": "j"}, {"op": ">"}]})"), C::InvalidDocument,
       R"(node "a", field "transitions[1].conditions[1]": names no "trigger" or "parameter")"},
      {machine(R"({"from": "s", "to": "s", "conditions": [{"trigger": "j", "value": true}]})"), C::InvalidDocument,
       R"(node "a", field "transitions[0].conditions[0].value": is not a member of a trigger condition (trigger))"},
      {machine(R"({"from": "s", "to": "s", "conditions": [{"parameter": "p", "op": "=>"}]})"), C::InvalidDocument,
       R"(node "a", field "transitions[0].conditions[0].op": "=>" is not one of >, >=, <, <=, ==, !=)"},
      {machine(R"({"from": "s", "to": "s", "conditions": [{"parameter": "p", "value": "high"}]})"), C::InvalidDocument,
       R"(node "a", field "transitions[0].conditions[0].value": is not a number, true or false (a string))"},
      {machine(R"({"from": "s", "to": "s", "conditions": {"trigger": "j"}})"), C::InvalidDocument,
       R"(node "a", field "transitions[0].conditions": is not an array ([{"trigger": ...} or {"parameter": ..., "op": ..., "value": ...}, ...]; it is an object))"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    const Refusal r = refusal_of(c.json);
    EXPECT_EQ(r.code, c.code) << r.message;
    EXPECT_EQ(r.message, "graph.json: " + c.message);
  }
}

TEST(GraphFile, AG8_NotJsonEmptyAndTooDeep) {
  EXPECT_EQ(refusal_of("").code, ImportErrorCode::EmptyFile);
  EXPECT_EQ(refusal_of("").message, "graph.json: the file is empty");
  EXPECT_EQ(refusal_of("{version: 1}").code, ImportErrorCode::InvalidJson);
  EXPECT_EQ(refusal_of("{\"version\": 1,}").code, ImportErrorCode::InvalidJson);
  EXPECT_EQ(refusal_of("   ").code, ImportErrorCode::InvalidJson);
  EXPECT_EQ(refusal_of(R"({"version": 1, "x": NaN})").code, ImportErrorCode::InvalidJson);
  EXPECT_EQ(refusal_of(R"({"version": 1, "x": 1e400})").code, ImportErrorCode::InvalidJson);  // not a double either
  // The example nests 7 levels deep (a condition in a transition of a machine); 8 is refused by
  // the parser, before anything is read.
  EXPECT_NO_THROW((void)parse(kFullGraph));
  const Refusal deep = refusal_of(machine(R"({"from": "s", "to": "s", "conditions": [{"parameter": "p", "value": [1]}]})"));
  EXPECT_EQ(deep.code, ImportErrorCode::InvalidJson);
  EXPECT_EQ(deep.message, "graph.json: nested deeper than a graph file's 7 levels of objects and arrays");
  EXPECT_EQ(refusal_of(std::string(5000, '[') + std::string(5000, ']')).code, ImportErrorCode::InvalidJson);
  // One level less is the reader's to refuse.
  EXPECT_EQ(refusal_of(machine(R"({"from": "s", "to": "s", "conditions": [[1]]})")).code, ImportErrorCode::InvalidDocument);
}

TEST(GraphFile, AG8_ByteOrderMarkIsSkipped) {
  const std::string with_bom = "\xEF\xBB\xBF" + std::string(kFullGraph);
  EXPECT_EQ(parse(with_bom).nodes.size(), 7u);
  EXPECT_EQ(refusal_of("\xEF\xBB\xBF").code, ImportErrorCode::InvalidJson);
  EXPECT_EQ(refusal_of("\xEF\xBB\xBF\xEF\xBB\xBF{}").code, ImportErrorCode::InvalidJson);  // one mark only
}

TEST(GraphFile, AG8_LongNamesAreCutInMessages) {
  const std::string name(500, 'n');
  const Refusal r = refusal_of(R"({"version": 1, "root": "a", "nodes": {")" + name + R"(": {"type": "clip"}}})");
  EXPECT_EQ(r.message, "graph.json: node \"" + name.substr(0, 60) + "...\", field \"clip\": is missing");
  const Refusal state = refusal_of(one_node(R"("type": "state_machine", "initial": "s", "states": {")" + name + R"(": 1})"));
  EXPECT_EQ(state.message, "graph.json: node \"a\", field \"states." + name.substr(0, 60) + "...\": is not a string (a name; it is a number)");
  // Cut at a character's start: a two-byte "é" across the 60th byte is left out whole.
  const std::string accented = std::string(59, 'n') + "\xC3\xA9" + std::string(20, 'n');
  EXPECT_EQ(refusal_of(R"({"version": 1, "root": "a", "nodes": {")" + accented + R"(": {"type": "clip"}}})").message,
            "graph.json: node \"" + std::string(59, 'n') + "...\", field \"clip\": is missing");
  const Refusal word = refusal_of(one_node(R"("type": "clip", "clip": "c", "loop": ")" + name + "\""));
  EXPECT_EQ(word.message.size(), std::string(R"(graph.json: node "a", field "loop": "" is not one of loop, once, pingpong)").size() + 63);
}

// Each limit: the limit itself is read, one more is LimitExceeded naming the field and constant.
TEST(GraphFile, AG8_LimitsAreRefused) {
  const auto clip = [](std::size_t i) { return "\"n" + std::to_string(i) + R"(": {"type": "clip", "clip": "c"})"; };
  const auto sample = [](std::size_t i) { return R"({"node": "c", "at": )" + std::to_string(i) + "}"; };
  struct Limit {
    std::size_t limit;
    std::function<std::string(std::size_t)> graph;
    std::string refusal;
  };
  const std::vector<Limit> limits = {
      {kMaxGraphNodes, [&](std::size_t n) { return R"({"version": 1, "root": "n0", "nodes": {)" + repeated(n, clip) + "}}"; },
       R"(field "nodes": more than 4096 nodes (kMaxGraphNodes))"},
      {kMaxGraphParameters,
       [](std::size_t n) {
         return R"({"version": 1, "parameters": {)" +
                repeated(n, [](std::size_t i) { return "\"p" + std::to_string(i) + R"(": {"type": "float"})"; }) +
                R"(}, "root": "a", "nodes": {"a": {"type": "clip", "clip": "c"}}})";
       },
       R"(field "parameters": more than 256 parameters (kMaxGraphParameters))"},
      {kMaxGraphBlendSamples,
       [&](std::size_t n) { return one_node(R"("type": "blend1d", "parameter": "p", "samples": [)" + repeated(n, sample) + "]"); },
       R"(node "a", field "samples": more than 256 samples (kMaxGraphBlendSamples))"},
      {kMaxGraphStates,
       [](std::size_t n) {
         return one_node(R"("type": "state_machine", "initial": "s0", "states": {)" +
                         repeated(n, [](std::size_t i) { return "\"s" + std::to_string(i) + R"(": "c")"; }) + "}");
       },
       R"(node "a", field "states": more than 256 states (kMaxGraphStates))"},
      {kMaxGraphTransitions, [](std::size_t n) { return machine(repeated(n, [](std::size_t) { return R"({"from": "*", "to": "s"})"; })); },
       R"(node "a", field "transitions": more than 1024 transitions (kMaxGraphTransitions))"},
      {kMaxGraphConditions,
       [](std::size_t n) {
         return machine(R"({"from": "s", "to": "s", "conditions": [)" + repeated(n, [](std::size_t) { return R"({"trigger": "t"})"; }) + "]}");
       },
       R"(node "a", field "transitions[0].conditions": more than 64 conditions (kMaxGraphConditions))"},
      {kMaxGraphLayers,
       [](std::size_t n) {
         return one_node(R"("type": "layer", "base": "b", "layers": [)" + repeated(n, [](std::size_t) { return R"({"node": "c"})"; }) + "]");
       },
       R"(node "a", field "layers": more than 64 layers (kMaxGraphLayers))"},
      {kMaxGraphSyncMarkers,
       [](std::size_t n) {
         return one_node(R"("type": "sync", "node": "b", "markers": [)" +
                         repeated(n, [](std::size_t i) { return "\"m" + std::to_string(i) + "\""; }) + "]");
       },
       R"(node "a", field "markers": more than 64 markers (kMaxGraphSyncMarkers))"},
      {kMaxGraphMaskEntries,
       [](std::size_t n) {
         return one_node(R"("type": "layer", "base": "b", "layers": [{"node": "c", "mask": {)" +
                         repeated(n, [](std::size_t i) { return "\"j" + std::to_string(i) + "\": 1"; }) + "}}]");
       },
       R"(node "a", field "layers[0].mask": more than 1024 mask entries (kMaxGraphMaskEntries))"},
  };
  for (const Limit& l : limits) {
    SCOPED_TRACE(l.refusal);
    EXPECT_NO_THROW((void)parse(l.graph(l.limit)));
    const Refusal r = refusal_of(l.graph(l.limit + 1));
    EXPECT_EQ(r.code, ImportErrorCode::LimitExceeded);
    EXPECT_EQ(r.message, "graph.json: " + l.refusal);
  }
  // The file size limit is ImportLimits'.
  ImportLimits small;
  small.max_file_bytes = 100;
  try {
    (void)parse_graph(bytes_of(kFullGraph), small, "graph.json");
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::LimitExceeded);
    EXPECT_EQ(e.detail().rfind("graph.json: ", 0), 0u) << e.detail();
  }
}

TEST(GraphFile, AG8_ReadGraphFileNamesThePath) {
  const fs::path dir = fs::temp_directory_path() / "marrow_graph_file_test";
  fs::create_directories(dir);
  const fs::path good = dir / "good.json", bad = dir / "bad.json";
  std::ofstream(good, std::ios::binary) << kFullGraph;
  std::ofstream(bad, std::ios::binary) << one_node(R"("type": "clip", "clip": "Walk", "rate": "fast")");
  EXPECT_EQ(read_graph_file(good).nodes.size(), 7u);
  try {
    (void)read_graph_file(bad);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::InvalidDocument);
    EXPECT_EQ(e.detail(), bad.string() + R"(: node "a", field "rate": is not a number (a string))");
  }
  EXPECT_THROW((void)read_graph_file(dir / "missing.json"), ImportError);
  fs::remove_all(dir);
}

// docs/examples/fox_graph.json is a graph the reader reads, and docs/graph.schema.json is JSON
// whose members and limits are the reader's: each object the schema closes lists exactly the
// members the reader names when it refuses an unknown one.
TEST(GraphFile, AG8_DocsSchemaAndExampleAgreeWithTheReader) {
  const GraphDescription fox = read_graph_file(docs_dir() / "examples" / "fox_graph.json");
  EXPECT_EQ(fox.root, "main");
  ASSERT_EQ(fox.parameters.size(), 3u);
  EXPECT_EQ(fox.parameters[2].type, GraphParameterType::Trigger);
  const GraphNode& steer = node_named(fox, "steer");
  ASSERT_GE(steer.blend.samples.size(), 4u);
  bool on_one_line = true;
  const glm::vec2 a = steer.blend.samples[0].at, b = steer.blend.samples[1].at;
  for (const GraphBlendSample& s : steer.blend.samples) {
    const glm::vec2 u = b - a, v = s.at - a;
    if (std::abs(u.x * v.y - u.y * v.x) > 1e-6f) on_one_line = false;
  }
  EXPECT_FALSE(on_one_line);
  const GraphStateMachineNode& main = node_named(fox, "main").state_machine;
  EXPECT_EQ(main.states.size(), 3u);
  bool any = false, inertialize = false, exit_time = false;
  for (const GraphTransition& t : main.transitions) {
    any |= t.from == "*";
    inertialize |= t.blend == GraphBlendMode::Inertialize;
    exit_time |= t.exit_time.has_value();
  }
  EXPECT_TRUE(any && inertialize && exit_time);

  simdjson::dom::parser parser;
  simdjson::dom::element schema;
  ASSERT_EQ(parser.load((docs_dir() / "graph.schema.json").string()).get(schema), simdjson::SUCCESS);
  const auto members = [&](std::string_view pointer) {
    std::set<std::string> out;
    simdjson::dom::object properties;
    EXPECT_EQ(schema.at_pointer(std::string(pointer) + "/properties").get(properties), simdjson::SUCCESS) << pointer;
    for (const auto field : properties) out.emplace(field.key);
    bool closed = true;
    EXPECT_EQ(schema.at_pointer(std::string(pointer) + "/additionalProperties").get(closed), simdjson::SUCCESS) << pointer;
    EXPECT_FALSE(closed) << pointer;
    return out;
  };
  // The members the reader lists when it refuses "zz".
  const auto refused = [](const std::string& json) {
    const std::string message = refusal_of(json).message;
    const std::size_t open = message.rfind('('), close = message.rfind(')');
    std::set<std::string> out;
    if (open == std::string::npos || close < open) return out;
    std::string list = message.substr(open + 1, close - open - 1) + ", ";
    for (std::size_t at = 0, comma; (comma = list.find(", ", at)) != std::string::npos; at = comma + 2) out.insert(list.substr(at, comma - at));
    return out;
  };
  const std::string zz = R"(, "zz": 0)";
  const std::vector<std::pair<std::string, std::string>> objects = {
      {"", R"({"version": 1, "root": "a", "zz": 0})"},
      {"/$defs/parameter", R"({"version": 1, "parameters": {"p": {"type": "float")" + zz + "}}}"},
      {"/$defs/clipNode", one_node(R"("type": "clip")" + zz)},
      {"/$defs/blend1dNode", one_node(R"("type": "blend1d")" + zz)},
      {"/$defs/blend2dNode", one_node(R"("type": "blend2d")" + zz)},
      {"/$defs/layerNode", one_node(R"("type": "layer")" + zz)},
      {"/$defs/syncNode", one_node(R"("type": "sync")" + zz)},
      {"/$defs/stateMachineNode", one_node(R"("type": "state_machine")" + zz)},
      {"/$defs/blend1dSample", one_node(R"("type": "blend1d", "parameter": "p", "samples": [{"zz": 0}])")},
      {"/$defs/blend2dSample", one_node(R"("type": "blend2d", "parameters": ["x", "y"], "samples": [{"zz": 0}])")},
      {"/$defs/layer", one_node(R"("type": "layer", "base": "b", "layers": [{"zz": 0}])")},
      {"/$defs/transition", machine(R"({"zz": 0})")},
      {"/$defs/triggerCondition", machine(R"({"from": "s", "to": "s", "conditions": [{"trigger": "t", "zz": 0}]})")},
      {"/$defs/parameterCondition", machine(R"({"from": "s", "to": "s", "conditions": [{"parameter": "p", "zz": 0}]})")},
      {"/$defs/sync/oneOf/1", one_node(R"("type": "blend1d", "parameter": "p", "sync": {"zz": 0})")},
  };
  for (const auto& [pointer, json] : objects) {
    SCOPED_TRACE(pointer);
    EXPECT_EQ(members(pointer), refused(json));
  }
  // The schema's bounds are the header's constants.
  const std::vector<std::pair<std::string, std::size_t>> bounds = {
      {"/properties/parameters/maxProperties", kMaxGraphParameters},
      {"/properties/nodes/maxProperties", kMaxGraphNodes},
      {"/$defs/blend1dNode/properties/samples/maxItems", kMaxGraphBlendSamples},
      {"/$defs/blend2dNode/properties/samples/maxItems", kMaxGraphBlendSamples},
      {"/$defs/stateMachineNode/properties/states/maxProperties", kMaxGraphStates},
      {"/$defs/stateMachineNode/properties/transitions/maxItems", kMaxGraphTransitions},
      {"/$defs/transition/properties/conditions/maxItems", kMaxGraphConditions},
      {"/$defs/layerNode/properties/layers/maxItems", kMaxGraphLayers},
      {"/$defs/markers/maxItems", kMaxGraphSyncMarkers},
      {"/$defs/layer/properties/mask/oneOf/1/maxProperties", kMaxGraphMaskEntries},
  };
  for (const auto& [pointer, limit] : bounds) {
    std::uint64_t value = 0;
    EXPECT_EQ(schema.at_pointer(pointer).get(value), simdjson::SUCCESS) << pointer;
    EXPECT_EQ(value, limit) << pointer;
  }
}

}  // namespace marrow::graph_file_test
