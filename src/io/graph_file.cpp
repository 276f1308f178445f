#include "marrow/io/graph_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <system_error>
#include <unordered_set>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "marrow/core/import_error.hpp"
#include "marrow/core/quoted_name.hpp"
#include "marrow/io/file_bytes.hpp"

namespace marrow {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// The shortest text that reads back as the value.
std::string number_text(double value) {
  char text[32];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return error == std::errc() ? std::string(text, end) : std::string("a number");
}

// What a value is, for "is not a number (a string)".
const char* kind_of(element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: return "an array";
    case simdjson::dom::element_type::OBJECT: return "an object";
    case simdjson::dom::element_type::STRING: return "a string";
    case simdjson::dom::element_type::BOOL: return "true or false";
    case simdjson::dom::element_type::NULL_VALUE: return "null";
    default: return "a number";
  }
}

std::string joined(std::initializer_list<std::string_view> words) {
  std::string out;
  for (const std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

// Where a value sits, for messages: its owner (`node "move"`, `parameter "speed"`, or none at
// the top of the document) and its path below the owner ("samples[2].at").
struct Field {
  std::string owner{};
  std::string path{};

  Field operator/(std::string_view member) const { return {owner, path.empty() ? shown_name(member) : path + "." + shown_name(member)}; }
  Field operator[](std::size_t index) const { return {owner, path + "[" + std::to_string(index) + "]"}; }
  std::string str() const {
    if (path.empty()) return owner;
    const std::string field = "field \"" + path + "\"";
    return owner.empty() ? field : owner + ", " + field;
  }
};

template <class E>
struct Word {
  std::string_view text;
  E value;
};

class GraphReader {
 public:
  explicit GraphReader(std::string_view where) : where_(where) {}

  [[noreturn]] void refuse(ImportErrorCode code, const std::string& message) const {
    throw ImportError(code, std::string(where_) + ": " + message);
  }

  GraphDescription read(element document) const;

 private:
  [[noreturn]] void invalid(const Field& f, const std::string& message) const {
    refuse(ImportErrorCode::InvalidDocument, f.str() + ": " + message);
  }
  void check_count(std::size_t count, std::size_t limit, const Field& f, const char* what, const char* constant) const {
    if (count > limit)
      refuse(ImportErrorCode::LimitExceeded, f.str() + ": more than " + std::to_string(limit) + " " + what + " (" + constant + ")");
  }

  static std::optional<element> member(object o, std::string_view key) {
    element e;
    if (o.at_key(key).get(e) != simdjson::SUCCESS) return std::nullopt;
    return e;
  }
  element required(object o, const Field& f, std::string_view key) const {
    const std::optional<element> e = member(o, key);
    if (!e) invalid(f / key, "is missing");
    return *e;
  }
  // Refuses a member not in `allowed` (naming what the object may hold) or one given twice.
  void only(object o, const Field& f, std::initializer_list<std::string_view> allowed, const char* what) const {
    std::uint32_t seen = 0;
    for (const auto field : o) {
      std::uint32_t index = 0;
      for (const std::string_view name : allowed) {
        if (name == field.key) break;
        ++index;
      }
      if (index == allowed.size()) invalid(f / field.key, std::string("is not a member of ") + what + " (" + joined(allowed) + ")");
      if ((seen >> index) & 1u) invalid(f / field.key, "is given twice");
      seen |= 1u << index;
    }
  }

  object as_object(element e, const Field& f, const char* what) const {
    object o;
    if (e.get_object().get(o) != simdjson::SUCCESS) invalid(f, std::string("is not an object (") + what + "; it is " + kind_of(e) + ")");
    return o;
  }
  array as_array(element e, const Field& f, const char* what) const {
    array a;
    if (e.get_array().get(a) != simdjson::SUCCESS) invalid(f, std::string("is not an array (") + what + "; it is " + kind_of(e) + ")");
    return a;
  }
  // A non-empty string.
  std::string name(element e, const Field& f) const {
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) invalid(f, std::string("is not a string (a name; it is ") + kind_of(e) + ")");
    if (s.empty()) invalid(f, "is an empty name");
    return std::string(s);
  }
  std::string required_name(object o, const Field& f, std::string_view key) const { return name(required(o, f, key), f / key); }
  // A number that stays finite as a float (as read, for messages).
  double finite(element e, const Field& f) const {
    double d = 0;
    if (e.get_double().get(d) != simdjson::SUCCESS) invalid(f, std::string("is not a number (") + kind_of(e) + ")");
    constexpr double kFloatRoundingLimit = 0x1.ffffffp127;  // the smallest double rounding to infinity
    if (!(std::fabs(d) < kFloatRoundingLimit)) invalid(f, number_text(d) + " is beyond the float range");
    return d;
  }
  float number(element e, const Field& f) const { return static_cast<float>(finite(e, f)); }
  float non_negative(element e, const Field& f) const {
    const double d = finite(e, f);
    if (d < 0) invalid(f, number_text(d) + " is negative");
    return static_cast<float>(d);
  }
  bool boolean(element e, const Field& f) const {
    bool b = false;
    if (e.get_bool().get(b) != simdjson::SUCCESS) invalid(f, std::string("is not true or false (") + kind_of(e) + ")");
    return b;
  }
  template <class E>
  E word(element e, const Field& f, std::initializer_list<Word<E>> words) const {
    std::string list;
    for (const Word<E>& w : words) list += (list.empty() ? "" : ", ") + std::string(w.text);
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) invalid(f, std::string("is not a string (") + kind_of(e) + "; one of " + list + ")");
    for (const Word<E>& w : words) {
      if (w.text == s) return w.value;
    }
    invalid(f, quoted_name(s) + " is not one of " + list);
  }
  // A list of distinct names: sync markers.
  std::vector<std::string> markers(element e, const Field& f) const;

  void read_parameters(element e, GraphDescription& out) const;
  void read_nodes(element e, GraphDescription& out) const;
  GraphNode read_node(std::string_view node_name, element e) const;
  void read_clip(object o, const Field& f, GraphClipNode& out) const;
  void read_blend(object o, const Field& f, bool two_d, GraphBlendNode& out) const;
  GraphSync read_sync(element e, const Field& f) const;
  void read_layer(object o, const Field& f, GraphLayerNode& out) const;
  GraphLayerEntry read_layer_entry(element e, const Field& f) const;
  void read_mask(element e, const Field& f, GraphLayerEntry& out) const;
  void read_sync_node(object o, const Field& f, GraphSyncNode& out) const;
  void read_state_machine(object o, const Field& f, GraphStateMachineNode& out) const;
  GraphTransition read_transition(element e, const Field& f) const;
  GraphCondition read_condition(element e, const Field& f) const;

  std::string_view where_;
};

