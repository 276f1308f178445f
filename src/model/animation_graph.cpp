#include "marrow/model/animation_graph.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "marrow/core/quoted_name.hpp"
#include "marrow/runtime/joint_mask.hpp"

namespace marrow {

namespace {

std::string kind_name(GraphParameterType type) {
  switch (type) {
    case GraphParameterType::Float: return "a float";
    case GraphParameterType::Bool: return "a bool";
    case GraphParameterType::Trigger: return "a trigger";
  }
  return "?";
}

}  // namespace

// Unfolds a description into an AnimationGraph's places, checking each node as it goes.
class GraphCompiler {
 public:
  GraphCompiler(AnimationGraph& graph, const Model& model) : g_(graph), model_(model) {}

  void run() {
    const GraphDescription& d = g_.description_;
    if (d.version != kGraphVersion)
      fail_graph("version", "version " + std::to_string(d.version) + " is not supported (this reader reads version " +
                                std::to_string(kGraphVersion) + ")");
    for (std::size_t i = 0; i < d.parameters.size(); ++i) {
      const GraphParameter& p = d.parameters[i];
      const std::string field = "parameters[" + std::to_string(i) + "]";
      if (p.name.empty()) fail_graph(field, "a parameter has no name");
      if (!parameters_.emplace(p.name, static_cast<int>(i)).second) fail_graph(field, "parameter " + quoted_name(p.name) + " is declared twice");
      if (!std::isfinite(p.default_value)) fail_graph(field, "the default of " + quoted_name(p.name) + " is not finite");
    }
    for (std::size_t i = 0; i < d.nodes.size(); ++i) {
      const GraphNode& n = d.nodes[i];
      if (n.name.empty()) fail_graph("nodes[" + std::to_string(i) + "]", "a node has no name");
      if (!nodes_.emplace(n.name, static_cast<int>(i)).second) fail_graph("nodes", "node " + quoted_name(n.name) + " is declared twice");
    }
    if (d.root.empty()) fail_graph("root", "no root node is named");
    const auto root = nodes_.find(d.root);
    if (root == nodes_.end()) fail_graph("root", "no node is named " + quoted_name(d.root));
    unfold(root->second, -1, 0);
    if (g_.slot_places_.empty()) fail_graph("root", "the graph plays no clip");
    assign_sync_roots();
    mark_machines();
    collect_markers();
  }

 private:
  [[noreturn]] void fail_graph(const std::string& field, const std::string& what) const {
    throw std::invalid_argument("graph field \"" + field + "\": " + what);
  }
  [[noreturn]] void fail(int node, const std::string& field, const std::string& what) const {
    const std::string where = field.empty() ? "" : ", field \"" + field + "\"";  // a cycle is no one field's
    throw std::invalid_argument("graph node " + quoted_name(g_.description_.nodes[static_cast<std::size_t>(node)].name) + where + ": " + what);
  }

  int node_ref(int node, const std::string& field, const std::string& name) const {
    const auto it = nodes_.find(name);
    if (it == nodes_.end()) fail(node, field, "no node is named " + quoted_name(name));
    return it->second;
  }

  // A parameter of one of the allowed types.
  int parameter_ref(int node, const std::string& field, const std::string& name, bool float_only) const {
    const auto it = parameters_.find(name);
    if (it == parameters_.end()) fail(node, field, "no parameter is named " + quoted_name(name));
    const GraphParameterType type = g_.description_.parameters[static_cast<std::size_t>(it->second)].type;
    if (float_only && type != GraphParameterType::Float)
      fail(node, field, "parameter " + quoted_name(name) + " is " + kind_name(type) + ", not a float");
    return it->second;
  }

  int scene_node_ref(int node, const std::string& field, const std::string& name) const {
    const int found = model_.find_node(name);
    if (found < 0) fail(node, field, "the model has no node named " + quoted_name(name));
    return found;
  }

