#include "marrow/model/graph_instance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "marrow/runtime/blend_space.hpp"

namespace marrow {

namespace {

bool has_masked_layer(const GraphPlace& place) {
  return std::any_of(place.layers.begin(), place.layers.end(), [](const GraphPlace::Layer& l) { return !l.mask.empty(); });
}

}  // namespace

GraphInstance::GraphInstance(std::shared_ptr<const AnimationGraph> graph, Animator& animator)
    : graph_(std::move(graph)), animator_(&animator) {
  if (graph_ == nullptr) throw std::invalid_argument("GraphInstance: no graph");
  if (&animator.model() != &graph_->model()) throw std::invalid_argument("GraphInstance: the animator poses another model than the graph's");
  const std::span<const GraphPlace> places = graph_->places();
  for (const GraphParameter& p : graph_->parameters()) values_.push_back(p.type == GraphParameterType::Trigger ? 0.f : p.default_value);
  machines_.resize(graph_->machines().size());
  for (std::size_t m = 0; m < machines_.size(); ++m) machines_[m].active.reserve(graph_->machines()[m].state_names.size());
  sync_index_.assign(places.size(), -1);
  std::vector<int> mask_depth(places.size(), 0);  // masked layer places on the path, this one included
  int deepest = 0;
  for (std::size_t i = 0; i < places.size(); ++i) {
    const GraphPlace& place = places[i];
    const int above = place.parent >= 0 ? mask_depth[static_cast<std::size_t>(place.parent)] : 0;
    mask_depth[i] = above + (place.kind == GraphNodeKind::Layer && has_masked_layer(place) ? 1 : 0);
    deepest = std::max(deepest, mask_depth[i]);
    if (place.sync_root == static_cast<int>(i)) {
      sync_index_[i] = static_cast<int>(syncs_.size());
      syncs_.emplace_back();
    }
  }
  masks_.assign(static_cast<std::size_t>(deepest), std::vector<float>(graph_->model().nodes.size()));
  slots_.resize(graph_->slot_count());
  driven_.resize(slots_.size());
  reported_.resize(slots_.size());
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const GraphPlace& place = places[graph_->slot_places()[s]];
    if (mask_depth[graph_->slot_places()[s]] > 0) slots_[s].mask.resize(graph_->model().nodes.size());
    if (place.sync_root >= 0) syncs_[static_cast<std::size_t>(sync_index_[static_cast<std::size_t>(place.sync_root)])].slots.push_back(static_cast<std::uint32_t>(s));
    driven_[s].animation = place.animation;
    reported_[s].animation = place.animation;
  }
  child_weights_.assign(graph_->children().size(), 0.f);
  blend_inputs_.assign(places.size(), glm::vec2(std::numeric_limits<float>::quiet_NaN()));
  playing_.assign(places.size(), 0);
  if (graph_->has_inertialization()) animator.enable_inertialization();
  enter(0);
  weigh(0, 1.f, 1.f, false, -1, true);
  drive(Ticks{0}, true);  // sizes the Animator's layers: later updates allocate nothing
}

int GraphInstance::parameter(std::string_view name, const char* what) const {
  const int p = graph_->find_parameter(name);
  if (p < 0) throw std::out_of_range(std::string("GraphInstance::") + what + ": no parameter is named '" + std::string(name) + "'");
  return p;
}

void GraphInstance::set(std::string_view name, float value) {
  const int p = parameter(name, "set");
  const GraphParameterType type = graph_->parameters()[static_cast<std::size_t>(p)].type;
  if (type == GraphParameterType::Trigger)
    throw std::invalid_argument("GraphInstance::set: '" + std::string(name) + "' is a trigger: fire it");
  if (!std::isfinite(value)) throw std::invalid_argument("GraphInstance::set: '" + std::string(name) + "' = " + std::to_string(value) + " is not finite");
  values_[static_cast<std::size_t>(p)] = type == GraphParameterType::Bool ? (value != 0.f ? 1.f : 0.f) : value;
}

void GraphInstance::fire(std::string_view name) {
  const int p = parameter(name, "fire");
  if (graph_->parameters()[static_cast<std::size_t>(p)].type != GraphParameterType::Trigger)
    throw std::invalid_argument("GraphInstance::fire: '" + std::string(name) + "' is not a trigger");
  values_[static_cast<std::size_t>(p)] = 1.f;
}

float GraphInstance::get(std::string_view name) const { return values_[static_cast<std::size_t>(parameter(name, "get"))]; }