GraphDescription GraphReader::read(element document) const {
  object top;
  if (document.get_object().get(top) != simdjson::SUCCESS)
    refuse(ImportErrorCode::InvalidDocument, std::string("the document is not an object (a graph: {\"version\": 1, \"root\": ..., \"nodes\": {...}}; it is ") +
                                                 kind_of(document) + ")");
  const Field none;
  // The version first: a later version's members are not this reader's to judge.
  const element version = required(top, none, "version");
  std::int64_t v = 0;
  if (version.get_int64().get(v) != simdjson::SUCCESS)
    invalid(none / "version", std::string("is not an integer (") + kind_of(version) + "; this reader reads version 1)");
  if (v != kGraphVersion)
    refuse(ImportErrorCode::VersionMismatch, (none / "version").str() + ": version " + std::to_string(v) +
                                                 " is not supported (this reader reads version " + std::to_string(kGraphVersion) + ")");
  only(top, none, {"version", "parameters", "root", "nodes"}, "a graph");
  GraphDescription out;
  out.version = kGraphVersion;
  if (const auto parameters = member(top, "parameters")) read_parameters(*parameters, out);
  out.root = required_name(top, none, "root");
  read_nodes(required(top, none, "nodes"), out);
  return out;
}

void GraphReader::read_parameters(element e, GraphDescription& out) const {
  const Field f{{}, "parameters"};
  const object parameters = as_object(e, f, "{\"name\": {\"type\": ...}}");
  check_count(parameters.size(), kMaxGraphParameters, f, "parameters", "kMaxGraphParameters");
  std::unordered_set<std::string_view> names;
  for (const auto entry : parameters) {
    if (entry.key.empty()) invalid(f, "a parameter has an empty name");
    if (!names.insert(entry.key).second) invalid(f, "parameter " + quoted_name(entry.key) + " is named twice");
    const Field p{"parameter " + quoted_name(entry.key), {}};
    const object o = as_object(entry.value, p, "{\"type\": \"float\" | \"bool\" | \"trigger\", \"default\": ...}");
    only(o, p, {"type", "default"}, "a parameter");
    GraphParameter parameter{.name = std::string(entry.key)};
    parameter.type = word<GraphParameterType>(required(o, p, "type"), p / "type",
                                              {{"float", GraphParameterType::Float},
                                               {"bool", GraphParameterType::Bool},
                                               {"trigger", GraphParameterType::Trigger}});
    if (const auto value = member(o, "default")) {
      if (parameter.type == GraphParameterType::Trigger) invalid(p / "default", "a trigger has no default (it starts unset)");
      parameter.default_value = parameter.type == GraphParameterType::Bool ? (boolean(*value, p / "default") ? 1.f : 0.f)
                                                                           : number(*value, p / "default");
    }
    out.parameters.push_back(std::move(parameter));
  }
}