  std::uint32_t unfold(int node, int parent, std::uint32_t depth) {
    if (depth >= kMaxGraphDepth) fail(node, "", "the graph nests deeper than " + std::to_string(kMaxGraphDepth) + " places");
    if (g_.places_.size() >= kMaxGraphPlaces)
      fail(node, "", "the graph unfolds to more than " + std::to_string(kMaxGraphPlaces) +
                         " places (a node is played in one place per path to it)");
    if (std::find(path_.begin(), path_.end(), node) != path_.end()) {
      std::string cycle;
      for (auto it = std::find(path_.begin(), path_.end(), node); it != path_.end(); ++it)
        cycle += quoted_name(g_.description_.nodes[static_cast<std::size_t>(*it)].name) + " -> ";
      fail(path_.back(), "", "the nodes make a cycle: " + cycle + quoted_name(g_.description_.nodes[static_cast<std::size_t>(node)].name));
    }
    const auto index = static_cast<std::uint32_t>(g_.places_.size());
    g_.places_.emplace_back();
    GraphPlace place;
    place.node = node;
    place.parent = parent;
    place.depth = depth;
    const GraphNode& n = g_.description_.nodes[static_cast<std::size_t>(node)];
    place.kind = n.kind;
    std::vector<std::pair<int, std::string>> children;  // node, field
    switch (n.kind) {
      case GraphNodeKind::Clip: compile_clip(node, n.clip, place, index); break;
      case GraphNodeKind::Blend1d:
      case GraphNodeKind::Blend2d: compile_blend(node, n, place, children); break;
      case GraphNodeKind::Layer: compile_layer(node, n.layer, place, children); break;
      case GraphNodeKind::StateMachine: compile_machine(node, n.state_machine, place, children); break;
      case GraphNodeKind::Sync:
        children.emplace_back(node_ref(node, "node", n.sync.node), "node");
        place.sync = true;
        compile_sync(node, n.sync.sync, "markers", place);
        break;
    }
    path_.push_back(node);
    std::vector<std::uint32_t> child_places;
    child_places.reserve(children.size());
    for (const auto& child : children) child_places.push_back(unfold(child.first, static_cast<int>(index), depth + 1));
    path_.pop_back();
    place.first_child = static_cast<std::uint32_t>(g_.children_.size());
    place.child_count = static_cast<std::uint32_t>(child_places.size());
    g_.children_.insert(g_.children_.end(), child_places.begin(), child_places.end());
    g_.places_[index] = std::move(place);
    return index;
  }

  void compile_clip(int node, const GraphClipNode& clip, GraphPlace& place, std::uint32_t index) {
    place.animation = model_.find_animation(clip.clip);
    if (place.animation < 0) {
      std::string names;
      for (std::size_t i = 0; i < model_.animations.size() && i < 8; ++i) names += (i > 0 ? ", " : "") + quoted_name(model_.animations[i].name);
      if (model_.animations.size() > 8) names += ", ...";
      fail(node, "clip", "the model has no animation named " + quoted_name(clip.clip) + " (it has " + (names.empty() ? "none" : names) + ")");
    }
    if (!std::isfinite(clip.rate)) fail(node, "rate", "is not finite");
    place.duration = model_.animations[static_cast<std::size_t>(place.animation)].duration;
    if (!std::isfinite(clip.start) || clip.start < 0.f || ticks_from_seconds(clip.start) > place.duration)
      fail(node, "start", std::to_string(clip.start) + " s is outside the clip's [0, " +
                              std::to_string(seconds_from_ticks(place.duration)) + "] s");
    if (g_.slot_places_.size() >= kMaxGraphSlots)
      fail(node, "", "the graph plays more than " + std::to_string(kMaxGraphSlots) + " clip places");
    place.loop = clip.loop;
    place.rate = clip.rate;
    place.start = ticks_from_seconds(clip.start);
    place.slot = static_cast<int>(g_.slot_places_.size());
    g_.slot_places_.push_back(index);
  }