void GraphInstance::update(Ticks dt) noexcept {
  if (dt < Ticks{0}) dt = Ticks{0};
  for (DrivenClip& d : driven_) clear_step(d.step);  // each clock writes its step there (advance)
  inertialize_ = 0.f;
  take_transitions(0);
  if (inertialize_ > 0.f) {
    // AG4: B(0), the destination at its start, set against the last poses shown; then on.
    weigh(0, 1.f, 1.f, false, -1, true);
    animator_->inertialize(ticks_from_seconds(inertialize_));
    drive(Ticks{0}, true);
  }
  advance_fades(0, dt);
  weigh(0, 1.f, 1.f, false, -1, true);
  advance(0, dt);
  drive(dt, false);
}

void GraphInstance::drive(Ticks dt, bool still) {
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const Slot& slot = slots_[s];
    DrivenClip& d = driven_[s];
    d.time = slot.clock.time();
    if (still) clear_step(d.step);  // else the step advance() wrote
    d.weight = slot.weight;
    d.additive = slot.additive;
    d.node_weights = slot.masked ? std::span<const float>(slot.mask) : std::span<const float>();
    reported_[s].weight = slot.reported;
    reported_[s].additive = slot.additive;
  }
  // Every clip was checked when the graph was made, every weight is finite and >= 0 and every
  // mask is the model's nodes' by construction: drive()'s checks would refuse nothing.
  try {
    animator_->pose_driven(driven_, dt);
  } catch (...) {
    // It allocates only when the layers grow, which the constructor's drive did once for all.
  }
}

// --- Entering places --------------------------------------------------------------------------

void GraphInstance::enter(std::size_t index) {
  const GraphPlace& place = graph_->places()[index];
  if (place.kind == GraphNodeKind::Clip) {
    Slot& slot = slots_[static_cast<std::size_t>(place.slot)];
    slot.clock = PlaybackClock(place.duration, place.rate, place.loop, place.start);
    slot.progress = 0.0;
    clear_step(driven_[static_cast<std::size_t>(place.slot)].step);
  } else if (place.kind == GraphNodeKind::StateMachine) {
    Machine& m = machines_[static_cast<std::size_t>(place.machine)];
    const int initial = graph_->machines()[static_cast<std::size_t>(place.machine)].initial;
    m.active.clear();
    m.active.push_back(Active{initial, 1.f, 1.f});
    m.elapsed = m.duration = 0.f;
    enter(graph_->children()[place.first_child + static_cast<std::uint32_t>(initial)]);
  } else {
    for (std::uint32_t c = 0; c < place.child_count; ++c) enter(graph_->children()[place.first_child + c]);
  }
  if (sync_index_[index] >= 0) place_members(index);
}

// --- Transitions (AG3) ------------------------------------------------------------------------

void GraphInstance::take_transitions(std::size_t index) {
  const GraphPlace& place = graph_->places()[index];
  if (!place.machine_below) return;  // no transition down there (a blend's clips, each frame)
  if (place.kind == GraphNodeKind::StateMachine) {
    const GraphMachine& machine = graph_->machines()[static_cast<std::size_t>(place.machine)];
    const Machine& m = machines_[static_cast<std::size_t>(place.machine)];
    const int current = m.active.back().state;
    double time = 0.0;  // the current state's normalized time, found once an exit time asks
    bool timed = false;
    for (const GraphPlaceTransition& t : machine.transitions) {
      if (t.exit_time >= 0.f && !timed && (t.from < 0 || t.from == current)) {
        time = normalized_time(graph_->children()[place.first_child + static_cast<std::uint32_t>(current)]);
        timed = true;
      }
      if (!transition_holds(t, current, time)) continue;
      start_transition(index, t);
      break;  // one per machine per update
    }
    // Then the machines inside what now plays.
    for (const Active& a : machines_[static_cast<std::size_t>(place.machine)].active)
      take_transitions(graph_->children()[place.first_child + static_cast<std::uint32_t>(a.state)]);
    return;
  }
  for (std::uint32_t c = 0; c < place.child_count; ++c) take_transitions(graph_->children()[place.first_child + c]);
}