void GraphReader::read_nodes(element e, GraphDescription& out) const {
  const Field f{{}, "nodes"};
  const object nodes = as_object(e, f, "{\"name\": {\"type\": ...}}");
  check_count(nodes.size(), kMaxGraphNodes, f, "nodes", "kMaxGraphNodes");
  if (nodes.size() == 0) invalid(f, "the graph has no node");
  std::unordered_set<std::string_view> names;
  names.reserve(nodes.size());
  out.nodes.reserve(nodes.size());
  for (const auto entry : nodes) {
    if (entry.key.empty()) invalid(f, "a node has an empty name");
    if (!names.insert(entry.key).second) invalid(f, "node " + quoted_name(entry.key) + " is defined twice");
    out.nodes.push_back(read_node(entry.key, entry.value));
  }
}

GraphNode GraphReader::read_node(std::string_view node_name, element e) const {
  const Field f{"node " + quoted_name(node_name), {}};
  const object o = as_object(e, f, "a node: {\"type\": ...}");
  GraphNode node{.name = std::string(node_name)};
  node.kind = word<GraphNodeKind>(required(o, f, "type"), f / "type",
                                  {{"clip", GraphNodeKind::Clip},
                                   {"blend1d", GraphNodeKind::Blend1d},
                                   {"blend2d", GraphNodeKind::Blend2d},
                                   {"layer", GraphNodeKind::Layer},
                                   {"sync", GraphNodeKind::Sync},
                                   {"state_machine", GraphNodeKind::StateMachine}});
  switch (node.kind) {
    case GraphNodeKind::Clip: read_clip(o, f, node.clip); break;
    case GraphNodeKind::Blend1d: read_blend(o, f, false, node.blend); break;
    case GraphNodeKind::Blend2d: read_blend(o, f, true, node.blend); break;
    case GraphNodeKind::Layer: read_layer(o, f, node.layer); break;
    case GraphNodeKind::Sync: read_sync_node(o, f, node.sync); break;
    case GraphNodeKind::StateMachine: read_state_machine(o, f, node.state_machine); break;
  }
  return node;
}

void GraphReader::read_clip(object o, const Field& f, GraphClipNode& out) const {
  only(o, f, {"type", "clip", "rate", "loop", "start"}, "a clip node");
  out.clip = required_name(o, f, "clip");
  if (const auto rate = member(o, "rate")) out.rate = number(*rate, f / "rate");
  if (const auto loop = member(o, "loop"))
    out.loop = word<LoopMode>(*loop, f / "loop", {{"loop", LoopMode::Loop}, {"once", LoopMode::Once}, {"pingpong", LoopMode::PingPong}});
  if (const auto start = member(o, "start")) out.start = non_negative(*start, f / "start");
}