  void compile_sync(int node, const GraphSync& sync, const std::string& field, GraphPlace& place) {
    if (!sync.enabled) return;
    place.sync = true;
    if (sync.markers.empty()) return;
    for (std::size_t i = 0; i < sync.markers.size(); ++i) {
      if (sync.markers[i].empty()) fail(node, field + "[" + std::to_string(i) + "]", "a marker name is empty");
      for (std::size_t k = 0; k < i; ++k)
        if (sync.markers[k] == sync.markers[i]) fail(node, field, "marker " + quoted_name(sync.markers[i]) + " is named twice");
    }
    place.marker_set = static_cast<int>(g_.marker_sets_.size());
    g_.marker_sets_.push_back(GraphMarkerSet{sync.markers});
  }

  void compile_blend(int node, const GraphNode& n, GraphPlace& place, std::vector<std::pair<int, std::string>>& children) {
    const GraphBlendNode& b = n.blend;
    const bool two = n.kind == GraphNodeKind::Blend2d;
    const std::size_t wanted = two ? 2 : 1;
    if (b.parameters.size() != wanted)
      fail(node, two ? "parameters" : "parameter", std::to_string(b.parameters.size()) + " parameters (a " +
                                                      (two ? std::string("blend2d takes two") : std::string("blend1d takes one")) + ")");
    for (std::size_t i = 0; i < wanted; ++i)
      place.parameters[i] = parameter_ref(node, two ? "parameters[" + std::to_string(i) + "]" : "parameter", b.parameters[i], true);
    if (b.samples.empty()) fail(node, "samples", "a blend needs at least one sample");
    for (std::size_t i = 0; i < b.samples.size(); ++i) {
      const std::string field = "samples[" + std::to_string(i) + "]";
      children.emplace_back(node_ref(node, field + ".node", b.samples[i].node), field + ".node");
      if (!std::isfinite(b.samples[i].at.x) || !std::isfinite(b.samples[i].at.y)) fail(node, field + ".at", "is not finite");
    }
    if (two) {
      std::vector<glm::vec2> points;
      for (const GraphBlendSample& s : b.samples) points.push_back(s.at);
      try {
        place.space = std::make_shared<const BlendSpace2d>(points);
      } catch (const std::invalid_argument& e) {
        fail(node, "samples", e.what());  // AG2: coincident samples, or all on one line
      }
    } else {
      for (const GraphBlendSample& s : b.samples) place.positions.push_back(s.at.x);
      for (std::size_t i = 1; i < place.positions.size(); ++i) {
        if (!(place.positions[i] > place.positions[i - 1]))
          fail(node, "samples[" + std::to_string(i) + "].at", "positions must increase strictly (" + std::to_string(place.positions[i]) +
                                                                 " after " + std::to_string(place.positions[i - 1]) + ")");
      }
    }
    compile_sync(node, b.sync, "sync.markers", place);
  }

  void compile_layer(int node, const GraphLayerNode& l, GraphPlace& place, std::vector<std::pair<int, std::string>>& children) {
    children.emplace_back(node_ref(node, "base", l.base), "base");
    for (std::size_t i = 0; i < l.layers.size(); ++i) {
      const GraphLayerEntry& e = l.layers[i];
      const std::string field = "layers[" + std::to_string(i) + "]";
      children.emplace_back(node_ref(node, field + ".node", e.node), field + ".node");
      GraphPlace::Layer layer;
      layer.mode = e.mode;
      if (!std::isfinite(e.weight) || e.weight < 0.f) fail(node, field + ".weight", "is negative or not finite");
      layer.weight = e.weight;
      if (!e.weight_parameter.empty()) layer.weight_parameter = parameter_ref(node, field + ".weight", e.weight_parameter, true);
      if (!e.mask_root.empty() && !e.mask_weights.empty()) fail(node, field + ".mask", "is both a subtree and per-node weights");
      if (!e.mask_root.empty()) {
        std::vector<int> parents(model_.nodes.size());
        for (std::size_t k = 0; k < parents.size(); ++k) parents[k] = model_.nodes[k].parent;
        layer.mask = subtree_mask(parents, scene_node_ref(node, field + ".mask", e.mask_root));
      } else if (!e.mask_weights.empty()) {
        layer.mask.assign(model_.nodes.size(), 0.f);
        for (const auto& [name, weight] : e.mask_weights) {
          const int scene = scene_node_ref(node, field + ".mask", name);
          if (!(weight >= 0.f && weight <= 1.f)) fail(node, field + ".mask", "the weight of " + quoted_name(name) + " is not in [0, 1]");
          layer.mask[static_cast<std::size_t>(scene)] = weight;
        }
      }
      place.layers.push_back(std::move(layer));
    }
  }