bool GraphInstance::transition_holds(const GraphPlaceTransition& t, int current, double source_time) const noexcept {
  if (t.from >= 0 && t.from != current) return false;
  bool fired = false;
  for (const GraphPlaceCondition& c : t.conditions) {
    const float v = values_[static_cast<std::size_t>(c.parameter)];
    bool holds = false;
    switch (c.op) {
      case GraphConditionOp::Trigger: holds = v != 0.f, fired |= holds; break;
      case GraphConditionOp::Greater: holds = v > c.value; break;
      case GraphConditionOp::GreaterEqual: holds = v >= c.value; break;
      case GraphConditionOp::Less: holds = v < c.value; break;
      case GraphConditionOp::LessEqual: holds = v <= c.value; break;
      case GraphConditionOp::Equal: holds = v == c.value; break;
      case GraphConditionOp::NotEqual: holds = v != c.value; break;
    }
    if (!holds) return false;
  }
  if (t.exit_time >= 0.f && source_time < static_cast<double>(t.exit_time)) return false;
  // A state does not transition to itself unless a trigger asks it to.
  return t.to != current || fired;
}

void GraphInstance::start_transition(std::size_t index, const GraphPlaceTransition& t) {
  for (const GraphPlaceCondition& c : t.conditions) {
    if (c.op == GraphConditionOp::Trigger) values_[static_cast<std::size_t>(c.parameter)] = 0.f;  // consumed
  }
  const GraphPlace& place = graph_->places()[index];
  Machine& m = machines_[static_cast<std::size_t>(place.machine)];
  const bool fade = t.blend == GraphBlendMode::Crossfade && t.duration > 0.f;
  if (!fade) {
    m.active.clear();
    if (t.blend == GraphBlendMode::Inertialize && t.duration > 0.f) inertialize_ = std::max(inertialize_, t.duration);
  } else {
    // B4: what shows keeps its weight at the switch, scaled by 1 - u; a state re-entered while
    // it fades out restarts, its fading part dropped (the others renormalized).
    std::erase_if(m.active, [&](const Active& a) { return a.state == t.to || a.weight <= 0.f; });
    float total = 0.f;
    for (const Active& a : m.active) total += a.weight;
    for (Active& a : m.active) a.from = total > 0.f ? a.weight / total : 0.f;
  }
  m.active.push_back(Active{t.to, 0.f, m.active.empty() ? 1.f : 0.f});
  m.elapsed = 0.f;
  m.duration = fade ? t.duration : 0.f;
  enter(graph_->children()[place.first_child + static_cast<std::uint32_t>(t.to)]);
}

// --- Normalized time --------------------------------------------------------------------------

double GraphInstance::normalized_time(std::size_t index) const noexcept {
  const GraphPlace& place = graph_->places()[index];
  if (sync_index_[index] >= 0) {
    const Sync& sync = syncs_[static_cast<std::size_t>(sync_index_[index])];
    return sync.cycles;
  }
  switch (place.kind) {
    case GraphNodeKind::Clip: return slots_[static_cast<std::size_t>(place.slot)].progress;
    case GraphNodeKind::StateMachine: {
      const Machine& m = machines_[static_cast<std::size_t>(place.machine)];
      return normalized_time(graph_->children()[place.first_child + static_cast<std::uint32_t>(m.active.back().state)]);
    }
    case GraphNodeKind::Blend1d:
    case GraphNodeKind::Blend2d: {
      if (place.sync_root >= 0) return normalized_time(static_cast<std::size_t>(place.sync_root));
      std::uint32_t heaviest = 0;
      for (std::uint32_t c = 1; c < place.child_count; ++c)
        if (child_weights_[place.first_child + c] > child_weights_[place.first_child + heaviest]) heaviest = c;
      return normalized_time(graph_->children()[place.first_child + heaviest]);
    }
    case GraphNodeKind::Layer:
    case GraphNodeKind::Sync: return normalized_time(graph_->children()[place.first_child]);
  }
  return 0.0;
}

Ticks GraphInstance::clip_time(std::size_t slot) const noexcept {
  return slot < slots_.size() ? slots_[slot].clock.time() : Ticks{0};
}

std::string_view GraphInstance::state_of(std::size_t index) const noexcept {
  if (index >= graph_->places().size() || graph_->places()[index].machine < 0) return {};
  const int machine = graph_->places()[index].machine;
  const Machine& m = machines_[static_cast<std::size_t>(machine)];
  return graph_->machines()[static_cast<std::size_t>(machine)].state_names[static_cast<std::size_t>(m.active.back().state)];
}

std::string_view GraphInstance::state() const noexcept { return state_of(0); }

}  // namespace marrow