void GraphReader::read_blend(object o, const Field& f, bool two_d, GraphBlendNode& out) const {
  if (two_d) {
    only(o, f, {"type", "parameters", "sync", "samples"}, "a blend2d node");
    const Field pf = f / "parameters";
    const array parameters = as_array(required(o, f, "parameters"), pf, "two parameter names [x, y]");
    if (parameters.size() != 2) invalid(pf, "is not two parameter names [x, y] (it holds " + std::to_string(parameters.size()) + ")");
    std::size_t i = 0;
    for (const element p : parameters) out.parameters.push_back(name(p, pf[i++]));
  } else {
    only(o, f, {"type", "parameter", "sync", "samples"}, "a blend1d node");
    out.parameters = {required_name(o, f, "parameter")};
  }
  if (const auto sync = member(o, "sync")) out.sync = read_sync(*sync, f / "sync");
  const Field sf = f / "samples";
  const array samples = as_array(required(o, f, "samples"), sf, "[{\"node\": ..., \"at\": ...}, ...]");
  check_count(samples.size(), kMaxGraphBlendSamples, sf, "samples", "kMaxGraphBlendSamples");
  if (samples.size() == 0) invalid(sf, "the blend has no sample");
  std::size_t i = 0;
  for (const element s : samples) {
    const Field item = sf[i++];
    const object so = as_object(s, item, "{\"node\": ..., \"at\": ...}");
    only(so, item, {"node", "at"}, "a blend sample");
    GraphBlendSample sample{.node = required_name(so, item, "node")};
    const element at = required(so, item, "at");
    if (two_d) {
      const Field af = item / "at";
      array xy;
      if (at.get_array().get(xy) != simdjson::SUCCESS || xy.size() != 2) invalid(af, "is not an array of two numbers [x, y]");
      std::size_t k = 0;
      for (const element c : xy) {
        sample.at[static_cast<glm::length_t>(k)] = number(c, af[k]);
        ++k;
      }
    } else {
      sample.at = {number(at, item / "at"), 0.f};
    }
    out.samples.push_back(std::move(sample));
  }
}

GraphSync GraphReader::read_sync(element e, const Field& f) const {
  bool enabled = false;
  if (e.get_bool().get(enabled) == simdjson::SUCCESS) return {.enabled = enabled};
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS)
    invalid(f, std::string("is not true, false or {\"markers\": [...]} (") + kind_of(e) + ")");
  only(o, f, {"markers"}, "a marker sync");
  return {.enabled = true, .markers = markers(required(o, f, "markers"), f / "markers")};
}

std::vector<std::string> GraphReader::markers(element e, const Field& f) const {
  const array list = as_array(e, f, "marker names");
  check_count(list.size(), kMaxGraphSyncMarkers, f, "markers", "kMaxGraphSyncMarkers");
  if (list.size() == 0) invalid(f, "names no marker (leave the markers out for phase sync)");
  std::vector<std::string> out;
  std::size_t i = 0;
  for (const element m : list) {
    std::string marker = name(m, f[i++]);
    for (const std::string& earlier : out) {
      if (earlier == marker) invalid(f, "marker " + quoted_name(marker) + " is named twice");
    }
    out.push_back(std::move(marker));
  }
  return out;
}

void GraphReader::read_layer(object o, const Field& f, GraphLayerNode& out) const {
  only(o, f, {"type", "base", "layers"}, "a layer node");
  out.base = required_name(o, f, "base");
  const Field lf = f / "layers";
  const array layers = as_array(required(o, f, "layers"), lf, "[{\"node\": ..., \"weight\": ...}, ...]");
  check_count(layers.size(), kMaxGraphLayers, lf, "layers", "kMaxGraphLayers");
  if (layers.size() == 0) invalid(lf, "the layer node has no layer (use its base instead)");
  std::size_t i = 0;
  for (const element layer : layers) out.layers.push_back(read_layer_entry(layer, lf[i++]));
}