  void compile_machine(int node, const GraphStateMachineNode& m, GraphPlace& place,
                       std::vector<std::pair<int, std::string>>& children) {
    GraphMachine machine;
    if (m.states.empty()) fail(node, "states", "a state machine needs at least one state");
    for (const auto& [state, target] : m.states) {
      const std::string field = "states." + std::string(state.substr(0, 60));
      if (state.empty() || state == "*") fail(node, "states", "a state is named " + quoted_name(state));
      if (std::find(machine.state_names.begin(), machine.state_names.end(), state) != machine.state_names.end())
        fail(node, "states", "state " + quoted_name(state) + " is declared twice");
      machine.state_names.push_back(state);
      children.emplace_back(node_ref(node, field, target), field);
    }
    const auto state_index = [&](const std::string& field, const std::string& name) {
      const auto it = std::find(machine.state_names.begin(), machine.state_names.end(), name);
      if (it == machine.state_names.end()) fail(node, field, "no state is named " + quoted_name(name));
      return static_cast<int>(it - machine.state_names.begin());
    };
    machine.initial = state_index("initial", m.initial);
    for (std::size_t i = 0; i < m.transitions.size(); ++i) {
      const GraphTransition& t = m.transitions[i];
      const std::string field = "transitions[" + std::to_string(i) + "]";
      GraphPlaceTransition out;
      out.from = t.from == "*" ? -1 : state_index(field + ".from", t.from);
      out.to = state_index(field + ".to", t.to);
      if (t.exit_time && (!std::isfinite(*t.exit_time) || *t.exit_time < 0.f)) fail(node, field + ".exit_time", "is negative or not finite");
      out.exit_time = t.exit_time ? *t.exit_time : -1.f;
      if (!std::isfinite(t.duration) || t.duration < 0.f) fail(node, field + ".duration", "is negative or not finite");
      out.duration = t.duration;
      out.blend = t.blend;
      g_.has_inertialization_ |= t.blend == GraphBlendMode::Inertialize && t.duration > 0.f;
      for (std::size_t c = 0; c < t.conditions.size(); ++c)
        out.conditions.push_back(compile_condition(node, field + ".conditions[" + std::to_string(c) + "]", t.conditions[c]));
      machine.transitions.push_back(std::move(out));
    }
    place.machine = static_cast<int>(g_.machines_.size());
    g_.machines_.push_back(std::move(machine));
  }

  GraphPlaceCondition compile_condition(int node, const std::string& field, const GraphCondition& c) const {
    const int p = parameter_ref(node, field + ".parameter", c.parameter, false);
    const GraphParameterType type = g_.description_.parameters[static_cast<std::size_t>(p)].type;
    const bool trigger_op = c.op == GraphConditionOp::Trigger;
    if ((type == GraphParameterType::Trigger) != trigger_op)
      fail(node, field, trigger_op ? "parameter " + quoted_name(c.parameter) + " is " + kind_name(type) + ", not a trigger"
                                   : "trigger " + quoted_name(c.parameter) + " can only be fired, not compared");
    if (type == GraphParameterType::Bool && c.op != GraphConditionOp::Equal && c.op != GraphConditionOp::NotEqual)
      fail(node, field + ".op", "a bool is compared with == or != only");
    if (!std::isfinite(c.value)) fail(node, field + ".value", "is not finite");
    return GraphPlaceCondition{p, c.op, c.value};
  }

