// A GraphInstance's frame after its transitions: each place's weight, then the clocks (plain,
// phase-synced and marker-synced), in the order graph_instance.hpp gives.
#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "marrow/model/graph_instance.hpp"
#include "marrow/runtime/blend_space.hpp"

namespace marrow {

namespace {

// Segment s of a marker-synced clip, in ticks: from marker s to the next (the last to the first,
// around the seam), unwrapped so that positions run from the first marker m0 to m0 + duration.
std::pair<double, double> segment_bounds(std::span<const Ticks> markers, Ticks duration, std::size_t s) {
  const double d = static_cast<double>(duration.count()), m0 = static_cast<double>(markers[0].count());
  double from = static_cast<double>(markers[s].count());
  if (from < m0) from += d;
  double to = static_cast<double>(markers[(s + 1) % markers.size()].count());
  if (to <= from) to += d;
  return {from, to};
}

// A marker-synced clip's position at marker phase p in [0, k): in [m0, m0 + duration].
double marker_position(std::span<const Ticks> markers, Ticks duration, double p) {
  const auto s = std::min(static_cast<std::size_t>(std::max(p, 0.0)), markers.size() - 1);
  const auto [from, to] = segment_bounds(markers, duration, s);
  return from + (p - static_cast<double>(s)) * (to - from);
}

// The marker phase of clip time t (the inverse of marker_position).
double marker_phase(std::span<const Ticks> markers, Ticks duration, Ticks t) {
  double x = static_cast<double>(t.count());
  if (x < static_cast<double>(markers[0].count())) x += static_cast<double>(duration.count());
  for (std::size_t s = 0; s < markers.size(); ++s) {
    const auto [from, to] = segment_bounds(markers, duration, s);
    if (x >= from && x < to) return static_cast<double>(s) + (x - from) / (to - from);
  }
  return 0.0;
}

}  // namespace

// --- Weights ----------------------------------------------------------------------------------

// A clip place's weights, inline where a parent weighs its children (most children are clips:
// a call each saved).
inline void GraphInstance::weigh_clip(std::size_t index, float weight, float reported, bool additive, int mask_depth, bool playing) {
  const GraphPlace& place = graph_->places()[index];
  playing_[index] = playing ? 1 : 0;
  Slot& slot = slots_[static_cast<std::size_t>(place.slot)];
  slot.weight = weight;
  slot.reported = reported;
  slot.additive = additive;
  slot.masked = mask_depth >= 0;
  if (slot.masked) std::copy(masks_[static_cast<std::size_t>(mask_depth)].begin(), masks_[static_cast<std::size_t>(mask_depth)].end(), slot.mask.begin());
}

inline void GraphInstance::weigh_child(std::size_t index, float weight, float reported, bool additive, int mask_depth, bool playing) {
  if (graph_->places()[index].kind == GraphNodeKind::Clip) {
    weigh_clip(index, weight, reported, additive, mask_depth, playing);
  } else {
    weigh(index, weight, reported, additive, mask_depth, playing);
  }
}

void GraphInstance::weigh(std::size_t index, float weight, float reported, bool additive, int mask_depth, bool playing) {
  const GraphPlace& place = graph_->places()[index];
  if (place.kind == GraphNodeKind::Clip) {  // the root alone: clips below are weighed by weigh_child
    weigh_clip(index, weight, reported, additive, mask_depth, playing);
    return;
  }
  playing_[index] = playing ? 1 : 0;
  const std::span<const std::uint32_t> children = graph_->children().subspan(place.first_child, place.child_count);
  switch (place.kind) {
    case GraphNodeKind::Clip: return;
    case GraphNodeKind::Blend1d:
    case GraphNodeKind::Blend2d: {
      const std::span<float> shares(child_weights_.data() + place.first_child, place.child_count);
      const bool two = place.kind == GraphNodeKind::Blend2d;
      const glm::vec2 at{values_[static_cast<std::size_t>(place.parameters[0])], two ? values_[static_cast<std::size_t>(place.parameters[1])] : 0.f};
      // The shares are a function of the parameters: kept while they are unchanged, bit for bit.
      if (std::bit_cast<std::uint64_t>(at) != std::bit_cast<std::uint64_t>(blend_inputs_[index])) {
        if (two) {
          place.space->weights(at, shares);  // AG2
        } else {
          blend1d_weights(place.positions, at.x, shares);  // AG1
        }
        blend_inputs_[index] = at;
      }
      for (std::size_t c = 0; c < children.size(); ++c) weigh_child(children[c], weight * shares[c], reported * shares[c], additive, mask_depth, playing);
      return;
    }
    case GraphNodeKind::StateMachine: {
      const Machine& m = machines_[static_cast<std::size_t>(place.machine)];
      std::fill_n(child_weights_.begin() + place.first_child, place.child_count, 0.f);
      for (const Active& a : m.active) child_weights_[place.first_child + static_cast<std::uint32_t>(a.state)] = a.weight;
      for (std::size_t c = 0; c < children.size(); ++c) {
        const bool shows = std::any_of(m.active.begin(), m.active.end(), [&](const Active& a) { return a.state == static_cast<int>(c); });
        const float share = child_weights_[place.first_child + c];
        weigh_child(children[c], weight * share, reported * share, additive, mask_depth, playing && shows);
      }
      return;
    }
    case GraphNodeKind::Sync: weigh_child(children[0], weight, reported, additive, mask_depth, playing); return;
    case GraphNodeKind::Layer: weigh_layer(index, weight, reported, additive, mask_depth, playing); return;
  }
}

// A layer node (B2, B3): child c (0 the base, c >= 1 layer c - 1) gets
//   [base ? 1 : w_c m_c(j)] * prod over later override layers k of (1 - w_k m_k(j)),
// split into a scalar (the unmasked factors) and a per-node mask (the masked ones, times the mask
// from above). Override weights are clamped to [0, 1]; the reported weight takes every mask as 1.
void GraphInstance::weigh_layer(std::size_t index, float weight, float reported, bool additive, int mask_depth, bool playing) {
  const GraphPlace& place = graph_->places()[index];
  const std::span<const std::uint32_t> children = graph_->children().subspan(place.first_child, place.child_count);
  const std::size_t layers = place.layers.size();
  const auto layer_weight = [&](std::size_t k) {
    const GraphPlace::Layer& l = place.layers[k];
    float w = l.weight_parameter >= 0 ? std::clamp(values_[static_cast<std::size_t>(l.weight_parameter)], 0.f, 1.f) : l.weight;
    if (l.mode == GraphLayerMode::Override) w = std::min(w, 1.f);
    return w;
  };
  const int depth = mask_depth + 1;  // this node's mask buffer
  for (std::size_t c = 0; c <= layers; ++c) {
    float scalar = 1.f, shown = 1.f;
    bool masked = false;
    const GraphPlace::Layer* own = c > 0 ? &place.layers[c - 1] : nullptr;
    if (own != nullptr) {
      scalar = shown = layer_weight(c - 1);
      masked = !own->mask.empty();
    }
    for (std::size_t k = c; k < layers; ++k) {  // later override layers (k is layer index c..)
      const GraphPlace::Layer& later = place.layers[k];
      if (later.mode != GraphLayerMode::Override) continue;
      const float w = layer_weight(k);
      shown *= 1.f - w;
      if (later.mask.empty()) scalar *= 1.f - w;
      masked |= !later.mask.empty();
    }
    int child_depth = mask_depth;
    if (masked) {
      std::vector<float>& mask = masks_[static_cast<std::size_t>(depth)];
      const std::size_t nodes = mask.size();
      for (std::size_t j = 0; j < nodes; ++j) {
        float m = mask_depth >= 0 ? masks_[static_cast<std::size_t>(mask_depth)][j] : 1.f;
        if (own != nullptr && !own->mask.empty()) m *= own->mask[j];
        for (std::size_t k = c; k < layers; ++k) {
          const GraphPlace::Layer& later = place.layers[k];
          if (later.mode == GraphLayerMode::Override && !later.mask.empty()) m *= 1.f - layer_weight(k) * later.mask[j];
        }
        mask[j] = m;
      }
      child_depth = depth;
    }
    const bool add = additive || (own != nullptr && own->mode == GraphLayerMode::Additive);
    weigh_child(children[c], weight * scalar, reported * shown, add, child_depth, playing);
  }
}

// --- Clocks -----------------------------------------------------------------------------------

// A place's clocks, a clip's inline where a parent advances its children (most children are
// clips: a call each saved). A clip under a sync place follows the phase (advance_sync) instead.
inline void GraphInstance::advance_child(std::size_t index, Ticks dt) {
  const GraphPlace& place = graph_->places()[index];
  if (place.kind != GraphNodeKind::Clip) {
    advance(index, dt);
    return;
  }
  if (playing_[index] == 0 || place.sync_root >= 0) return;  // a clip is never a sync place itself
  Slot& slot = slots_[static_cast<std::size_t>(place.slot)];
  const Ticks delta = scaled_ticks(dt, slot.clock.rate());  // what advance(dt) moves, taken once
  slot.clock.advance_ticks(delta, slot.clock.mode(), driven_[static_cast<std::size_t>(place.slot)].step);
  if (slot.clock.duration() > Ticks{0}) {
    const double moved = std::abs(static_cast<double>(delta.count()));
    slot.progress += moved / static_cast<double>(slot.clock.duration().count());
    if (place.loop == LoopMode::Once) slot.progress = std::min(slot.progress, 1.0);
  } else {
    slot.progress = 1.0;
  }
}

void GraphInstance::advance(std::size_t index, Ticks dt) {
  const GraphPlace& place = graph_->places()[index];
  if (place.kind == GraphNodeKind::Clip) {  // the root alone: clips below are advanced by advance_child
    advance_child(index, dt);
    return;
  }
  if (playing_[index] == 0) return;
  if (sync_index_[index] >= 0) {
    advance_sync(index, dt);  // its clips follow its phase
    return;
  }
  for (std::uint32_t c = 0; c < place.child_count; ++c) advance_child(graph_->children()[place.first_child + c], dt);
}

// B4: each playing machine's fade moves on with real time; what has faded out stops.
void GraphInstance::advance_fades(std::size_t index, Ticks dt) {
  const GraphPlace& place = graph_->places()[index];
  if (!place.machine_below) return;  // nothing fades down there
  if (place.kind != GraphNodeKind::StateMachine) {
    for (std::uint32_t c = 0; c < place.child_count; ++c) advance_fades(graph_->children()[place.first_child + c], dt);
    return;
  }
  Machine& m = machines_[static_cast<std::size_t>(place.machine)];
  if (m.duration > 0.f) {
    m.elapsed += static_cast<float>(seconds_from_ticks(dt));
    const float u = std::min(1.f, m.elapsed / m.duration);
    for (Active& a : m.active) a.weight = &a == &m.active.back() ? u : a.from * (1.f - u);
    if (u >= 1.f) {
      m.active.erase(m.active.begin(), m.active.end() - 1);
      m.active.back().weight = 1.f;
      m.duration = 0.f;
    }
  }
  for (const Active& a : m.active) advance_fades(graph_->children()[place.first_child + static_cast<std::uint32_t>(a.state)], dt);
}

namespace {

// B6's blend of lengths: each member's length (seconds; negative: left out) weighted by its
// weight, or their plain mean while every weight is 0.
template <class Slots, class Length>
double weighted_length(std::span<const std::uint32_t> members, const Slots& slots, const Length& length_of) {
  double weights = 0.0, lengths = 0.0, plain = 0.0;
  std::size_t count = 0;
  for (const std::uint32_t s : members) {
    const double length = length_of(s);
    if (!(length >= 0.0)) continue;
    weights += slots[s].reported;
    lengths += static_cast<double>(slots[s].reported) * length;
    plain += length;
    ++count;
  }
  if (count == 0) return 0.0;
  return weights > 0.0 ? lengths / weights : plain / static_cast<double>(count);
}

}  // namespace

double GraphInstance::cycle_seconds(const Sync& sync) const noexcept {
  // B6: the members' cycle lengths, duration / |rate|.
  return weighted_length(sync.slots, slots_, [&](std::uint32_t s) {
    const PlaybackClock& clock = slots_[s].clock;
    const double rate = std::abs(static_cast<double>(clock.rate()));
    return rate > 0.0 && clock.duration() > Ticks{0} ? seconds_from_ticks(clock.duration()) / rate : -1.0;
  });
}

void GraphInstance::advance_sync(std::size_t index, Ticks dt) {
  const GraphPlace& place = graph_->places()[index];
  if (place.marker_set >= 0) {
    advance_marker_sync(index, seconds_from_ticks(dt));
    return;
  }
  Sync& sync = syncs_[static_cast<std::size_t>(sync_index_[index])];
  const double cycle = cycle_seconds(sync);
  if (!(cycle > 0.0)) return;
  // The phase moves by whole cycles and a fraction, kept in [0, 1) so positions stay exact.
  const double moved = seconds_from_ticks(dt) / cycle;
  const double cycles = std::floor(moved), before = sync.phase, after = before + (moved - cycles);
  for (const std::uint32_t s : sync.slots) {
    Slot& slot = slots_[s];
    const double d = static_cast<double>(slot.clock.duration().count());
    Ticks step = phase_step(slot.clock.duration(), cycles, before * d, after * d);
    if (slot.clock.rate() < 0.f) step = -step;
    slot.clock.advance_ticks(step, slot.clock.mode(), driven_[s].step);
  }
  sync.phase = after - std::floor(after);
  sync.cycles += moved;
}

// AG5: the phase counts marker to marker; each segment's length is the members' lengths of that
// segment (seconds at their rates) weighted like B6's cycle.
void GraphInstance::advance_marker_sync(std::size_t index, double seconds) {
  Sync& sync = syncs_[static_cast<std::size_t>(sync_index_[index])];
  const std::size_t k = graph_->marker_sets()[static_cast<std::size_t>(graph_->places()[index].marker_set)].names.size();
  const auto segment = [&](std::size_t s) {  // seconds
    return weighted_length(sync.slots, slots_, [&](std::uint32_t slot) {
      const PlaybackClock& clock = slots_[slot].clock;
      const double rate = std::abs(static_cast<double>(clock.rate()));
      if (!(rate > 0.0)) return -1.0;
      const auto [from, to] = segment_bounds(graph_->slot_markers(slot), clock.duration(), s);
      return seconds_from_ticks(Ticks{std::llround(to - from)}) / rate;
    });
  };
  double cycle = 0.0;
  for (std::size_t s = 0; s < k; ++s) cycle += segment(s);
  if (!(cycle > 0.0)) return;
  const double before = sync.phase;
  double remaining = seconds, p = before;
  auto wraps = static_cast<std::int64_t>(std::floor(remaining / cycle));  // whole cycles first
  remaining -= static_cast<double>(wraps) * cycle;
  for (std::size_t guard = 0; remaining > 0.0 && guard <= 2 * k; ++guard) {
    const auto s = std::min(static_cast<std::size_t>(p), k - 1);
    const double length = segment(s);
    const double to_end = (static_cast<double>(s) + 1.0 - p) * length;
    if (!(length > 0.0) || remaining < to_end) {
      p += length > 0.0 ? remaining / length : 0.0;
      remaining = 0.0;
    } else {
      remaining -= to_end;
      p = static_cast<double>(s) + 1.0;
      if (p >= static_cast<double>(k)) p -= static_cast<double>(k), ++wraps;
    }
  }
  for (const std::uint32_t slot_index : sync.slots) {
    Slot& slot = slots_[slot_index];
    const std::span<const Ticks> m = graph_->slot_markers(slot_index);
    slot.clock.advance_ticks(phase_step(slot.clock.duration(), static_cast<double>(wraps), marker_position(m, slot.clock.duration(), before),
                                        marker_position(m, slot.clock.duration(), p)),
                             slot.clock.mode(), driven_[slot_index].step);
  }
  sync.phase = p;
  sync.cycles += static_cast<double>(wraps) + (p - before) / static_cast<double>(k);
}

// Entering a sync place: the phase its first clip starts at; every member moves there.
void GraphInstance::place_members(std::size_t index) {
  Sync& sync = syncs_[static_cast<std::size_t>(sync_index_[index])];
  sync.cycles = 0.0;
  if (sync.slots.empty()) return;
  const GraphPlace& place = graph_->places()[index];
  const Slot& first = slots_[sync.slots[0]];
  const Ticks duration = first.clock.duration();
  if (place.marker_set >= 0) {
    sync.phase = marker_phase(graph_->slot_markers(sync.slots[0]), duration, first.clock.time());
  } else {
    sync.phase = duration > Ticks{0} ? static_cast<double>(first.clock.time().count()) / static_cast<double>(duration.count()) : 0.0;
    if (first.clock.rate() < 0.f) sync.phase = 1.0 - sync.phase;
    sync.phase -= std::floor(sync.phase);
  }
  for (const std::uint32_t s : sync.slots) {
    Slot& slot = slots_[s];
    const double d = static_cast<double>(slot.clock.duration().count());
    double t = 0.0;
    if (place.marker_set >= 0) {
      t = marker_position(graph_->slot_markers(s), slot.clock.duration(), sync.phase);
      if (t >= d && d > 0.0) t -= d;
    } else {
      t = (slot.clock.rate() < 0.f ? 1.0 - sync.phase : sync.phase) * d;
    }
    slot.clock.seek(Ticks{std::llround(t)});
  }
}

}  // namespace marrow