GraphLayerEntry GraphReader::read_layer_entry(element e, const Field& f) const {
  const object o = as_object(e, f, "{\"node\": ..., \"weight\": ..., \"mode\": ..., \"mask\": ...}");
  only(o, f, {"node", "weight", "mode", "mask"}, "a layer");
  GraphLayerEntry out{.node = required_name(o, f, "node")};
  if (const auto weight = member(o, "weight")) {
    if (weight->is_string()) {
      out.weight_parameter = name(*weight, f / "weight");
    } else if (weight->is_number()) {
      out.weight = non_negative(*weight, f / "weight");
    } else {
      invalid(f / "weight", std::string("is not a number or a parameter name (") + kind_of(*weight) + ")");
    }
  }
  if (const auto mode = member(o, "mode"))
    out.mode = word<GraphLayerMode>(*mode, f / "mode", {{"override", GraphLayerMode::Override}, {"additive", GraphLayerMode::Additive}});
  if (const auto mask = member(o, "mask")) read_mask(*mask, f / "mask", out);
  return out;
}

void GraphReader::read_mask(element e, const Field& f, GraphLayerEntry& out) const {
  if (e.is_string()) {
    out.mask_root = name(e, f);
    return;
  }
  object weights;
  if (e.get_object().get(weights) != simdjson::SUCCESS)
    invalid(f, std::string("is not a node name or an object of {\"node\": weight} (") + kind_of(e) + ")");
  check_count(weights.size(), kMaxGraphMaskEntries, f, "mask entries", "kMaxGraphMaskEntries");
  if (weights.size() == 0) invalid(f, "the mask names no node");
  std::unordered_set<std::string_view> names;
  for (const auto entry : weights) {
    if (entry.key.empty()) invalid(f, "a mask entry has an empty node name");
    if (!names.insert(entry.key).second) invalid(f, "node " + quoted_name(entry.key) + " is named twice");
    out.mask_weights.emplace_back(std::string(entry.key), non_negative(entry.value, f / entry.key));
  }
}

void GraphReader::read_sync_node(object o, const Field& f, GraphSyncNode& out) const {
  only(o, f, {"type", "node", "markers"}, "a sync node");
  out.node = required_name(o, f, "node");
  out.sync = {.enabled = true};
  if (const auto list = member(o, "markers")) out.sync.markers = markers(*list, f / "markers");
}

void GraphReader::read_state_machine(object o, const Field& f, GraphStateMachineNode& out) const {
  only(o, f, {"type", "initial", "states", "transitions"}, "a state_machine node");
  out.initial = required_name(o, f, "initial");
  const Field sf = f / "states";
  const object states = as_object(required(o, f, "states"), sf, "{\"state\": \"node\"}");
  check_count(states.size(), kMaxGraphStates, sf, "states", "kMaxGraphStates");
  if (states.size() == 0) invalid(sf, "the state machine has no state");
  std::unordered_set<std::string_view> names;
  for (const auto entry : states) {
    if (entry.key.empty()) invalid(sf, "a state has an empty name");
    if (entry.key == "*") invalid(sf, "\"*\" is not a state name (a transition from \"*\" leaves any state)");
    if (!names.insert(entry.key).second) invalid(sf, "state " + quoted_name(entry.key) + " is named twice");
    out.states.emplace_back(std::string(entry.key), name(entry.value, sf / entry.key));
  }
  if (const auto transitions = member(o, "transitions")) {
    const Field tf = f / "transitions";
    const array list = as_array(*transitions, tf, "[{\"from\": ..., \"to\": ...}, ...]");
    check_count(list.size(), kMaxGraphTransitions, tf, "transitions", "kMaxGraphTransitions");
    std::size_t i = 0;
    for (const element t : list) out.transitions.push_back(read_transition(t, tf[i++]));
  }
}