  // Children come after their parents: one backward pass marks every ancestor of a machine.
  void mark_machines() {
    for (std::size_t i = g_.places_.size(); i-- > 0;) {
      GraphPlace& place = g_.places_[i];
      place.machine_below |= place.kind == GraphNodeKind::StateMachine;
      if (place.machine_below && place.parent >= 0) g_.places_[static_cast<std::size_t>(place.parent)].machine_below = true;
    }
  }

  void assign_sync_roots() {
    // Places come parents first (depth-first order).
    for (GraphPlace& place : g_.places_) {
      const int parent = place.parent;
      const GraphPlace* up = parent >= 0 ? &g_.places_[static_cast<std::size_t>(parent)] : nullptr;
      const bool inherits = up != nullptr && up->kind != GraphNodeKind::StateMachine && up->sync_root >= 0;
      if (inherits) {
        place.sync_root = up->sync_root;
      } else if (place.sync) {
        place.sync_root = static_cast<int>(&place - g_.places_.data());
      }
    }
  }

  // AG5: each clip under a marker-synced place holds the set's markers once each, in its
  // cyclic order; kept per slot from the set's first name on.
  void collect_markers() {
    g_.slot_markers_.resize(g_.slot_places_.size());
    for (std::size_t slot = 0; slot < g_.slot_places_.size(); ++slot) {
      const GraphPlace& place = g_.places_[g_.slot_places_[slot]];
      if (place.sync_root < 0) continue;
      const GraphPlace& root = g_.places_[static_cast<std::size_t>(place.sync_root)];
      if (root.marker_set < 0) continue;
      const std::vector<std::string>& names = g_.marker_sets_[static_cast<std::size_t>(root.marker_set)].names;
      const ModelAnimation& clip = model_.animations[static_cast<std::size_t>(place.animation)];
      std::vector<const AnimationMarker*> found;
      for (const AnimationMarker& m : clip.markers) {
        if (std::find(names.begin(), names.end(), m.name) != names.end()) found.push_back(&m);
      }
      const std::string where = "marker sync of clip " + quoted_name(clip.name);
      if (found.size() != names.size())
        fail(root.node, "sync.markers", where + ": it holds " + std::to_string(found.size()) + " of the " + std::to_string(names.size()) +
                                            " markers (each once)");
      std::size_t first = 0;
      while (first < found.size() && found[first]->name != names[0]) ++first;
      if (first == found.size()) fail(root.node, "sync.markers", where + ": it has no marker " + quoted_name(names[0]));
      std::vector<Ticks>& times = g_.slot_markers_[slot];
      for (std::size_t k = 0; k < names.size(); ++k) {
        const AnimationMarker& m = *found[(first + k) % found.size()];
        if (m.name != names[k]) fail(root.node, "sync.markers", where + ": its markers are not in the order the sync names them");
        times.push_back(m.time);
      }
      // Each segment between consecutive markers (the last one around the seam) has a length.
      bool distinct = found.back()->time - found.front()->time < clip.duration;
      for (std::size_t k = 1; k < found.size(); ++k) distinct &= found[k]->time > found[k - 1]->time;
      if (!distinct) fail(root.node, "sync.markers", where + ": two of its markers leave no time between them");
    }
  }

  AnimationGraph& g_;
  const Model& model_;
  std::unordered_map<std::string, int> parameters_, nodes_;
  std::vector<int> path_;
};

AnimationGraph::AnimationGraph(const GraphDescription& description, const Model& model) : model_(&model), description_(description) {
  GraphCompiler(*this, model).run();
}

int AnimationGraph::find_parameter(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < description_.parameters.size(); ++i) {
    if (description_.parameters[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace marrow