GraphTransition GraphReader::read_transition(element e, const Field& f) const {
  const object o = as_object(e, f, "{\"from\": ..., \"to\": ...}");
  only(o, f, {"from", "to", "conditions", "exit_time", "duration", "blend"}, "a transition");
  GraphTransition out{.from = required_name(o, f, "from"), .to = required_name(o, f, "to")};
  if (out.to == "*") invalid(f / "to", "a transition goes to one state (\"*\" stands for any state in \"from\" only)");
  if (const auto conditions = member(o, "conditions")) {
    const Field cf = f / "conditions";
    const array list = as_array(*conditions, cf, "[{\"trigger\": ...} or {\"parameter\": ..., \"op\": ..., \"value\": ...}, ...]");
    check_count(list.size(), kMaxGraphConditions, cf, "conditions", "kMaxGraphConditions");
    std::size_t i = 0;
    for (const element c : list) out.conditions.push_back(read_condition(c, cf[i++]));
  }
  if (const auto exit_time = member(o, "exit_time")) out.exit_time = non_negative(*exit_time, f / "exit_time");
  if (const auto duration = member(o, "duration")) out.duration = non_negative(*duration, f / "duration");
  if (const auto blend = member(o, "blend"))
    out.blend = word<GraphBlendMode>(*blend, f / "blend", {{"crossfade", GraphBlendMode::Crossfade}, {"inertialize", GraphBlendMode::Inertialize}});
  return out;
}

GraphCondition GraphReader::read_condition(element e, const Field& f) const {
  const object o = as_object(e, f, "{\"trigger\": ...} or {\"parameter\": ..., \"op\": ..., \"value\": ...}");
  if (const auto trigger = member(o, "trigger")) {
    only(o, f, {"trigger"}, "a trigger condition");
    return {.parameter = name(*trigger, f / "trigger"), .op = GraphConditionOp::Trigger};
  }
  if (!member(o, "parameter")) invalid(f, "names no \"trigger\" or \"parameter\"");
  only(o, f, {"parameter", "op", "value"}, "a parameter condition");
  GraphCondition out{.parameter = required_name(o, f, "parameter"), .op = GraphConditionOp::Equal, .value = 1.f};
  if (const auto op = member(o, "op"))
    out.op = word<GraphConditionOp>(*op, f / "op",
                                    {{">", GraphConditionOp::Greater}, {">=", GraphConditionOp::GreaterEqual},
                                     {"<", GraphConditionOp::Less}, {"<=", GraphConditionOp::LessEqual},
                                     {"==", GraphConditionOp::Equal}, {"!=", GraphConditionOp::NotEqual}});
  if (const auto value = member(o, "value")) {
    if (value->is_bool()) {
      out.value = boolean(*value, f / "value") ? 1.f : 0.f;
    } else if (value->is_number()) {
      out.value = number(*value, f / "value");
    } else {
      invalid(f / "value", std::string("is not a number, true or false (") + kind_of(*value) + ")");
    }
  }
  return out;
}

}  // namespace

GraphDescription parse_graph(std::span<const std::byte> json, const ImportLimits& limits, std::string_view where) {
  const GraphReader reader(where);
  check_file_size(json.size(), limits, where);
  if (json.empty()) reader.refuse(ImportErrorCode::EmptyFile, "the file is empty");
  std::string_view text(reinterpret_cast<const char*>(json.data()), json.size());
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  simdjson::dom::parser parser;
  // simdjson counts the document itself as a level: "[1]" needs depth 2.
  if (parser.allocate(std::max<std::size_t>(text.size(), 1), kGraphJsonDepth + 1) != simdjson::SUCCESS)
    reader.refuse(ImportErrorCode::LimitExceeded, "cannot allocate a parser");
  const simdjson::padded_string padded(text);
  element document;
  const simdjson::error_code error = parser.parse(padded).get(document);
  if (error == simdjson::DEPTH_ERROR)
    reader.refuse(ImportErrorCode::InvalidJson, "nested deeper than a graph file's " + std::to_string(kGraphJsonDepth) + " levels of objects and arrays");
  if (error != simdjson::SUCCESS) reader.refuse(ImportErrorCode::InvalidJson, std::string("not well-formed JSON: ") + simdjson::error_message(error));
  return reader.read(document);
}

GraphDescription read_graph_file(const std::filesystem::path& path, const ImportLimits& limits) {
  const FileBytes bytes = read_file(path, limits);
  return parse_graph(bytes.bytes(), limits, path.string());
}

}  // namespace marrow
